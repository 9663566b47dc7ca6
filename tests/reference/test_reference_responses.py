"""Rule-level tests of the reference's Responses API wire (candidates/reference/responses.py).

The request side is pure dict conversion; the answer side is read from the
official client's own types (`Response`, `ResponseStreamEvent`), built from
the harness fake's renderings of scripted replies. Expected values are literal.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter
from toolproof.candidates.reference.errors import ModelError
from toolproof.candidates.reference.messages import ModelReply, ToolCall
from toolproof.candidates.reference.responses import (
    function_tool,
    input_items,
    parse_response,
    read_events,
    request_arguments,
)

from toolproof.fakes import Call, Cut, Text, ToolCalls
from toolproof.fakes.responses import cut_events, events, response

CHAT_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "alpha__lookup",
        "description": "Look something up. [tp:alpha/lookup]",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    },
}
FLAT_TOOL: dict[str, Any] = {
    "type": "function",
    "name": "alpha__lookup",
    "description": "Look something up. [tp:alpha/lookup]",
    "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    "strict": False,
}
HISTORY: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "weather?"},
    {
        "role": "assistant",
        "content": "Looking.",
        "tool_calls": [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "alpha__lookup", "arguments": '{"q":"x"}'},
            },
            {"id": "call_b", "type": "function", "function": {"name": "alpha__lookup", "arguments": ""}},
        ],
    },
    {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
    {"role": "tool", "tool_call_id": "call_b", "content": ""},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_c", "type": "function", "function": {"name": "alpha__lookup", "arguments": "{}"}},
        ],
    },
    {"role": "tool", "tool_call_id": "call_c", "content": "done"},
    {"role": "assistant", "content": ""},
    {"role": "user", "content": "thanks"},
]
INPUT: list[dict[str, Any]] = [
    {"type": "message", "role": "system", "content": "Be brief."},
    {"type": "message", "role": "user", "content": "weather?"},
    {"type": "message", "role": "assistant", "content": "Looking."},
    {"type": "function_call", "call_id": "call_a", "name": "alpha__lookup", "arguments": '{"q":"x"}'},
    {"type": "function_call", "call_id": "call_b", "name": "alpha__lookup", "arguments": ""},
    {"type": "function_call_output", "call_id": "call_a", "output": "sunny"},
    {"type": "function_call_output", "call_id": "call_b", "output": ""},
    {"type": "function_call", "call_id": "call_c", "name": "alpha__lookup", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "call_c", "output": "done"},
    {"type": "message", "role": "assistant", "content": ""},
    {"type": "message", "role": "user", "content": "thanks"},
]

# What the fake answers (`toolproof.fakes.responses`), as the official client parses it.
REQUEST: dict[str, Any] = {"model": "m", "input": INPUT, "tools": [FLAT_TOOL]}
EVENTS: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
TWO_CALLS = ToolCalls(text="On it.", calls=(Call("alpha/lookup", '{"q":"a"}'), Call("alpha/lookup", "")))
TWO_CALLS_REPLY = ModelReply(
    content="On it.",
    tool_calls=(
        ToolCall(id="call_tk_0_0", name="alpha__lookup", arguments='{"q":"a"}'),
        ToolCall(id="call_tk_0_1", name="alpha__lookup", arguments=""),
    ),
    response_id="resp_tk_0",
    item_ids=("msg_tk_0", "fc_tk_0_0", "fc_tk_0_1"),
)


def parsed_events(rendered: list[dict[str, Any]]) -> list[Any]:
    return [EVENTS.validate_python(e) for e in rendered]


def read(rendered: list[dict[str, Any]]) -> ModelReply:
    async def stream() -> AsyncIterator[Any]:
        for e in parsed_events(rendered):
            yield e

    return asyncio.run(read_events(stream()))


# -- the request --------------------------------------------------------------


def test_history_becomes_input_items_paired_by_call_id() -> None:
    assert input_items(HISTORY) == INPUT


def test_chat_tool_becomes_a_flat_function_tool() -> None:
    assert function_tool(CHAT_TOOL) == FLAT_TOOL
    bare = {"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}
    assert function_tool(bare) == {
        "type": "function",
        "name": "t",
        "parameters": {"type": "object"},
        "strict": False,
    }


def test_request_arguments_keep_what_the_chat_request_has() -> None:
    chat = {
        "model": "m",
        "messages": HISTORY[:2],
        "tools": [CHAT_TOOL],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert request_arguments(chat) == {"model": "m", "input": INPUT[:2], "tools": [FLAT_TOOL], "stream": True}
    assert request_arguments({"model": "m", "messages": HISTORY[:2]}) == {"model": "m", "input": INPUT[:2]}


# -- a response object ----------------------------------------------------------


def test_response_becomes_the_chat_shaped_reply() -> None:
    answer = Response.model_validate(response(TWO_CALLS, REQUEST, "tk", 0))
    assert parse_response(answer) == TWO_CALLS_REPLY
    text = Response.model_validate(response(Text("Hello"), REQUEST, "tk", 0))
    assert parse_response(text) == ModelReply(
        content="Hello", tool_calls=(), response_id="resp_tk_0", item_ids=("msg_tk_0",)
    )


@pytest.mark.parametrize("status", ["failed", "incomplete"])
def test_failed_or_incomplete_response_is_a_model_error(status: str) -> None:
    answer = Response.model_validate({**response(TWO_CALLS, REQUEST, "tk", 0), "status": status})
    with pytest.raises(ModelError) as caught:
        parse_response(answer)
    assert caught.value.kind == "model_error"
    assert caught.value.message == f"model response {status}: None"


# -- a streamed response --------------------------------------------------------


def test_stream_reads_the_finished_items() -> None:
    assert read(events(TWO_CALLS, REQUEST, "tk", 0)) == TWO_CALLS_REPLY


def test_completed_without_output_is_answered_from_the_done_items() -> None:
    rendered = events(TWO_CALLS, REQUEST, "tk", 0)
    completed = rendered[-1]
    rendered[-1] = {**completed, "response": {**completed["response"], "output": []}}
    assert read(rendered) == TWO_CALLS_REPLY


def test_arguments_never_come_from_output_item_added() -> None:
    # Only the `added` events and the completed envelope without output: the call is never finished.
    rendered = events(Call("alpha/lookup", '{"q":"a"}'), REQUEST, "tk", 0)
    completed = rendered[-1]
    kept = [e for e in rendered if e["type"] in ("response.created", "response.output_item.added")]
    kept.append({**completed, "response": {**completed["response"], "output": []}})
    assert read(kept) == ModelReply(content=None, tool_calls=(), response_id="resp_tk_0")


def test_stream_ending_before_completed_is_a_model_error() -> None:
    rendered = cut_events(
        Cut(Call("alpha/lookup", '{"q":"a"}'), call=0, at=3, ending="abort"), REQUEST, "tk", 0
    )
    with pytest.raises(ModelError) as caught:
        read(rendered)
    assert caught.value.message == "model stream ended before response.completed: the reply is incomplete"


def test_error_event_is_a_model_error() -> None:
    rendered = cut_events(
        Cut(Call("alpha/lookup", '{"q":"a"}'), call=0, at=3, ending="error"), REQUEST, "tk", 0
    )
    with pytest.raises(ModelError) as caught:
        read(rendered)
    assert (
        caught.value.message == "model stream error: server_error: toolproof: the stream broke off (scripted)"
    )


@pytest.mark.parametrize("kind", ["response.failed", "response.incomplete"])
def test_failed_or_incomplete_event_is_a_model_error(kind: str) -> None:
    rendered = events(TWO_CALLS, REQUEST, "tk", 0)
    completed = rendered[-1]
    status = kind.removeprefix("response.")
    rendered[-1] = {**completed, "type": kind, "response": {**completed["response"], "status": status}}
    with pytest.raises(ModelError) as caught:
        read(rendered)
    assert caught.value.message == f"model stream {kind}: None"
