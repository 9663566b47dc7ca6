# ruff: noqa
"""Two comparisons of different values, or of declared options, are no alternatives."""

from toolproof.plugin.scenario import Scenario


def test_two_fields(tp: Scenario) -> None:
    outcome = tp.run("x")
    both = outcome.ok == False and outcome.kind == "internal"
    tp.expect(
        "proto.unknown-build-id",
        {"ok": outcome.ok, "kind": outcome.kind},
        {"ok": False, "kind": "internal"},
        what="w",
    )


def test_declared_alternatives(tp: Scenario) -> None:
    graceful = tp.option("turn_cap_end") == "graceful" or tp.option("turn_cap_end") == "error"
    tp.expect("loop.cap-end-text", tp.run("x").ok, True, what="w")
