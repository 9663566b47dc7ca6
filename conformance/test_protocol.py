"""Protocol and config-path rules every candidate must follow (contracts/requirements.yaml)."""

from __future__ import annotations

import json
from typing import Any, Final

import pytest

from toolproof.connect.conduct import Transcript
from toolproof.connect.protocol import response_problem
from toolproof.fakes import Text
from toolproof.plugin.scenario import Scenario

from ._calls import message_text, messages_of, role


@pytest.mark.checks("proto.unknown-build-id")
def test_run_on_unknown_build_id_is_an_internal_error(tp: Scenario) -> None:
    outcome = tp.run("hello?", judged=True)  # never built
    tp.expect_outcome(
        "proto.unknown-build-id",
        outcome,
        {"ok": False, "kind": "internal"},
        what="run on a build id that was never built",
    )


INSTRUCTION = "toolproof instruction 7f3e: answer as the scripted model says."
WIRE_PATHS = {
    "openai.chat": "/v1/chat/completions",
    "openai.responses": "/v1/responses",
    # CONFIG's base_url on this wire is /<token>, without /v1: Anthropic's clients add /v1/messages.
    "anthropic.messages": "/v1/messages",
    None: "/v1/chat/completions",  # no wire claimed: chat completions, as protocol v1 always said
}
"""The model endpoint path under the token, by the model wire the candidate claims."""


def key_header(tp: Scenario) -> tuple[str, str]:
    """The header carrying CONFIG's api_key and its value (PROTOCOL.md §5): `Authorization: Bearer`,
    or on anthropic.messages the declared `anthropic_key_header` (`x-api-key`, the API reference's)."""
    if tp.declared.wire == "anthropic.messages" and tp.option("anthropic_key_header") == "x-api-key":
        return ("x-api-key", "conformance-key")
    return ("authorization", "Bearer conformance-key")


@pytest.mark.checks("proto.model-settings-from-config")
def test_model_request_uses_configured_model_and_key(tp: Scenario) -> None:
    tp.script(Text("done"))
    tp.build(tp.config({}, instruction=INSTRUCTION))
    tp.run("say done")
    requests = tp.model_requests()
    key_name, key_value = key_header(tp)
    observed = [
        {
            "path": r.path,
            "model": (r.view or {}).get("model"),
            key_name: [v for k, v in r.headers if k.lower() == key_name],
            "roles carrying the instruction": [
                role(m) for m in messages_of(r) if INSTRUCTION in str(message_text(m))
            ],
        }
        for r in requests
    ]
    tp.expect(
        "proto.model-settings-from-config",
        observed,
        [
            {
                "path": f"/{tp.token}{WIRE_PATHS[tp.declared.wire]}",
                "model": "conformance-model",
                key_name: [key_value],
                "roles carrying the instruction": [tp.option("instruction_role")],
            }
        ],
        what="the one model request of a text-only run",
    )


