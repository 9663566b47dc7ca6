# ruff: noqa
"""Normalising observed data before comparing it (the seed's strings.TrimSpace(key))."""

import re

from toolproof.plugin.scenario import Scenario, tool_texts


def test_lower_before_compare(tp: Scenario) -> None:
    body = tp.model_bodies()[0]
    kind = body["tools"][0]["function"]["parameters"]["type"].lower()  # flag: normalised-observation
    tp.expect("wire.parameters-lowercase-types", kind, "object", what="w")


def test_strip_output(tp: Scenario) -> None:
    outcome = tp.run("x")
    tp.expect("loop.completed-output", outcome.output.strip(), "42", what="w")  # flag: normalised-observation


def test_casefold_and_collapse(tp: Scenario) -> None:
    # flag-next: normalised-observation
    texts = [t.casefold() for t in tool_texts(tp.model_bodies()[-1], tp.declared)]
    words = " ".join(tp.run("x").output.split())  # flag: normalised-observation
    squeezed = re.sub(r"\s+", " ", tp.run("y").output)  # flag: normalised-observation
    tp.expect("receipt.ok-verbatim", [texts, words, squeezed], [["ok"], "a b", "a b"], what="w")


def test_coerced_equality(tp: Scenario) -> None:
    count = len(tp.tool_calls_received())
    same = str(count) == "3"  # flag: normalised-observation
    tp.expect("loop.cap-exact", same, True, what="w")


def test_header_value_lowered(tp: Scenario) -> None:
    # flag-next: normalised-observation
    values = [v.lower() for k, v in tp.model_requests()[0].headers if k == "authorization"]
    tp.expect("proto.model-settings-from-config", values, ["bearer conformance-key"], what="w")


def squash(text: str) -> str:
    """Normalises whatever it is given: applied to both sides it still forgives the candidate."""
    return " ".join(text.split()).lower()


def test_symmetric_helper(tp: Scenario) -> None:
    output = tp.run("x").output
    tp.expect("loop.completed-output", squash(output), squash("42"), what="w")  # flag: normalised-observation
