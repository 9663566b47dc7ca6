"""Negative controls: each module puts one historical bug back and names the checks it must fail."""
