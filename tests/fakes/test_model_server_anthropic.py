"""Self-tests of the Anthropic Messages API rendering of scripted replies (`POST /v1/messages`).

The same wire-neutral replies as the OpenAI wires, rendered as a `message`
object or its event stream. Driven by the official `anthropic` client: its
non-streaming answer is exactly the scripted text and calls, its streaming
accumulator assembles the fake's stream into exactly that same message, whatever
the chunking, and the record holds the same chat-shaped message the other wires
record. `Cut` and the failure endings work as on the other wires. Expected
values are literal.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolproof.fakes import (
    AlwaysFail,
    Call,
    Cut,
    DoneEventsOnly,
    Ended,
    HttpError,
    ModelEndpoint,
    Plan,
    RedactedThought,
    Runaway,
    StaleCall,
    Stopped,
    Streamed,
    Text,
    TextParts,
    Thinking,
    Thought,
    ToolCalls,
)
from toolproof.fakes.anthropic_wire import cut_events, encode, events, message_object
from toolproof.fakes.replies import Refusal, runaway_arguments
from toolproof.strategies.arguments import ijson_objects
from toolproof.strategies.streams import block_plans

TOOLS: list[Any] = [
    {
        "name": "alpha__lookup",
        "description": "Look something up. [tp:alpha/lookup]",
        "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    },
    {
        "name": "alpha__output_send__qq",
        "description": "Send. [tp:alpha/output_send__qq]",
        "input_schema": {"type": "object", "properties": {}},
    },
]
"""The two tools the scripts' markers name, as the Messages API offers them (client tools)."""
REQUEST: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 64,
    "messages": [{"role": "user", "content": "hi"}],
    "tools": TOOLS,
}
TEXT = Text("Hello, world!")
CALL = Call("alpha/lookup", '{"q":"weather"}')
TWO_CALLS = ToolCalls((Call("alpha/lookup", '{"q":"a"}'), Call("alpha/output_send__qq", "")), text="On it.")
"""Text beside two calls, the second without parameters (its input is {})."""
DIRECT = {"type": "direct"}
"""Every tool_use block's `caller`: the published default, a direct client call."""


def usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    """A message's whole `usage` as the fake sends it: every published key, no caching."""
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": None,
        "server_tool_use": None,
        "service_tier": "standard",
        "inference_geo": None,
    }


def parsed_usage(output_tokens: int) -> dict[str, Any]:
    """The same usage as the official client parses it (None dropped): 10 input tokens."""
    return {k: v for k, v in usage(10, output_tokens).items() if v is not None}


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(anthropic=True) as endpoint:
        yield endpoint


def client(model: ModelEndpoint, token: str) -> anthropic.Anthropic:
    """The official client aimed at `token` on `model`, its own retries off."""
    return anthropic.Anthropic(base_url=model.anthropic_base_url(token), api_key="sk-test", max_retries=0)


def create(model: ModelEndpoint, token: str) -> dict[str, Any]:
    """One non-streaming request through the official client, its answer as the client parsed it."""
    answer = client(model, token).messages.create(
        model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}], tools=TOOLS
    )
    return answer.model_dump(exclude_none=True)


def stream(model: ModelEndpoint, token: str) -> dict[str, Any]:
    """One streamed request, assembled by the official client's accumulator."""
    with client(model, token).messages.stream(
        model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}], tools=TOOLS
    ) as events:
        return events.get_final_message().model_dump(exclude_none=True)


def two_calls_answer(token: str, i: int, stop: str = "tool_use") -> dict[str, Any]:
    """TWO_CALLS answered to request `i` of `token`, as the official client parses it (None dropped)."""
    return {
        "id": f"msg_{token}_{i}",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [
            {"type": "text", "text": "On it."},
            {
                "type": "tool_use",
                "id": f"toolu_{token}_{i}_0",
                "name": "alpha__lookup",
                "input": {"q": "a"},
                "caller": DIRECT,
            },
            {
                "type": "tool_use",
                "id": f"toolu_{token}_{i}_1",
                "name": "alpha__output_send__qq",
                "input": {},
                "caller": DIRECT,
            },
        ],
        "stop_reason": stop,
        "usage": parsed_usage(76),
    }