@pytest.mark.checks("proto.unknown-op")
def test_unknown_op_is_an_internal_error_and_the_adapter_keeps_serving(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable(
            "proto.unknown-op", "an in-process candidate has no wire on which an unknown op could arrive"
        )
        return
    generation = tp.process_generation()
    answer = tp.send_raw({"op": "frobnicate", "id": tp.token})
    observed = {"ok": answer.get("ok"), "kind": (answer.get("error") or {}).get("kind")}
    tp.expect(
        "proto.unknown-op", observed, {"ok": False, "kind": "internal"}, what="the answer to an unknown op"
    )
    again = tp.send_raw({"op": "hello", "protocol": 1})
    tp.expect(
        "proto.unknown-op",
        [again.get("ok"), tp.process_generation()],
        [True, generation],
        what="hello answered by the same adapter process afterwards",
    )


@pytest.mark.checks("proto.unknown-build-id")
def test_closed_and_failed_build_ids_are_not_live(tp: Scenario) -> None:
    tp.script(Text("done"))
    tp.build(tp.config({}))
    tp.expect_outcome("proto.unknown-build-id", tp.close(), {"ok": True}, what="close of a live build")
    tp.expect_outcome(
        "proto.unknown-build-id",
        tp.run("hello?", judged=True),
        {"ok": False, "kind": "internal"},
        what="run after close",
    )
    tp.expect_outcome(
        "proto.unknown-build-id",
        tp.close(),
        {"ok": False, "kind": "internal"},
        what="a second close of the same id",
    )
    failed = tp.sibling()
    failed.build(failed.config({"alpha": failed.server("alpha", dedup_preferred=True)}), judged=True)
    tp.expect_outcome(
        "proto.unknown-build-id",
        failed.run("hello?", judged=True),
        {"ok": False, "kind": "internal"},
        what="run on an id whose build failed (dedup_preferred without a dedup_key)",
    )


@pytest.mark.checks("proto.error-kinds")
def test_a_contract_named_failure_is_not_reported_as_internal(tp: Scenario) -> None:
    """A CONFIG the runtime's own validation rejects (dedup_preferred without a key) is invalid_config.

    A non-claimer's adapter refuses the field itself (PROTOCOL.md §7), so the input would judge the
    adapter's refusal, not how the runtime's errors reach the protocol: not testable there.
    """
    if "toolsets.dedup_key" in tp.declared.capabilities:
        # tp-dedup-preferred-requires-key: the runtime's validation of a claimed field, at build.
        outcome = tp.build(tp.config({"alpha": tp.server("alpha", dedup_preferred=True)}), judged=True)
        tp.expect_outcome(
            "proto.error-kinds",
            outcome,
            {"ok": False, "kind": "invalid_config"},
            what="build with dedup_preferred, no key",
        )
    else:
        # A cap the runtime never validates is tp-loop-cap-invalid's failure; judged here too it would be
        # one root cause failing two requirements. Without dedup, nothing else reaches the runtime.
        tp.not_testable(
            "proto.error-kinds",
            "the candidate does not claim toolsets.dedup_key: every other CONFIG error the contract names "
            "for it is refused by the adapter itself, or is judged by its own requirement "
            "(tp-loop-cap-invalid pins invalid_config for a bad cap)",
        )


HELLO = {"op": "hello", "protocol": 1}
SESSION_OUTPUT = "conduct: done"


def _session(tp: Scenario) -> Transcript:
    """hello, build, run, close, hello on a fresh twin of the candidate."""
    tp.script(Text(SESSION_OUTPUT))
    return tp.converse(
        [
            HELLO,
            {"op": "build", "id": tp.token, "config": tp.config({})},
            {"op": "run", "id": tp.token, "input": "say done"},
            {"op": "close", "id": tp.token},
            HELLO,
        ]
    )


def _answer_kind(response: dict[str, Any]) -> str:
    """What a response answers, told apart by its keys (responses carry no request id)."""
    if response.get("ok") is False:
        return "error"
    if "protocol" in response:
        return "hello"
    if "output" in response:
        return "run"
    if response == {"ok": True}:
        return "bare ok"
    return f"unrecognised: {sorted(response)}"


IN_PROCESS = (
    "an in-process candidate answers by return value, and the harness checks every one against its"
    " schema on every call (a breach fails the test that met it, side adapter-protocol)"
)

MALFORMED = '{"op": "hello", "protocol": 1'
"""A request line that is not JSON: a hello with its closing brace missing (a lenient parser's hello)."""


def _line_answer(line: str) -> dict[str, Any]:
    """What one stdout line answers (`_answer_kind`), and an error's kind; a line that is no JSON
    object is shown as it is."""
    try:
        value: Any = json.loads(line)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        return {"not a JSON object": line}
    error = value.get("error")
    if value.get("ok") is False:
        return {"answers": "error", "kind": error.get("kind") if isinstance(error, dict) else error}
    return {"answers": _answer_kind(value)}


@pytest.mark.checks("proto.malformed-request")
def test_a_line_that_is_not_json_gets_internal_and_the_adapter_keeps_serving(tp: Scenario) -> None:
    """hello, a line that is not JSON, hello on a fresh twin: one line each, the middle one an
    error of kind internal valid against the schema, and the twin still answers the last hello."""
    if tp.transport != "cmd":
        tp.not_testable(
            "proto.malformed-request",
            "an in-process candidate has no wire on which a malformed line could arrive",
        )
        return
    transcript = tp.converse([HELLO, MALFORMED, HELLO])
    paired = len(transcript.objects()) == len(transcript.requests)
    tp.expect(
        "proto.malformed-request",
        {
            "lines": [_line_answer(line) for line in transcript.lines],
            "schema problems": transcript.schema_problems() if paired else "responses cannot be paired",
        },
        {
            "lines": [{"answers": "hello"}, {"answers": "error", "kind": "internal"}, {"answers": "hello"}],
            "schema problems": [],
        },
        what="every stdout line of a fresh candidate sent hello, a line that is not JSON, hello, then EOF",
    )


LONG_ID: Final = ('tp build é/ "q" \\ ' * 12)[:199]
BUILD_IDS: Final = {
    "1 character": "b",
    "200 characters": LONG_ID + "1",
    "200 characters, another": LONG_ID + "2",
}
"""Build ids at the protocol's bounds: BMP characters only, so 200 is the count in every language's
own string length (UTF-16 too); the two long ones differ only in their last character."""
REPLIES: Final = {name: f"build {name} answered" for name in BUILD_IDS}


def _answer(response: dict[str, Any]) -> dict[str, Any]:
    """A raw response's outcome: ok, and a run's output and stop reason, or an error's kind."""
    error = response.get("error")
    return {
        key: value
        for key, value in (
            ("ok", response.get("ok")),
            ("output", response.get("output")),
            ("stop_reason", response.get("stop_reason")),
            ("kind", error.get("kind") if isinstance(error, dict) else None),
        )
        if value is not None
    }


@pytest.mark.checks("proto.build-id-opaque")
def test_any_id_of_1_to_200_characters_is_a_build_of_its_own(tp: Scenario) -> None:
    """Three builds live at once, under a 1-character id and two 200-character ids that differ only in
    their last character; each build's model is scripted with its own reply, so a run that reaches
    another build's agent (an id cut short, or refused) answers with the wrong text."""
    builds = {name: tp.sibling() for name in BUILD_IDS}
    for name, build in builds.items():
        build.script(Text(REPLIES[name]))
    observed: dict[str, dict[str, Any]] = {name: {} for name in BUILD_IDS}
    for name, build_id in BUILD_IDS.items():
        config = builds[name].config({})
        observed[name]["build"] = _answer(tp.send_raw({"op": "build", "id": build_id, "config": config}))
    for name, build_id in BUILD_IDS.items():
        observed[name]["run"] = _answer(tp.send_raw({"op": "run", "id": build_id, "input": "say it"}))
    for name, build_id in BUILD_IDS.items():
        observed[name]["close"] = _answer(tp.send_raw({"op": "close", "id": build_id}))
    tp.expect(
        "proto.build-id-opaque",
        observed,
        {
            name: {
                "build": {"ok": True},
                "run": {"ok": True, "output": REPLIES[name], "stop_reason": "completed"},
                "close": {"ok": True},
            }
            for name in BUILD_IDS
        },
        what="build, run and close under each id (three builds live at once)",
    )


@pytest.mark.checks("proto.hello-first")
def test_hello_is_answered_first_and_nothing_comes_before_it(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable("proto.hello-first", IN_PROCESS)
        return
    transcript = tp.converse([HELLO])
    first = transcript.lines[0]
    try:
        value: Any = json.loads(first)
    except ValueError:
        value = None
    observed = {
        "first line": first if not isinstance(value, dict) else "a JSON object",
        "schema problem": response_problem("hello", value),
        "ok": value.get("ok") if isinstance(value, dict) else None,
        "protocol": value.get("protocol") if isinstance(value, dict) else None,
    }
    tp.expect(
        "proto.hello-first",
        observed,
        {"first line": "a JSON object", "schema problem": None, "ok": True, "protocol": 1},
        what="the first line a fresh candidate wrote, in answer to hello",
    )


@pytest.mark.checks("proto.stdout-protocol-only")
def test_stdout_carries_protocol_lines_only(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable("proto.stdout-protocol-only", IN_PROCESS)
        return
    transcript = _session(tp)
    tp.expect(
        "proto.stdout-protocol-only",
        transcript.stray(),
        [],
        what="stdout lines that are not a JSON object (hello, build, run, close, hello, then EOF)",
    )


@pytest.mark.checks("proto.response-order")
def test_one_response_per_request_in_request_order(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable("proto.response-order", IN_PROCESS)
        return
    transcript = _session(tp)
    tp.expect(
        "proto.response-order",
        [_answer_kind(response) for response in transcript.objects()],
        ["hello", "bare ok", "run", "bare ok", "hello"],
        what="what each JSON object line on stdout answers (hello, build, run, close, hello, then EOF)",
    )


@pytest.mark.checks("proto.response-schema")
def test_every_response_is_valid_against_its_schema(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable("proto.response-schema", IN_PROCESS)
        return
    transcript = _session(tp)
    if len(transcript.objects()) != len(transcript.requests):
        tp.not_testable(
            "proto.response-schema",
            f"{len(transcript.objects())} JSON object lines for {len(transcript.requests)} requests:"
            " responses cannot be paired with requests (proto.response-order judges this)",
        )
        return
    tp.expect(
        "proto.response-schema",
        transcript.schema_problems(),
        [],
        what="responses of hello, build, run, close, hello that break their command's #response schema",
    )
