# ruff: noqa
"""Reducing an observation to its truthiness."""

from toolproof.plugin.scenario import Scenario


def test_bool_of_calls(tp: Scenario) -> None:
    tp.expect("loop.cap-exact", bool(tp.tool_calls_received()), True, what="w")  # flag: truthiness


def test_not_as_value(tp: Scenario) -> None:
    outcome = tp.run("x")
    failed = not outcome.ok  # flag: truthiness
    tp.expect("proto.unknown-build-id", failed, True, what="w")