def two_calls_message(token: str, i: int) -> dict[str, Any]:
    """The chat-shaped message TWO_CALLS stands for on this wire: the tool_use ids, the scripted text, the
    parameterless call's arguments `{}` (a tool_use input is always an object)."""
    return {
        "role": "assistant",
        "content": "On it.",
        "tool_calls": [
            {
                "id": f"toolu_{token}_{i}_0",
                "type": "function",
                "function": {"name": "alpha__lookup", "arguments": '{"q":"a"}'},
            },
            {
                "id": f"toolu_{token}_{i}_1",
                "type": "function",
                "function": {"name": "alpha__output_send__qq", "arguments": "{}"},
            },
        ],
    }


# -- the pure renderer ------------------------------------------------------


def test_a_text_reply_is_one_text_block_ending_the_turn() -> None:
    assert message_object(TEXT, REQUEST, "tk", 0) == {
        "id": "msg_tk_0",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": "Hello, world!"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "stop_details": None,
        "usage": usage(10, 12),
        "container": None,
    }


def test_calls_are_tool_use_blocks_with_object_input() -> None:
    assert message_object(TWO_CALLS, REQUEST, "tk", 3)["content"] == [
        {"type": "text", "text": "On it."},
        {
            "type": "tool_use",
            "id": "toolu_tk_3_0",
            "name": "alpha__lookup",
            "input": {"q": "a"},
            "caller": DIRECT,
        },
        {
            "type": "tool_use",
            "id": "toolu_tk_3_1",
            "name": "alpha__output_send__qq",
            "input": {},
            "caller": DIRECT,
        },
    ]
    assert message_object(TWO_CALLS, REQUEST, "tk", 3)["stop_reason"] == "tool_use"


def test_an_empty_text_sends_no_text_block() -> None:
    assert message_object(Text(""), REQUEST, "tk", 0)["content"] == []
    assert message_object(ToolCalls((CALL,), text=""), REQUEST, "tk", 0)["content"] == [
        {
            "type": "tool_use",
            "id": "toolu_tk_0_0",
            "name": "alpha__lookup",
            "input": {"q": "weather"},
            "caller": DIRECT,
        }
    ]


def test_a_truncated_reply_stops_at_max_tokens_with_its_blocks() -> None:
    answer = message_object(CALL, REQUEST, "tk", 0, stop="max_tokens")
    assert answer["stop_reason"] == "max_tokens"
    assert [block["type"] for block in answer["content"]] == ["tool_use"]


def test_ids_keep_to_the_published_pattern() -> None:
    """Token characters outside [A-Za-z0-9_-] become `_`: a runtime echoing the id sends a valid one."""
    answer = message_object(CALL, REQUEST, "t.k~1", 2)
    assert answer["id"] == "msg_t_k_1_2"
    assert answer["content"][0]["id"] == "toolu_t_k_1_2_0"


@pytest.mark.parametrize("arguments", ["[1]", '"x"', '{"q":', "not json"])
def test_arguments_that_are_no_object_are_refused(arguments: str) -> None:
    with pytest.raises(Refusal) as refused:
        message_object(Call("alpha/lookup", arguments), REQUEST, "tk", 0)
    assert refused.value.code == "toolproof_anthropic_unsupported"


def test_a_call_streams_its_arguments_text_byte_for_byte() -> None:
    assert events(CALL, REQUEST, "tk", 0) == [
        {
            "type": "message_start",
            "message": {
                "id": "msg_tk_0",
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "stop_details": None,
                "usage": usage(10, 1),
                "container": None,
            },
        },
        {"type": "ping"},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_tk_0_0",
                "name": "alpha__lookup",
                "input": {},
                "caller": DIRECT,
            },
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"q":"we'},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": 'ather"}'},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "stop_details": None,
                "container": None,
            },
            "usage": {
                "input_tokens": 10,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": 43,
                "output_tokens_details": None,
                "server_tool_use": None,
            },
        },
        {"type": "message_stop"},
    ]


def test_text_then_calls_stream_as_blocks_in_turn() -> None:
    kinds = [
        (e["type"], e.get("index"), e.get("delta", {}).get("type"))
        for e in events(TWO_CALLS, REQUEST, "tk", 0, Plan(text=(2,), arguments=((4,), ())))
    ]
    assert kinds == [
        ("message_start", None, None),
        ("ping", None, None),
        ("content_block_start", 0, None),
        ("content_block_delta", 0, "text_delta"),
        ("content_block_delta", 0, "text_delta"),
        ("content_block_stop", 0, None),
        ("content_block_start", 1, None),
        ("content_block_delta", 1, "input_json_delta"),
        ("content_block_delta", 1, "input_json_delta"),
        ("content_block_stop", 1, None),
        ("content_block_start", 2, None),
        ("content_block_delta", 2, "input_json_delta"),
        ("content_block_stop", 2, None),
        ("message_delta", None, None),
        ("message_stop", None, None),
    ]


