"""Issue 12, on literal requests: an invariant's verdict counts what it judged, names every violating
request, and `wire.parameters-valid-schema` follows the `$ref`s it claims are valid."""

from __future__ import annotations

import json
from typing import Any

from toolproof.fakes.records import ModelRequest
from toolproof.judge import invariants
from toolproof.judge.declared import Declared

DECLARED = Declared.from_hello(
    {"implementation": {"name": "x", "version": "0", "language": "py"}, "capabilities": ["openai.chat"]}
)


def function(name: str, parameters: Any = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name}
    if parameters is not None:
        spec["parameters"] = parameters
    return {"type": "function", "function": spec}


def body(*tools: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if tools:
        out["tools"] = list(tools)
    return out


def request(token: str, index: int, data: Any) -> ModelRequest:
    raw = json.dumps(data).encode() if data is not None else b"not json"
    return ModelRequest(
        token=token,
        index=index,
        method="POST",
        path=f"/{token}/v1/chat/completions",
        query="",
        headers=(),
        body=raw,
        json=data,
        status=200,
        response=None,
        note="",
    )


TWICE = body(function("lookup"), function("lookup"))
THRICE = body(function("lookup"), function("lookup"), function("lookup"))
FINE = body(function("lookup"), function("other"))


def test_a_passing_verdict_counts_the_requests_it_judged() -> None:
    verdict = invariants.judge("wire.unique-function-names", [request("aa", 0, FINE)] * 12, DECLARED)
    assert (verdict.judged, verdict.not_judged, verdict.violations) == (12, 0, ())
    assert verdict.message() == "0 of 12 requests violate"
    assert verdict.observation() is None


def test_a_failing_verdict_names_every_violating_request_and_every_problem() -> None:
    requests = [
        request("aa", 0, FINE),
        request("aa", 1, TWICE),
        request("aa", 2, FINE),
        request("bb", 0, THRICE),
        request("bb", 1, TWICE),
    ]
    verdict = invariants.judge("wire.unique-function-names", requests, DECLARED)
    # A problem shared by several requests is one line naming them all; nothing is cut off.
    assert verdict.message() == (
        "3 of 5 requests violate: aa#1, bb#0, bb#1\n"
        "requests aa#1, bb#0, bb#1: tools[1] and tools[0] both declare function 'lookup'\n"
        "request bb#0: tools[2] and tools[0] both declare function 'lookup'"
    )
    assert verdict.observation() == {
        "judged": 5,
        "not_judged": 0,
        "violating": {
            "aa#1": ["tools[1] and tools[0] both declare function 'lookup'"],
            "bb#0": [
                "tools[1] and tools[0] both declare function 'lookup'",
                "tools[2] and tools[0] both declare function 'lookup'",
            ],
            "bb#1": ["tools[1] and tools[0] both declare function 'lookup'"],
        },
    }


def test_one_violating_request_of_one() -> None:
    verdict = invariants.judge("wire.unique-function-names", [request("aa", 0, TWICE)], DECLARED)
    assert verdict.message() == (
        "1 of 1 request violates: aa#0\nrequest aa#0: tools[1] and tools[0] both declare function 'lookup'"
    )


def test_a_body_invariant_says_which_requests_it_could_not_judge() -> None:
    requests = [request("aa", 0, FINE), request("aa", 1, None), request("aa", 2, "text")]
    verdict = invariants.judge("wire.unique-function-names", requests, DECLARED)
    assert (verdict.judged, verdict.not_judged) == (1, 2)
    assert verdict.message() == (
        "0 of 1 request violate\n"
        "not judged: 2 requests whose body is not a JSON object (wire.request-schema judges those)"
    )
    # A request invariant judges every request, whatever its body.
    schema = invariants.judge("wire.request-schema", requests, DECLARED)
    assert (schema.judged, schema.not_judged) == (3, 0)
    assert schema.message() == (
        "2 of 3 requests violate: aa#1, aa#2\n"
        "request aa#1: the body is not a JSON object: b'not json'\n"
        "request aa#2: the body is not a JSON object: b'\"text\"'"
    )


def test_every_invariant_is_recorded() -> None:
    assert (*invariants.INVARIANTS, *invariants.REQUEST_INVARIANTS) == invariants.RECORDED
    assert len(invariants.RECORDED) == 25


def claiming(*capabilities: str) -> Declared:
    return Declared.from_hello(
        {"implementation": {"name": "x", "version": "1", "language": "py"}, "capabilities": capabilities}
    )


def test_unclaimed_names_the_wire_format_first_then_the_requirement_capability() -> None:
    assert invariants.unclaimed("toolsets.namespace", claiming("openai.chat")) == ["toolsets.namespace"]
    assert invariants.unclaimed("toolsets.namespace", claiming("toolsets.namespace")) == ["model.*"]
    assert invariants.unclaimed("toolsets.namespace", claiming()) == ["model.*", "toolsets.namespace"]
    assert invariants.unclaimed("openai.chat", claiming("toolsets.namespace")) == ["openai.chat"]
    assert invariants.unclaimed(None, claiming()) == ["model.*"]
    assert invariants.unclaimed("toolsets.namespace", claiming("openai.chat", "toolsets.namespace")) == []
    messages = claiming("anthropic.messages", "toolsets.namespace")
    assert invariants.unclaimed("toolsets.namespace", messages) == []


def test_either_wire_claims_a_wire_neutral_requirement_and_only_its_own_wire_requirement() -> None:
    responses = claiming("openai.responses")
    assert invariants.unclaimed("model.*", responses) == []
    assert invariants.unclaimed("openai.*", responses) == []
    assert invariants.unclaimed("loop.turn_cap", claiming("openai.responses", "loop.turn_cap")) == []
    assert invariants.unclaimed("openai.chat", responses) == ["openai.chat"]
    assert invariants.unclaimed("openai.responses", claiming("openai.chat")) == ["openai.responses"]
    assert invariants.unclaimed("openai.responses", responses) == []
    assert invariants.unclaimed("anthropic.messages", responses) == ["anthropic.messages"]


def test_the_messages_wire_claims_model_star_but_not_openai_star() -> None:
    messages = claiming("anthropic.messages")
    assert messages.wire == "anthropic.messages"
    assert invariants.unclaimed("model.*", messages) == []
    assert invariants.unclaimed("openai.*", messages) == ["openai.*"]
    assert invariants.unclaimed("openai.chat", messages) == ["openai.chat"]
    assert invariants.unclaimed("anthropic.messages", messages) == []
    assert invariants.unclaimed("loop.turn_cap", claiming("anthropic.messages", "loop.turn_cap")) == []
    assert invariants.unclaimed("openai.*", claiming("openai.chat")) == []
    assert invariants.unclaimed("openai.*", claiming()) == ["openai.*"]


def test_unclaimed_message_spells_out_each_family() -> None:
    assert invariants.unclaimed_message(["model.*", "loop.turn_cap"]) == (
        "the candidate does not claim a model wire (openai.chat or openai.responses or "
        "anthropic.messages) or loop.turn_cap"
    )
    assert invariants.unclaimed_message(["openai.*"]) == (
        "the candidate does not claim an OpenAI wire (openai.chat or openai.responses)"
    )


MONEY = {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]}


