# ruff: noqa
"""Asserting on test inputs (strategy data, literals) is the test's own sanity, not a verdict."""

from toolproof.plugin.scenario import Scenario


def test_input_sanity(tp: Scenario, cap: int = 3) -> None:
    assert cap > 0
    assert isinstance(tp.option("default_max_tool_turns"), int)
    tp.expect("loop.cap-exact", len(tp.tool_calls_received()), cap, what="w")
