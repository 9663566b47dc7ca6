"""Negative controls: each module puts one defect back, says where it comes from (`provenance`),
and names the checks it must fail."""
