# ruff: noqa
"""A try around reading the harness's own records, or one that re-raises, swallows no verdict."""

from toolproof.judge.checks import CheckFailed
from toolproof.plugin.scenario import Scenario


def test_narrow_try(tp: Scenario) -> None:
    try:
        first = str(tp.model_requests()[0].response["choices"][0]["message"]["tool_calls"][0]["id"])
    except (IndexError, KeyError, TypeError):
        first = "<no tool call>"
    tp.expect("wire.tool-call-answered-once", first, "call_1", what="w")


def test_reraised(tp: Scenario) -> None:
    try:
        tp.expect("loop.completed-output", tp.run("x").output, "42", what="w")
    except CheckFailed:
        tp.not_testable("loop.cap-exact", "the run did not complete")
        raise
