"""The conformance suite: contract tests, run against a candidate through protocol v1."""