def test_a_parameterless_call_streams_one_empty_fragment() -> None:
    stream = events(Call("alpha/output_send__qq", ""), REQUEST, "tk", 0)
    deltas = [e["delta"] for e in stream if e["type"] == "content_block_delta"]
    assert deltas == [{"type": "input_json_delta", "partial_json": ""}]


@pytest.mark.parametrize(
    "plan",
    [Plan(order=(0, 0)), Plan(comments=True), Plan(compact_done=True), Plan(empty_content=True)],
    ids=["order", "comments", "compact_done", "empty_content"],
)
def test_chat_only_shapes_are_refused(plan: Plan) -> None:
    with pytest.raises(ValueError, match="chat-only"):
        events(CALL, REQUEST, "tk", 0, plan)


def test_encode_names_every_event_as_its_type() -> None:
    assert encode([{"type": "ping"}, {"type": "message_stop"}]) == (
        b'event: ping\ndata: {"type": "ping"}\n\nevent: message_stop\ndata: {"type": "message_stop"}\n\n'
    )


@pytest.mark.parametrize(
    ("at", "partial"),
    [(0, []), (3, ['{"q']), (15, ['{"q":"weather"}'])],
    ids=["opener", "inside", "whole"],
)
def test_cut_events_stop_inside_the_arguments(at: int, partial: list[str]) -> None:
    stream = cut_events(Cut(CALL, call=0, at=at, ending="abort"), REQUEST, "tk", 0)
    assert [e["type"] for e in stream] == [
        "message_start",
        "ping",
        "content_block_start",
        *["content_block_delta"] * len(partial),
    ]
    assert [e["delta"]["partial_json"] for e in stream[3:]] == partial


def test_a_cut_with_an_error_ending_ends_in_an_error_event() -> None:
    stream = cut_events(Cut(TWO_CALLS, call=1, at=0, ending="error"), REQUEST, "tk", 0)
    assert stream[-2] == {
        "type": "content_block_start",
        "index": 2,
        "content_block": {
            "type": "tool_use",
            "id": "toolu_tk_0_1",
            "name": "alpha__output_send__qq",
            "input": {},
            "caller": DIRECT,
        },
    }
    assert stream[-1] == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "toolproof: the stream broke off (scripted)"},
    }


# -- over HTTP, with the official client --------------------------------------


def test_the_client_reads_exactly_the_scripted_message(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TWO_CALLS, TEXT])
    assert create(model, token) == two_calls_answer(token, 0)
    assert create(model, token)["content"] == [{"type": "text", "text": "Hello, world!"}]
    records = model.requests(token)
    assert [r.wire for r in records] == ["anthropic.messages"] * 2
    assert records[0].message == two_calls_message(token, 0)
    assert records[1].message == {"role": "assistant", "content": "Hello, world!"}


PLANS = [
    Plan(text=(1, 2, 3, 4, 5), arguments=(tuple(range(1, 9)), ())),
    Plan(text=(), arguments=((), ())),
    Plan(text=(3,), arguments=((1,), ())),
]


@pytest.mark.parametrize("plan", PLANS, ids=["one-character", "whole", "uneven"])
def test_the_clients_accumulator_assembles_the_stream_into_the_plain_answer(
    model: ModelEndpoint, token: str, plan: Plan
) -> None:
    model.script(token, [TWO_CALLS, Streamed(TWO_CALLS, plan)])
    plain = create(model, token)
    streamed = stream(model, token)
    assert plain == two_calls_answer(token, 0)
    assert streamed == two_calls_answer(token, 1)
    records = model.requests(token)
    assert records[1].message == two_calls_message(token, 1)
    assert [e["type"] for e in records[1].response][-2:] == ["message_delta", "message_stop"]


def test_raw_stream_names_each_event_and_ends_after_message_stop(model: ModelEndpoint, token: str) -> None:
    model.script(token, [CALL])
    answer = httpx2.post(f"{model.anthropic_base_url(token)}/v1/messages", json={**REQUEST, "stream": True})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/event-stream"
    assert answer.content == encode(events(CALL, {**REQUEST, "stream": True}, token, 0))
    assert answer.content.endswith(b'event: message_stop\ndata: {"type": "message_stop"}\n\n')