def transfer(**extra: Any) -> dict[str, Any]:
    """Issue 12's shape: `amount` and `fee` refer to `money` (in $defs unless `extra` says otherwise)."""
    return {
        "type": "object",
        **extra,
        "properties": {
            "amount": {"$ref": "#/$defs/money"},
            "fee": {"anyOf": [{"$ref": "#/$defs/money"}, {"type": "null"}]},
        },
    }


def test_references_into_defs_that_are_there_are_valid() -> None:
    assert (
        invariants.parameters_valid_schema(
            body(function("pay", transfer(**{"$defs": {"money": MONEY}}))), DECLARED
        )
        == []
    )
    recursive = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}
    assert invariants.parameters_valid_schema(body(function("tree", recursive)), DECLARED) == []
    scoped = {  # a subschema with its own $id: its reference resolves against it, not against the root
        "type": "object",
        "properties": {"x": {"$id": "https://example.com/x", "$defs": {"q": {}}, "$ref": "#/$defs/q"}},
    }
    assert invariants.parameters_valid_schema(body(function("scoped", scoped)), DECLARED) == []


def test_defs_dropped_with_the_references_kept_is_a_violation_in_plain_words() -> None:
    assert invariants.parameters_valid_schema(body(function("pay", transfer())), DECLARED) == [
        "parameters of tool 'pay' (tools[0]): $ref '#/$defs/money' at properties['amount'] points at nothing",
        "parameters of tool 'pay' (tools[0]): $ref '#/$defs/money' at properties['fee'].anyOf[0] "
        "points at nothing",
    ]


def test_references_elsewhere_or_at_no_schema_are_violations() -> None:
    parameters = {
        "type": "object",
        "definitions": {"Amount": {"type": "number"}},
        "properties": {
            "a": {"$ref": "#/definitions/amount"},  # the case differs: nothing there
            "b": {"$ref": "money.json"},
            "c": {"$ref": "#/required"},
        },
        "required": ["a"],
    }
    assert invariants.parameters_valid_schema(body(function("t", parameters)), DECLARED) == [
        "parameters of tool 't' (tools[0]): $ref '#/definitions/amount' at properties['a'] points at nothing",
        "parameters of tool 't' (tools[0]): $ref 'money.json' at properties['b'] points at nothing "
        "in the parameters document (the only one sent)",
        "parameters of tool 't' (tools[0]): $ref '#/required' at properties['c'] points at a list, "
        "not at a schema",
    ]


def test_a_property_named_ref_is_no_reference() -> None:
    parameters = {"type": "object", "properties": {"$ref": {"type": "string"}}}
    assert invariants.parameters_valid_schema(body(function("t", parameters)), DECLARED) == []


def test_a_schema_the_metaschema_rejects_is_one_problem_and_its_references_are_not_followed() -> None:
    # `"$id": 5` would make the resolver raise: the metaschema verdict is reported, in words.
    parameters = {"$id": 5, "properties": {"a": {"$ref": "#/$defs/gone"}}}
    assert invariants.parameters_valid_schema(body(function("t", parameters)), DECLARED) == [
        "tools[0].function.parameters.$id: 5 is not of type 'string'"
    ]


def test_a_schema_too_deep_for_the_validator_is_reported_in_words() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(400):
        node["items"] = {}
        node = node["items"]
    assert invariants.parameters_valid_schema(body(function("deep", deep)), DECLARED) == [
        "parameters of tool 'deep' (tools[0]): "
        "it nests too deeply to be checked against the 2020-12 metaschema"
    ]
