# ruff: noqa
"""At-least counts where the contract says exactly N."""

from toolproof.plugin.scenario import Scenario


def test_at_least_one_call(tp: Scenario) -> None:
    tp.run("x")
    # flag-next: inexact-comparison
    tp.expect("loop.cap-exact", len(tp.tool_calls_received()) >= 1, True, what="w")


def test_at_most_by_name(tp: Scenario) -> None:
    calls = tp.tool_calls_received()
    capped = len(calls) <= 3  # flag: inexact-comparison
    tp.expect("loop.cap-exact", capped, True, what="w")


def test_any_text(tp: Scenario) -> None:
    bodies = tp.model_bodies()
    seen = any("tools" in b for b in bodies)  # flag: inexact-comparison
    tp.expect("wire.tools-offered", seen, True, what="w")


def test_expected_chosen_by_a_count(tp: Scenario) -> None:
    calls = tp.tool_calls_received()
    if len(calls) >= 2:  # flag: inexact-comparison
        verdict = "many"
    else:
        verdict = "few"
    tp.expect("loop.cap-exact", verdict, "many", what="w")