def test_the_request_is_recorded_with_its_view(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TEXT])
    create(model, token)
    record = model.requests(token)[0]
    assert record.header_values("anthropic-version") != []
    assert record.view == {
        "model": "claude-test",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "alpha__lookup",
                    "description": "Look something up. [tp:alpha/lookup]",
                    "parameters": {
                        "type": "object",
                        "properties": {"q": {"type": "string"}},
                        "required": ["q"],
                    },
                },
            },
            {
                "type": "function",
                "function": {
                    "name": "alpha__output_send__qq",
                    "description": "Send. [tp:alpha/output_send__qq]",
                    "parameters": {"type": "object", "properties": {}},
                },
            },
        ],
    }


def test_tool_results_reach_the_view_paired_by_id(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TWO_CALLS, TEXT])
    first = client(model, token).messages.create(
        model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}], tools=TOOLS
    )
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": "ok"}
        for block in first.content
        if block.type == "tool_use"
    ]
    client(model, token).messages.create(
        model="claude-test",
        max_tokens=64,
        system="Be brief.",
        messages=[
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": first.content},
            {"role": "user", "content": results},
        ],
        tools=TOOLS,
    )
    assert model.requests(token)[1].view["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "On it."}],
            "tool_calls": [
                {
                    "id": f"toolu_{token}_0_0",
                    "type": "function",
                    "function": {"name": "alpha__lookup", "arguments": '{"q":"a"}'},
                },
                {
                    "id": f"toolu_{token}_0_1",
                    "type": "function",
                    "function": {"name": "alpha__output_send__qq", "arguments": "{}"},
                },
            ],
        },
        {"role": "tool", "tool_call_id": f"toolu_{token}_0_0", "content": "ok"},
        {"role": "tool", "tool_call_id": f"toolu_{token}_0_1", "content": "ok"},
    ]


def test_runaway_answers_every_request_with_its_varying_call(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Runaway("alpha/output_send__qq")])
    inputs = [create(model, token)["content"][0]["input"] for _ in range(2)]
    assert [
        r.message["tool_calls"][0]["function"]["arguments"] for r in model.requests(token) if r.message
    ] == [
        runaway_arguments(0),
        runaway_arguments(1),
    ]
    assert inputs[0] != inputs[1]


def test_a_truncated_reply_stops_at_max_tokens_on_every_attempt(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Ended(CALL, "incomplete")])
    assert create(model, token)["stop_reason"] == "max_tokens"
    streamed = stream(model, token)
    assert streamed["stop_reason"] == "max_tokens"
    assert streamed["content"] == [
        {
            "type": "tool_use",
            "id": f"toolu_{token}_1_0",
            "name": "alpha__lookup",
            "input": {"q": "weather"},
            "caller": DIRECT,
        }
    ]
    assert [(r.note, r.message) for r in model.requests(token)] == [("stop_reason max_tokens", None)] * 2


def test_an_error_event_fails_the_clients_stream_on_every_attempt(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="error")])
    for _ in range(2):
        with pytest.raises(anthropic.APIStatusError, match="overloaded_error"):
            stream(model, token)
    records = model.requests(token)
    assert [(r.status, r.message, r.note) for r in records] == [
        (200, None, "stream cut (error) at offset 5 of call 0's arguments")
    ] * 2
    assert records[0].response[-1]["type"] == "error"


def test_an_aborted_stream_breaks_the_connection(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5)])
    with pytest.raises(anthropic.APIConnectionError, match="incomplete chunked read"):
        stream(model, token)
    assert [(r.status, r.message) for r in model.requests(token)] == [(200, None)]


def test_a_clean_ending_ends_the_body_without_message_stop(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="clean")])
    answer = httpx2.post(f"{model.anthropic_base_url(token)}/v1/messages", json={**REQUEST, "stream": True})
    assert answer.status_code == 200
    assert answer.content.endswith(
        b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, '
        b'"delta": {"type": "input_json_delta", "partial_json": "{\\"q\\":"}}\n\n'
    )


