"""toolproof.plugin.fixtures._record_invariants on literal hellos and requests (issue 12).

An invariant whose requirement needs a capability the hello does not claim is `not_claimed`, never
`pass`; a judged one says how many requests it judged and which violate; every occurrence carries
the hosting test's ID.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

from toolproof.fakes.records import ModelRequest
from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import PRECONDITION, Recorder
from toolproof.judge.declared import Declared
from toolproof.plugin.fixtures import Harness, _record_invariants
from toolproof.plugin.scenario import Scenario

TEST_ID = "conformance/test_toolsets.py::test_two_servers"
IMPLEMENTATION = {"name": "literal", "version": "0", "language": "python"}
DUPLICATES: dict[str, Any] = {
    "model": "conformance-model",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [
        {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}},
    ],
}
UNIQUE: dict[str, Any] = {**DUPLICATES, "tools": DUPLICATES["tools"][:1]}
OTHER_CHECKS = [
    "wire.function-name-pattern",
    "wire.parameters-lowercase-types",
    "wire.parameters-valid-schema",
    "wire.tools-never-empty",
    "wire.no-tool-keys-without-tools",
    "wire.tool-message-content",
    "wire.tool-call-answered-once",
    "wire.tool-answers-in-call-order",
    "wire.endpoint",
    "wire.request-schema",
]
RESPONSES_CHECKS = [
    "responses.endpoint",
    "responses.request-schema",
    "responses.call-outputs-paired",
    "responses.strict-parameters-strict-form",
    "responses.previous-id-never-null",
    "responses.references-resolve",
    "responses.chain-outputs-paired",
    "responses.unstored-never-referenced",
]
NOT_RESPONSES = {
    check: ("not_claimed", "the candidate does not claim openai.responses") for check in RESPONSES_CHECKS
}
ANTHROPIC_CHECKS = [
    "anthropic.endpoint",
    "anthropic.request-schema",
    "anthropic.results-paired",
    "anthropic.no-empty-text",
    "anthropic.no-blank-text",
    "anthropic.tool-name-pattern",
]
NOT_ANTHROPIC = {
    check: ("not_claimed", "the candidate does not claim anthropic.messages") for check in ANTHROPIC_CHECKS
}
ANY_WIRE = "the candidate does not claim a model wire (openai.chat or openai.responses or anthropic.messages)"
OPENAI_WIRE = "the candidate does not claim an OpenAI wire (openai.chat or openai.responses)"
OPENAI_ONLY = ["wire.function-name-pattern"]
"""The invariants about OpenAI's format (`openai.*`): not claimed on anthropic.messages."""
CHAT_ONLY = [
    "wire.tools-never-empty",
    "wire.tool-message-content",
    "wire.no-tool-keys-without-tools",
    "wire.tool-call-answered-once",
    "wire.tool-answers-in-call-order",
    "wire.endpoint",
    "wire.request-schema",
]


def model_request(token: str, index: int, body: Any) -> ModelRequest:
    return ModelRequest(
        token=token,
        index=index,
        method="POST",
        path=f"/{token}/v1/chat/completions",
        query="",
        headers=(("content-type", "application/json"),),
        body=json.dumps(body).encode() if body is not None else b"<html>",
        json=body,
        status=200,
        response=None,
        note="",
    )


@dataclass
class Records:
    """Stands in for the model fake: the recorded requests per token."""

    by_token: dict[str, list[ModelRequest]] = field(default_factory=dict)

    def requests(self, token: str) -> list[ModelRequest]:
        return self.by_token.get(token, [])


@dataclass
class Built:
    """Stands in for a Scenario: its tokens and the hello it was declared with."""

    declared: Declared
    tokens: list[str]
    #: Scenario.must_show's record: invariant -> the tools (markers) the test is built to show it.
    shows: dict[str, list[str]] = field(default_factory=dict)

    def all_tokens(self) -> list[str]:
        return self.tokens


@dataclass
class Workers:
    model: Records


