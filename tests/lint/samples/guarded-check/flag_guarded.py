# ruff: noqa
"""Checks that run only when an observation allows: none observed, nothing judged."""

from toolproof.plugin.scenario import Scenario


def test_check_per_observed_call(tp: Scenario) -> None:
    tp.run("x")
    for call in tp.tool_calls_received("alpha"):
        name = call.rpc_params.get("name")
        tp.expect("receipt.output-tool-called", name, "lookup", what="w")  # flag: guarded-check


def test_check_only_if_ok(tp: Scenario) -> None:
    outcome = tp.run("x")
    if outcome.ok:
        tp.expect("loop.completed-output", outcome.output, "42", what="w")  # flag: guarded-check


def test_not_testable_when_it_failed(tp: Scenario) -> None:
    outcome = tp.run("x")
    if not outcome.ok:
        tp.not_testable("loop.completed-output", "the run failed")  # flag: guarded-check
    else:
        tp.expect("loop.completed-output", outcome.output, "42", what="w")


def test_leaves_early(tp: Scenario) -> None:
    calls = tp.tool_calls_received()
    if not calls:  # flag: guarded-check
        return
    tp.expect("loop.cap-exact", len(calls), 3, what="w")