@pytest.mark.parametrize(
    ("reply", "stream_flag", "code"),
    [
        (Cut(CALL, call=0, at=1), False, "toolproof_stream_only"),
        (Ended(CALL, "failed"), True, "toolproof_anthropic_unsupported"),
        (DoneEventsOnly(CALL), True, "toolproof_responses_only"),
        (TextParts(TEXT, (3,)), False, "toolproof_responses_only"),
        (Streamed(CALL, Plan(arguments=((1,),), comments=True)), True, "toolproof_anthropic_unsupported"),
        (Call("alpha/lookup", "[]"), False, "toolproof_anthropic_unsupported"),
        (Call("nowhere/tool", "{}"), False, "toolproof_marker_unresolved"),
    ],
    ids=[
        "cut-plain",
        "ended-failed",
        "done-events-only",
        "text-parts",
        "chat-only-plan",
        "array-input",
        "marker",
    ],
)
def test_what_the_wire_cannot_carry_is_refused(
    model: ModelEndpoint, token: str, reply: Any, stream_flag: bool, code: str
) -> None:
    model.script(token, [reply])
    answer = httpx2.post(
        f"{model.anthropic_base_url(token)}/v1/messages", json={**REQUEST, "stream": stream_flag}
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code


def test_a_scripted_http_error_passes_as_it_is(model: ModelEndpoint, token: str) -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    model.script(token, [AlwaysFail(HttpError(529, body))], safety_cap=2)
    for _ in range(2):
        with pytest.raises(anthropic.APIStatusError) as failed:
            create(model, token)
        assert failed.value.status_code == 529
        assert failed.value.body == body
    assert model.safety_nets(token) == ()


def test_a_stale_call_takes_the_name_an_earlier_request_offered(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TEXT, StaleCall("alpha/lookup", '{"q":"x"}')])
    create(model, token)
    answer = httpx2.post(
        f"{model.anthropic_base_url(token)}/v1/messages",
        json={**REQUEST, "tools": [TOOLS[1]]},
    )
    assert answer.status_code == 200
    assert answer.json()["content"][0]["name"] == "alpha__lookup"


def test_the_safety_nets_answer_as_on_the_other_wires(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TEXT], safety_cap=2)
    statuses = []
    for _ in range(3):
        answer = httpx2.post(f"{model.anthropic_base_url(token)}/v1/messages", json=REQUEST)
        statuses.append((answer.status_code, answer.json().get("error", {}).get("code")))
    assert statuses == [(200, None), (400, "toolproof_script_exhausted"), (400, "toolproof_safety_cap")]
    assert model.safety_nets(token) == (
        "toolproof: script exhausted after 1 replies",
        "toolproof: safety cap of 2 model requests reached",
    )


def test_the_path_is_refused_unless_served(token: str) -> None:
    with ModelEndpoint() as plain:
        plain.script(token, [TEXT])
        answer = httpx2.post(f"{plain.anthropic_base_url(token)}/v1/messages", json=REQUEST)
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "toolproof_unsupported_feature"
        assert plain.requests(token)[0].wire == "anthropic.messages"


@pytest.mark.parametrize("reason", ["pause_turn", "refusal", "max_tokens"])
def test_a_stopped_reply_ends_once_with_its_reason(model: ModelEndpoint, token: str, reason: str) -> None:
    model.script(token, [Stopped(TWO_CALLS, reason), TWO_CALLS])
    assert create(model, token) == two_calls_answer(token, 0, stop=reason)
    assert create(model, token) == two_calls_answer(token, 1)
    assert [(r.note, r.message) for r in model.requests(token)] == [
        (f"stop_reason {reason}", two_calls_message(token, 0)),
        ("", two_calls_message(token, 1)),
    ]


def test_a_stopped_stream_carries_its_reason_in_message_delta(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Stopped(CALL, "pause_turn")])
    assert stream(model, token)["stop_reason"] == "pause_turn"
    assert model.requests(token)[0].response[-2]["delta"] == {
        "stop_reason": "pause_turn",
        "stop_sequence": None,
        "stop_details": None,
        "container": None,
    }


def test_a_stopped_reason_is_one_the_api_publishes() -> None:
    with pytest.raises(ValueError, match="must be one of"):
        Stopped(CALL, "tool_use")


# -- thinking: opaque blocks before the turn's text and calls ----------------------

THOUGHTS = (Thought("Look it up first.", "c2lnbmF0dXJlLTE="), RedactedThought("b3BhcXVlLWRhdGE="))
THOUGHT_BLOCKS: list[dict[str, Any]] = [
    {"type": "thinking", "thinking": "Look it up first.", "signature": "c2lnbmF0dXJlLTE="},
    {"type": "redacted_thinking", "data": "b3BhcXVlLWRhdGE="},
]