def record(
    capabilities: list[str],
    requests: list[ModelRequest],
    shows: dict[str, list[str]] | None = None,
    recorder: Recorder | None = None,
) -> Recorder:
    """Run _record_invariants for a candidate whose hello claims `capabilities`, over `requests` (the
    test built to show the invariants of `shows` those tools)."""
    declared = Declared.from_hello({"implementation": IMPLEMENTATION, "capabilities": capabilities})
    records = Records()
    for one in requests:
        records.by_token.setdefault(one.token, []).append(one)
    recorder = recorder if recorder is not None else Recorder(test=TEST_ID)
    scenario = Built(declared=declared, tokens=list(records.by_token) or ["aa"], shows=shows or {})
    _record_invariants(cast(Scenario, scenario), cast(Harness, Workers(model=records)), recorder)
    return recorder


def verdicts(recorder: Recorder) -> dict[str, tuple[str, str]]:
    return {r.check: (r.status, r.message) for r in recorder.results}


def test_unique_function_names_is_not_claimed_without_toolsets_namespace() -> None:
    # The runtime of issue 12: it claims openai.chat only and sends a duplicate function name.
    recorder = record(["openai.chat"], [model_request("aa", 0, DUPLICATES), model_request("aa", 1, UNIQUE)])
    assert verdicts(recorder) == {
        "wire.unique-function-names": ("not_claimed", "the candidate does not claim toolsets.namespace"),
        **{check: ("pass", "0 of 2 requests violate") for check in OTHER_CHECKS},
        **NOT_RESPONSES,
        **NOT_ANTHROPIC,
    }
    assert {(r.test, r.invariant, r.side, r.observation) for r in recorder.results} == {
        (TEST_ID, True, "candidate", None)
    }


def test_unique_function_names_fails_when_toolsets_namespace_is_claimed() -> None:
    recorder = record(
        ["openai.chat", "toolsets.namespace"],
        [
            model_request("aa", 0, DUPLICATES),
            model_request("aa", 1, UNIQUE),
            model_request("bb", 0, DUPLICATES),
        ],
    )
    unique = next(r for r in recorder.results if r.check == "wire.unique-function-names")
    assert (unique.status, unique.test, unique.requirement, unique.level) == (
        "fail",
        TEST_ID,
        "tp-ns-unique-wire-names",
        "MUST",
    )
    assert unique.message == (
        "2 of 3 requests violate: aa#0, bb#0\n"
        "requests aa#0, bb#0: tools[1] and tools[0] both declare function 'lookup'"
    )
    assert unique.observation == {
        "judged": 3,
        "not_judged": 0,
        "violating": {
            "aa#0": ["tools[1] and tools[0] both declare function 'lookup'"],
            "bb#0": ["tools[1] and tools[0] both declare function 'lookup'"],
        },
    }
    assert {r.check: r.status for r in recorder.results if r.check != unique.check} == {
        **dict.fromkeys(OTHER_CHECKS, "pass"),
        **dict.fromkeys(RESPONSES_CHECKS, "not_claimed"),
        **dict.fromkeys(ANTHROPIC_CHECKS, "not_claimed"),
    }


def unclaimed_message(check: str, chat: str) -> str:
    """What an invariant of OTHER_CHECKS says without a wire: its chat rule, its OpenAI-format rule
    (the function-name pattern), or any model wire."""
    if check in CHAT_ONLY:
        return chat
    return OPENAI_WIRE if check in OPENAI_ONLY else ANY_WIRE


def test_no_invariant_is_claimed_without_a_model_wire() -> None:
    recorder = record(["toolsets.namespace"], [model_request("aa", 0, DUPLICATES)])
    chat = "the candidate does not claim openai.chat"
    assert verdicts(recorder) == {
        "wire.unique-function-names": ("not_claimed", ANY_WIRE),
        **{check: ("not_claimed", unclaimed_message(check, chat)) for check in OTHER_CHECKS},
        **NOT_RESPONSES,
        **NOT_ANTHROPIC,
    }
    nothing = record([], [model_request("aa", 0, UNIQUE)])
    assert verdicts(nothing)["wire.unique-function-names"] == (
        "not_claimed",
        "the candidate does not claim a model wire (openai.chat or openai.responses or anthropic.messages) "
        "or toolsets.namespace",
    )


