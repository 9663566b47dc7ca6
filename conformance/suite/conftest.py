"""Fixtures for the conformance suite (defined in conformance.fixtures)."""

from conformance.fixtures import toolproof_harness, tp

__all__ = ["toolproof_harness", "tp"]