def test_thinking_blocks_come_first_in_the_message() -> None:
    answer = message_object(CALL, REQUEST, "tk", 0, thoughts=THOUGHTS)
    assert answer["content"] == [
        *THOUGHT_BLOCKS,
        {
            "type": "tool_use",
            "id": "toolu_tk_0_0",
            "name": "alpha__lookup",
            "input": {"q": "weather"},
            "caller": DIRECT,
        },
    ]


def test_thinking_streams_as_deltas_then_its_signature() -> None:
    stream = events(CALL, REQUEST, "tk", 0, thoughts=THOUGHTS)
    assert stream[2:10] == [
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "Look it "},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "up first"},
        },
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "."}},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "c2lnbmF0dXJlLTE="},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": THOUGHT_BLOCKS[1]},
        {"type": "content_block_stop", "index": 1},
    ]
    assert stream[10]["index"] == 2
    assert stream[10]["content_block"]["type"] == "tool_use"


def test_thinking_needs_thoughts() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        Thinking(CALL, ())


@pytest.mark.parametrize("plan", [None, Plan(text=(1,), arguments=((2,), ()))], ids=["default", "planned"])
def test_the_client_reads_the_thinking_blocks_plain_and_streamed(
    model: ModelEndpoint, token: str, plan: Plan | None
) -> None:
    model.script(token, [Thinking(TWO_CALLS, THOUGHTS, plan), Thinking(TWO_CALLS, THOUGHTS, plan)])
    plain = create(model, token)
    streamed = stream(model, token)
    assert plain["content"] == [*THOUGHT_BLOCKS, *two_calls_answer(token, 0)["content"]]
    assert streamed["content"] == [*THOUGHT_BLOCKS, *two_calls_answer(token, 1)["content"]]
    assert model.requests(token)[1].message == two_calls_message(token, 1)


def test_anthropic_only_replies_are_refused_on_the_openai_wires(token: str) -> None:
    with ModelEndpoint(responses=True) as openai_wires:
        openai_wires.script(token, [Thinking(TEXT, THOUGHTS), Stopped(TEXT, "refusal")])
        chat = httpx2.post(f"{openai_wires.base_url(token)}/chat/completions", json={"messages": []})
        responses = httpx2.post(f"{openai_wires.base_url(token)}/responses", json={"input": "hi"})
    assert [chat.status_code, responses.status_code] == [400, 400]
    assert [chat.json()["error"]["code"], responses.json()["error"]["code"]] == [
        "toolproof_anthropic_only"
    ] * 2


# -- chunking: the official accumulator under every plan ----------------------


@st.composite
def scripted(draw: st.DrawFn) -> tuple[ToolCalls, Plan]:
    """Text (maybe none) beside one or two calls whose arguments are any I-JSON object's text (or
    ""), and any plan of this wire that fits them."""
    calls = tuple(
        Call(marker, draw(st.just("") | ijson_objects().map(json.dumps)))
        for marker in draw(st.sampled_from([("alpha/lookup",), ("alpha/lookup", "alpha/output_send__qq")]))
    )
    reply = ToolCalls(calls, text=draw(st.none() | st.text(min_size=1, max_size=20)))
    return reply, draw(block_plans(reply))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=scripted())
def test_every_plan_assembles_to_the_scripted_message(
    model: ModelEndpoint, case: tuple[ToolCalls, Plan]
) -> None:
    """The fake's stream, cut anywhere, is exactly the scripted reply to the official accumulator."""
    reply, plan = case
    token = f"h{uuid.uuid4().hex[:12]}"
    model.script(token, [Streamed(reply, plan)])
    try:
        assembled = stream(model, token)
    finally:
        model.forget(token)
    names = {"alpha/lookup": "alpha__lookup", "alpha/output_send__qq": "alpha__output_send__qq"}
    uses = [
        {
            "type": "tool_use",
            "id": f"toolu_{token}_0_{i}",
            "name": names[str(call.tool)],
            "input": json.loads(call.arguments) if call.arguments else {},
            "caller": DIRECT,
        }
        for i, call in enumerate(reply.calls)
    ]
    text = [{"type": "text", "text": reply.text}] if reply.text else []
    assert assembled["content"] == text + uses
    assert assembled["stop_reason"] == "tool_use"