RESPONSES_BODY: dict[str, Any] = {
    "model": "conformance-model",
    "input": [
        {"role": "user", "content": "hi"},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "lookup", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "fc_1", "output": "found"},
    ],
    "tools": [
        {"type": "function", "name": "lookup", "parameters": {"type": "object"}, "strict": False},
        {"type": "function", "name": "lookup", "parameters": {"type": "object"}, "strict": False},
    ],
}


def test_a_responses_candidate_is_judged_through_the_view_and_by_the_responses_invariants() -> None:
    request = ModelRequest(
        token="aa",
        index=0,
        method="POST",
        path="/aa/v1/responses",
        query="",
        headers=(("content-type", "application/json"),),
        body=json.dumps(RESPONSES_BODY).encode(),
        json=RESPONSES_BODY,
        status=200,
        response=None,
        note="",
    )
    results = {
        r.check: (r.status, r.message)
        for r in record(["openai.responses", "toolsets.namespace"], [request]).results
    }
    chat = "the candidate does not claim openai.chat"
    assert results == {
        "wire.unique-function-names": (
            "fail",
            "1 of 1 request violates: aa#0\n"
            "request aa#0: (in its chat view, CONTRACT.md §2) "
            "tools[1] and tools[0] both declare function 'lookup'",
        ),
        **{check: ("not_claimed", chat) for check in CHAT_ONLY},
        **{check: ("pass", "0 of 1 request violate") for check in OTHER_CHECKS if check not in CHAT_ONLY},
        "responses.endpoint": ("pass", "0 of 1 request violate"),
        "responses.request-schema": ("pass", "0 of 1 request violate"),
        "responses.call-outputs-paired": (
            "fail",
            "1 of 1 request violates: aa#0\n"
            "request aa#0: input[1] function_call 'call_1' answered 0 times\n"
            "request aa#0: input[2].call_id 'fc_1' is the item id of input[1], whose call_id is 'call_1'",
        ),
        "responses.strict-parameters-strict-form": ("pass", "0 of 1 request violate"),
        "responses.previous-id-never-null": ("pass", "0 of 1 request violate"),
        "responses.references-resolve": ("pass", "0 of 1 request violate"),
        "responses.chain-outputs-paired": ("pass", "0 of 1 request violate"),
        "responses.unstored-never-referenced": ("pass", "0 of 1 request violate"),
        **NOT_ANTHROPIC,
    }


def test_a_body_invariant_with_no_json_body_to_judge_is_not_testable_never_pass() -> None:
    recorder = record(["openai.chat", "toolsets.namespace"], [model_request("aa", 0, None)])
    results = {r.check: r for r in recorder.results}
    unjudged = (
        "0 of 0 requests violate\n"
        "not judged: 1 request whose body is not a JSON object (wire.request-schema judges those)"
    )
    body_checks = ["wire.unique-function-names", *OTHER_CHECKS[:-2]]
    assert {c: (results[c].status, results[c].message) for c in body_checks} == dict.fromkeys(
        body_checks, ("not_testable", unjudged)
    )
    assert (results["wire.endpoint"].status, results["wire.endpoint"].message) == (
        "pass",
        "0 of 1 request violate",
    )
    assert (results["wire.request-schema"].status, results["wire.request-schema"].message) == (
        "fail",
        "1 of 1 request violates: aa#0\nrequest aa#0: the body is not a JSON object: b'<html>'",
    )


def test_a_test_without_model_requests_records_no_invariant() -> None:
    assert record(["openai.chat", "toolsets.namespace"], []).results == []


# -- a pass needs its observation (issue 22 §4): Scenario.must_show ---------------------------

