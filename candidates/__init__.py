"""Candidate runtimes that toolproof ships (the reference runtime and its adapter)."""
