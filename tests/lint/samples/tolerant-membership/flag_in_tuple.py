# ruff: noqa
"""Accepting any of several observed values."""

from toolproof.plugin.scenario import Scenario, tool_texts

KINDS = ("internal", "invalid_config")


def test_kind_in_tuple(tp: Scenario) -> None:
    outcome = tp.run("x")
    # flag-next: tolerant-membership
    tp.expect("proto.unknown-build-id", outcome.kind in ("internal", "INTERNAL"), True, what="w")


def test_kind_in_module_constant(tp: Scenario) -> None:
    outcome = tp.build({})
    tp.expect("proto.unknown-build-id", outcome.kind in KINDS, True, what="w")  # flag: tolerant-membership


def test_text_in_set_call(tp: Scenario) -> None:
    texts = tool_texts(tp.model_bodies()[-1], tp.declared)
    good = texts[0] not in set(["alpha:x", "alpha: x"])  # flag: tolerant-membership
    tp.expect("receipt.ok-verbatim", good, True, what="w")


def test_substring_of_a_literal(tp: Scenario) -> None:
    output = tp.run("x").output
    # flag-next: tolerant-membership
    tp.expect("loop.completed-output", output in "The answer is 42.", True, what="w")
