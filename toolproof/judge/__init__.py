"""Checks judge: the contract catalog, declared options, invariants, probes, baselines and diffs."""