RICH = ["shapes/schema_refs", "shapes/long_description"]
SIMPLE: dict[str, Any] = {
    **UNIQUE,
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Look something up. [tp:alpha/lookup]",
                "parameters": {"type": "object"},
            },
        }
    ],
}
SHAPES: dict[str, Any] = {
    **UNIQUE,
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "schema_refs",
                "description": "Make a transfer. [tp:shapes/schema_refs]",
                "parameters": {"type": "object", "$defs": {"m": {"type": "number"}}},
            },
        },
        {
            "type": "function",
            "function": {
                "name": "long_description",
                "description": "Describe. [tp:shapes/long_description]",
                "parameters": {"type": "object", "properties": {"notes": True}},
            },
        },
    ],
}
SHOWS = {"wire.parameters-valid-schema": RICH}


def test_an_invariant_shown_its_tools_passes() -> None:
    recorder = record(
        ["openai.chat"], [model_request("aa", 0, SIMPLE), model_request("aa", 1, SHAPES)], SHOWS
    )
    assert verdicts(recorder)["wire.parameters-valid-schema"] == ("pass", "0 of 2 requests violate")


def test_an_invariant_never_shown_its_tools_is_undecided_never_pass_on_other_tools() -> None:
    # The rich schemas never reached a request (say, a runtime dropped them): the simple schema that
    # did reach one passes the invariant, but this test's observation did not happen.
    recorder = record(["openai.chat"], [model_request("aa", 0, SIMPLE)], SHOWS)
    results = {r.check: r for r in recorder.results}
    shown = results["wire.parameters-valid-schema"]
    assert (shown.status, shown.side, shown.invariant, shown.blocked_by) == (
        "undecided",
        "candidate",
        True,
        None,
    )
    assert shown.message == (
        "not decided: this test is built to show wire.parameters-valid-schema "
        "[tp:shapes/schema_refs], [tp:shapes/long_description], and no model request of it offered "
        "them with parameters (1 request(s) judged); a pass on other tools is not this observation"
    )
    # The invariants the test was not built to show are judged as ever.
    assert results["wire.parameters-lowercase-types"].status == "pass"


def test_a_tool_offered_without_parameters_is_not_shown_the_parameters_invariants() -> None:
    bare = {**SHAPES, "tools": [{**t, "function": {**t["function"]}} for t in SHAPES["tools"]]}
    del bare["tools"][0]["function"]["parameters"]
    results = {r.check: r for r in record(["openai.chat"], [model_request("aa", 0, bare)], SHOWS).results}
    assert results["wire.parameters-valid-schema"].status == "undecided"
    assert "[tp:shapes/schema_refs], and no model request" in results["wire.parameters-valid-schema"].message


def test_a_violation_still_fails_an_invariant_never_shown_its_tools() -> None:
    broken = {**SIMPLE, "tools": [{"type": "function", "function": {"name": "x", "parameters": {"type": 5}}}]}
    results = {r.check: r for r in record(["openai.chat"], [model_request("aa", 0, broken)], SHOWS).results}
    assert results["wire.parameters-valid-schema"].status == "fail"


def test_without_requests_only_the_invariants_a_test_must_show_are_recorded_undecided() -> None:
    # A build that failed or hung: the precondition failed first, and names what blocked the showing.
    recorder = Recorder(test=TEST_ID)
    recorder.add(
        load_catalog()
        .check(PRECONDITION)
        .result(status="fail", side="candidate", message="build failed", test=TEST_ID)
    )
    record(["openai.chat"], [], SHOWS, recorder)
    invariant_results = [r for r in recorder.results if r.invariant]
    assert [(r.check, r.status, r.blocked_by) for r in invariant_results] == [
        ("wire.parameters-valid-schema", "undecided", PRECONDITION)
    ]
    assert invariant_results[0].message.endswith(
        "(0 request(s) judged; a build or run the test needed did not succeed: "
        "proto.valid-config-builds-and-runs failed); a pass on other tools is not this observation"
    )


def test_an_unclaimed_invariant_stays_not_claimed_whatever_the_test_must_show() -> None:
    shows = {"wire.unique-function-names": ["names_pair/a", "names_pair/b"]}
    recorder = record(["openai.chat"], [model_request("aa", 0, SIMPLE)], shows)
    assert verdicts(recorder)["wire.unique-function-names"] == (
        "not_claimed",
        "the candidate does not claim toolsets.namespace",
    )
