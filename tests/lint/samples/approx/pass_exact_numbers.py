# ruff: noqa
"""Exact numbers, types included."""

from toolproof.plugin.scenario import Scenario


def test_exact(tp: Scenario) -> None:
    tp.expect("loop.cap-exact", len(tp.tool_calls_received()), 3, what="w")
