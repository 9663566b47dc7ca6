"""Self-tests of the Responses API rendering of scripted replies (`POST /v1/responses`, stateless).

The same wire-neutral replies as the chat wire, rendered as a `response` object
or its event stream; read with the official client, a reply's output is exactly
the scripted text and calls, and the record holds the same chat-shaped message
the chat wire records. Expected values are literal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from endpoint_support import (  # tests/fakes
    CHAT_TOOLS,
    RESPONSES_REQUEST,
    RESPONSES_TOOLS,
    TWO_CALLS,
    client,
    run,
    two_calls_message,
)

from toolproof.fakes import Call, Cut, HttpError, ModelEndpoint, Plan, Runaway, Streamed, Text
from toolproof.fakes.replies import Refusal, runaway_arguments
from toolproof.fakes.responses import cut_events, encode, events, response

TOOLS = RESPONSES_TOOLS
REQUEST = RESPONSES_REQUEST

TEXT = Text("Hello, world!")
CALL = Call("alpha/lookup", '{"q":"weather"}')
TEXT_ITEM_EVENT_TYPES: list[str] = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
]
"""The event types of a stream up to its text item's end (one text fragment), calls following it."""


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(responses=True) as endpoint:
        yield endpoint


# -- the pure renderer ------------------------------------------------------

TEXT_OUTPUT: dict[str, Any] = {
    "id": "msg_tk_0",
    "type": "message",
    "status": "completed",
    "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Hello, world!"}],
    "role": "assistant",
}
TWO_CALLS_OUTPUT: list[dict[str, Any]] = [
    {
        "id": "msg_tk_0",
        "type": "message",
        "status": "completed",
        "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "On it."}],
        "role": "assistant",
    },
    {
        "id": "fc_tk_0_0",
        "type": "function_call",
        "status": "completed",
        "arguments": '{"q":"a"}',
        "call_id": "call_tk_0_0",
        "name": "alpha__lookup",
    },
    {
        "id": "fc_tk_0_1",
        "type": "function_call",
        "status": "completed",
        "arguments": "",
        "call_id": "call_tk_0_1",
        "name": "alpha__output_send__qq",
    },
]


def envelope(status: str, output: list[dict[str, Any]], usage: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": "resp_tk_0",
        "object": "response",
        "created_at": 1767225600,
        "status": status,
        "completed_at": 1767225600 if status == "completed" else None,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": TOOLS,
        "usage": usage,
        "metadata": {},
    }


def usage(output_tokens: int) -> dict[str, Any]:
    # `input: "hi"` is 4 characters of JSON: 1 token.
    return {
        "input_tokens": 1,
        "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 1 + output_tokens,
    }


def test_text_response() -> None:
    assert response(TEXT, REQUEST, "tk", 0) == envelope("completed", [TEXT_OUTPUT], usage(12))


def test_two_calls_response() -> None:
    assert response(TWO_CALLS, REQUEST, "tk", 0) == envelope("completed", TWO_CALLS_OUTPUT, usage(69))


def test_text_events_under_the_default_plan() -> None:
    at = {"item_id": "msg_tk_0", "output_index": 0}
    opening = envelope("in_progress", [], None)
    assert events(TEXT, REQUEST, "tk", 0) == [
        {"type": "response.created", "response": opening, "sequence_number": 0},
        {"type": "response.in_progress", "response": opening, "sequence_number": 1},
        {
            "type": "response.output_item.added",
            "item": {
                "id": "msg_tk_0",
                "type": "message",
                "status": "in_progress",
                "content": [],
                "role": "assistant",
            },
            "output_index": 0,
            "sequence_number": 2,
        },
        {
            "type": "response.content_part.added",
            "content_index": 0,
            **at,
            "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""},
            "sequence_number": 3,
        },
        {
            "type": "response.output_text.delta",
            "content_index": 0,
            "delta": "Hello, w",
            **at,
            "logprobs": [],
            "sequence_number": 4,
        },
        {
            "type": "response.output_text.delta",
            "content_index": 0,
            "delta": "orld!",
            **at,
            "logprobs": [],
            "sequence_number": 5,
        },
        {
            "type": "response.output_text.done",
            "content_index": 0,
            **at,
            "logprobs": [],
            "text": "Hello, world!",
            "sequence_number": 6,
        },
        {
            "type": "response.content_part.done",
            "content_index": 0,
            **at,
            "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": "Hello, world!"},
            "sequence_number": 7,
        },
        {"type": "response.output_item.done", "item": TEXT_OUTPUT, "output_index": 0, "sequence_number": 8},
        {
            "type": "response.completed",
            "response": envelope("completed", [TEXT_OUTPUT], usage(12)),
            "sequence_number": 9,
        },
    ]


FIRST_CALL_ADDED: dict[str, Any] = {
    "type": "response.output_item.added",
    "item": {
        "id": "fc_tk_0_0",
        "type": "function_call",
        "status": "in_progress",
        "arguments": "",
        "call_id": "call_tk_0_0",
        "name": "alpha__lookup",
    },
    "output_index": 1,
    "sequence_number": 8,
}
"""TWO_CALLS' first call opening (arguments "") after the text item, to request 0 of token tk."""


def test_two_calls_events_under_the_default_plan() -> None:
    rendered = events(TWO_CALLS, REQUEST, "tk", 0)
    # The text item's events are those of the text reply (test above); the calls follow it.
    assert [e["type"] for e in rendered[:9]] == [*TEXT_ITEM_EVENT_TYPES, "response.output_item.added"]
    assert rendered[4]["delta"] == "On it."
    assert rendered[7] == {
        "type": "response.output_item.done",
        "item": TWO_CALLS_OUTPUT[0],
        "output_index": 0,
        "sequence_number": 7,
    }
    first = {"item_id": "fc_tk_0_0", "output_index": 1}
    assert rendered[8:] == [
        FIRST_CALL_ADDED,
        {
            "type": "response.function_call_arguments.delta",
            "delta": '{"q":"a"',
            **first,
            "sequence_number": 9,
        },
        {"type": "response.function_call_arguments.delta", "delta": "}", **first, "sequence_number": 10},
        {
            "type": "response.function_call_arguments.done",
            "arguments": '{"q":"a"}',
            **first,
            "sequence_number": 11,
        },
        {
            "type": "response.output_item.done",
            "item": TWO_CALLS_OUTPUT[1],
            "output_index": 1,
            "sequence_number": 12,
        },
        # A parameterless call: no delta at all, its arguments stay "".
        {
            "type": "response.output_item.added",
            "item": {
                "id": "fc_tk_0_1",
                "type": "function_call",
                "status": "in_progress",
                "arguments": "",
                "call_id": "call_tk_0_1",
                "name": "alpha__output_send__qq",
            },
            "output_index": 2,
            "sequence_number": 13,
        },
        {
            "type": "response.function_call_arguments.done",
            "arguments": "",
            "item_id": "fc_tk_0_1",
            "output_index": 2,
            "sequence_number": 14,
        },
        {
            "type": "response.output_item.done",
            "item": TWO_CALLS_OUTPUT[2],
            "output_index": 2,
            "sequence_number": 15,
        },
        {
            "type": "response.completed",
            "response": envelope("completed", TWO_CALLS_OUTPUT, usage(69)),
            "sequence_number": 16,
        },
    ]


def test_a_plan_cuts_the_arguments_anywhere() -> None:
    rendered = events(CALL, REQUEST, "tk", 0, Plan(arguments=((1, 5),)))
    assert [e["delta"] for e in rendered if e["type"] == "response.function_call_arguments.delta"] == [
        "{",
        '"q":',
        '"weather"}',
    ]


def test_a_chat_only_plan_is_refused() -> None:
    with pytest.raises(ValueError, match="chat-only shapes") as caught:
        events(CALL, REQUEST, "tk", 0, Plan(arguments=((),), comments=True))
    assert str(caught.value) == "plan: order, comments, compact_done and empty_content are chat-only shapes"


def test_encode_is_event_and_data_lines_without_done() -> None:
    assert encode([{"type": "a", "x": 1}, {"type": "b"}]) == (
        b'event: a\ndata: {"type": "a", "x": 1}\n\nevent: b\ndata: {"type": "b"}\n\n'
    )


def test_markers_resolve_against_flat_function_tools_only() -> None:
    # A chat-nested tool is not a function tool on this wire: its marker does not resolve.
    nested = {**REQUEST, "tools": CHAT_TOOLS}
    with pytest.raises(Refusal) as caught:
        response(CALL, nested, "tk", 0)
    assert caught.value.message == "toolproof: no offered tool carries marker [tp:alpha/lookup]"


# -- over HTTP, with the official client ------------------------------------


def scripted_calls(token: str, i: int) -> list[tuple[str, str, str, str]]:
    """(id, call_id, name, arguments) of TWO_CALLS answered to request `i`."""
    return [
        (f"fc_{token}_{i}_0", f"call_{token}_{i}_0", "alpha__lookup", '{"q":"a"}'),
        (f"fc_{token}_{i}_1", f"call_{token}_{i}_1", "alpha__output_send__qq", ""),
    ]


def summary(output: list[Any]) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """The texts and the (id, call_id, name, arguments) of output items, in order."""
    texts = [part.text for item in output if item.type == "message" for part in item.content]
    calls = [
        (item.id, item.call_id, item.name, item.arguments) for item in output if item.type == "function_call"
    ]
    return texts, calls


async def plain(model: ModelEndpoint, token: str) -> Any:
    async with client(model, token) as c:
        return await c.responses.create(model="gpt-test", input="hi", tools=TOOLS)


async def streamed(model: ModelEndpoint, token: str) -> list[Any]:
    async with client(model, token) as c:
        stream = await c.responses.create(model="gpt-test", input="hi", tools=TOOLS, stream=True)
        return [e async for e in stream]


async def helper(model: ModelEndpoint, token: str) -> Any:
    """The official streaming helper, which accumulates the events itself and checks their order."""
    async with (
        client(model, token) as c,
        c.responses.stream(model="gpt-test", input="hi", tools=TOOLS) as stream,
    ):
        async for _ in stream:
            pass
        return await stream.get_final_response()


def accumulate(stream: list[Any]) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """Assemble the events by `output_index`: text from text deltas, arguments from argument deltas."""
    items: dict[int, dict[str, Any]] = {}
    for e in stream:
        if e.type == "response.output_item.added":
            item = e.item
            items[e.output_index] = (
                {"text": ""}
                if item.type == "message"
                else {"id": item.id, "call_id": item.call_id, "name": item.name, "arguments": item.arguments}
            )
        elif e.type == "response.output_text.delta":
            items[e.output_index]["text"] += e.delta
        elif e.type == "response.function_call_arguments.delta":
            assert items[e.output_index]["id"] == e.item_id
            items[e.output_index]["arguments"] += e.delta
    ordered = [items[k] for k in sorted(items)]
    texts = [i["text"] for i in ordered if "text" in i]
    calls = [(i["id"], i["call_id"], i["name"], i["arguments"]) for i in ordered if "call_id" in i]
    return texts, calls


def test_plain_answer_is_the_scripted_reply(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TWO_CALLS])
    answer = run(plain(model, token))
    assert (answer.object, answer.status, answer.id) == ("response", "completed", f"resp_{token}_0")
    assert summary(answer.output) == (["On it."], scripted_calls(token, 0))
    assert answer.output_text == "On it."
    record = model.requests(token)[0]
    assert (record.status, record.note, record.path) == (200, "", f"/{token}/v1/responses")
    assert record.message == two_calls_message(token, 0)


def test_streamed_answer_accumulates_to_the_scripted_reply(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TWO_CALLS])
    stream = run(streamed(model, token))
    assert [e.sequence_number for e in stream] == list(range(17))
    assert accumulate(stream) == (["On it."], scripted_calls(token, 0))
    done = [(e.item_id, e.output_index, e.arguments) for e in stream if e.type.endswith("arguments.done")]
    assert done == [(f"fc_{token}_0_0", 1, '{"q":"a"}'), (f"fc_{token}_0_1", 2, "")]
    finished = [e.item for e in stream if e.type == "response.output_item.done"]
    assert summary(finished) == (["On it."], scripted_calls(token, 0))
    assert (stream[-1].type, stream[-1].response.status) == ("response.completed", "completed")
    assert summary(stream[-1].response.output) == (["On it."], scripted_calls(token, 0))
    assert model.requests(token)[0].message == two_calls_message(token, 0)


def test_the_official_stream_helper_reads_the_events(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TWO_CALLS])
    final = run(helper(model, token))
    assert summary(final.output) == (["On it."], scripted_calls(token, 0))


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_a_text_reply(model: ModelEndpoint, token: str, stream: bool) -> None:
    model.script(token, [TEXT])
    got = accumulate(run(streamed(model, token))) if stream else summary(run(plain(model, token)).output)
    assert got == (["Hello, world!"], [])
    assert model.requests(token)[0].message == {"role": "assistant", "content": "Hello, world!"}


def test_the_record_holds_the_chat_wire_message(model: ModelEndpoint, token: str) -> None:
    """Same reply on both wires of one endpoint: the records hold the same chat-shaped message."""
    model.script(token, [TWO_CALLS, TWO_CALLS, TWO_CALLS])
    run(plain(model, token))
    run(streamed(model, token))

    async def chat() -> Any:
        async with client(model, token) as c:
            messages: Any = [{"role": "user", "content": "hi"}]
            return await c.chat.completions.create(model="gpt-test", messages=messages, tools=CHAT_TOOLS)

    run(chat())
    records = model.requests(token)
    assert [r.message for r in records] == [
        two_calls_message(token, 0),
        two_calls_message(token, 1),
        two_calls_message(token, 2),
    ]
    assert records[2].response["choices"][0]["message"] == two_calls_message(token, 2)


def test_item_ids_and_call_ids_differ(model: ModelEndpoint, token: str) -> None:
    model.script(token, [CALL])
    (item,) = run(plain(model, token)).output
    assert (item.id, item.call_id) == (f"fc_{token}_0_0", f"call_{token}_0_0")


def test_raw_stream_is_event_blocks_without_done(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok")])
    answer = httpx2.post(
        model.base_url(token) + "/responses", json={"model": "m", "input": "hi", "stream": True}, timeout=10
    )
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/event-stream"
    blocks = answer.content.split(b"\n\n")
    assert blocks[-1] == b""
    assert [b.split(b"\n")[0] for b in blocks[:-1]] == [
        b"event: response.created",
        b"event: response.in_progress",
        b"event: response.output_item.added",
        b"event: response.content_part.added",
        b"event: response.output_text.delta",
        b"event: response.output_text.done",
        b"event: response.content_part.done",
        b"event: response.output_item.done",
        b"event: response.completed",
    ]
    assert blocks[4] == (
        b"event: response.output_text.delta\n"
        b'data: {"type": "response.output_text.delta", "content_index": 0, "delta": "ok", '
        + f'"item_id": "msg_{token}_0", "output_index": 0, "logprobs": [], "sequence_number": 4}}'.encode()
    )
    record = model.requests(token)[0]
    assert [e["type"] for e in record.response][-1] == "response.completed"


def test_runaway_answers_its_varying_call(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Runaway("alpha/lookup")])
    first = summary(run(plain(model, token)).output)
    second = accumulate(run(streamed(model, token)))
    assert [first[1][0][3], second[1][0][3]] == [runaway_arguments(0), runaway_arguments(1)]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_errors_and_refusals_stay_plain_json(model: ModelEndpoint, token: str, stream: bool) -> None:
    body = {"error": {"message": "slow down", "type": "rate_limit", "param": None, "code": "x"}}
    chat_only = Streamed(CALL, Plan(arguments=((),), comments=True))
    model.script(token, [HttpError(400, body), Call("nope/none"), chat_only])
    outcomes = []
    for _ in range(3):
        with pytest.raises(openai.BadRequestError) as caught:
            run(streamed(model, token) if stream else plain(model, token))
        outcomes.append((caught.value.code, caught.value.response.headers["content-type"]))
    assert outcomes == [
        ("x", "application/json"),
        ("toolproof_marker_unresolved", "application/json"),
        ("toolproof_responses_unsupported", "application/json"),
    ]
    assert [(r.note, r.message) for r in model.requests(token)] == [
        ("scripted HTTP 400", None),
        ("toolproof: no offered tool carries marker [tp:nope/none]", None),
        # A chat-only plan is a script this wire cannot render, streamed or not.
        (
            "toolproof: plan: order, comments, compact_done and empty_content are chat-only shapes",
            None,
        ),
    ]


def test_other_paths_are_still_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [TEXT])
    answer = httpx2.get(model.base_url(token) + "/responses", timeout=10)
    assert (answer.status_code, answer.json()["error"]) == (
        400,
        {
            "message": "toolproof: GET /v1/responses is not supported by this harness "
            "(only POST /v1/chat/completions or POST /v1/responses)",
            "type": "invalid_request_error",
            "param": None,
            "code": "toolproof_unsupported_feature",
        },
    )


def test_off_by_default() -> None:
    with ModelEndpoint() as endpoint:
        endpoint.script("tok", [TEXT])
        answer = httpx2.post(endpoint.base_url("tok") + "/responses", json=REQUEST, timeout=10)
    assert (answer.status_code, answer.json()["error"]["message"]) == (
        400,
        "toolproof: POST /v1/responses is not supported by this harness (only POST /v1/chat/completions)",
    )


# -- plans and cuts -----------------------------------------------------------

BROKE_OFF = "toolproof: the stream broke off (scripted)"


def failed_tail(first: int, response_id: str) -> list[dict[str, Any]]:
    """The `error` and `response.failed` events ending a Cut with `ending="error"`."""
    return [
        {
            "type": "error",
            "code": "server_error",
            "message": BROKE_OFF,
            "param": None,
            "sequence_number": first,
        },
        {
            "type": "response.failed",
            "response": {
                **envelope("failed", [], None),
                "id": response_id,
                "error": {"code": "server_error", "message": BROKE_OFF},
            },
            "sequence_number": first + 1,
        },
    ]


def test_cut_events_stop_inside_the_arguments() -> None:
    stream = cut_events(Cut(TWO_CALLS, call=0, at=3, ending="error"), REQUEST, "tk", 0)
    assert [e["type"] for e in stream[:8]] == TEXT_ITEM_EVENT_TYPES
    # No `.done` of the cut call, no later item, no `response.completed`.
    assert stream[8:] == [
        FIRST_CALL_ADDED,
        {
            "type": "response.function_call_arguments.delta",
            "delta": '{"q',
            "item_id": "fc_tk_0_0",
            "output_index": 1,
            "sequence_number": 9,
        },
        *failed_tail(10, "resp_tk_0"),
    ]


def test_cut_events_at_an_opener_and_after_a_whole_call() -> None:
    # At offset 0 of the second call: the first call is complete, the second only opened.
    opened = cut_events(Cut(TWO_CALLS, call=1, at=0), REQUEST, "tk", 0)
    assert [(e["type"], e.get("item", {}).get("id")) for e in opened[-3:]] == [
        ("response.function_call_arguments.done", None),
        ("response.output_item.done", "fc_tk_0_0"),
        ("response.output_item.added", "fc_tk_0_1"),
    ]
    # At the end of the arguments: the whole arguments, but no `.done`.
    whole = cut_events(Cut(CALL, call=0, at=15), REQUEST, "tk", 0)
    assert whole[-1] == {
        "type": "response.function_call_arguments.delta",
        "delta": '{"q":"weather"}',
        "item_id": "fc_tk_0_0",
        "output_index": 0,
        "sequence_number": 3,
    }


def test_a_streamed_plan_cuts_the_delta_events(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Streamed(CALL, Plan(arguments=((1, 5),))), Streamed(TEXT, Plan(text=(5,)))])
    calls = run(streamed(model, token))
    assert [(e.item_id, e.delta) for e in calls if e.type == "response.function_call_arguments.delta"] == [
        (f"fc_{token}_0_0", "{"),
        (f"fc_{token}_0_0", '"q":'),
        (f"fc_{token}_0_0", '"weather"}'),
    ]
    text = run(streamed(model, token))
    assert [e.delta for e in text if e.type == "response.output_text.delta"] == ["Hello", ", world!"]
    assert [r.message for r in model.requests(token)] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{token}_0_0",
                    "type": "function",
                    "function": {"name": "alpha__lookup", "arguments": '{"q":"weather"}'},
                }
            ],
        },
        {"role": "assistant", "content": "Hello, world!"},
    ]


def test_a_streamed_reply_answers_a_plain_request_whole(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Streamed(CALL, Plan(arguments=((1, 5),)))])
    assert summary(run(plain(model, token)).output) == (
        [],
        [(f"fc_{token}_0_0", f"call_{token}_0_0", "alpha__lookup", '{"q":"weather"}')],
    )


def test_an_error_ending_fails_the_response_on_every_attempt(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="error")])
    stream = run(streamed(model, token))
    assert [e.type for e in stream] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "error",
        "response.failed",
    ]
    assert (stream[3].delta, stream[4].code, stream[4].message) == ('{"q":', "server_error", BROKE_OFF)
    failed = stream[5].response
    assert (failed.status, failed.error.code, failed.error.message) == ("failed", "server_error", BROKE_OFF)
    # The official stream helper reads no `response.completed`: the same error on every attempt.
    for _ in range(2):
        with pytest.raises(RuntimeError) as caught:
            run(helper(model, token))
        assert str(caught.value) == "Didn't receive a `response.completed` event."
    records = model.requests(token)
    assert [(r.status, r.message, r.note) for r in records] == [
        (200, None, "stream cut (error) at offset 5 of call 0's arguments")
    ] * 3
    assert records[0].response[-2:] == failed_tail(4, f"resp_{token}_0")
    assert records[2].response[-2:] == failed_tail(4, f"resp_{token}_2")


def test_an_aborted_stream_breaks_the_connection(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="abort")])
    # The client surfaces the transport's "incomplete chunked read" as a connection error.
    with pytest.raises(openai.APIConnectionError) as caught:
        run(streamed(model, token))
    assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)
    records = model.requests(token)
    assert [(r.status, r.message) for r in records] == [(200, None)]
    assert [e["type"] for e in records[0].response][-1] == "response.function_call_arguments.delta"


def test_a_clean_ending_ends_the_body_without_a_terminal_event(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(TWO_CALLS, call=1, at=0, ending="clean")])
    # The first call is whole (its `output_item.done` was sent); the second only opened.
    stream = run(streamed(model, token))
    assert [e.type for e in stream][-4:] == [
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.output_item.added",
    ]
    assert stream[-1].item.id == f"fc_{token}_0_1"
    # The body ends normally: the official stream helper reads it to its end, then finds no
    # `response.completed`.
    with pytest.raises(RuntimeError) as caught:
        run(helper(model, token))
    assert str(caught.value) == "Didn't receive a `response.completed` event."
    records = model.requests(token)
    assert [(r.status, r.message, r.note) for r in records] == [
        (200, None, "stream cut (clean) at offset 0 of call 1's arguments")
    ] * 2
    assert records[0].response == cut_events(Cut(TWO_CALLS, call=1, at=0, ending="abort"), REQUEST, token, 0)


def test_a_cut_refuses_a_request_that_does_not_stream(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5)])
    for _ in range(2):
        with pytest.raises(openai.BadRequestError) as caught:
            run(plain(model, token))
        assert (caught.value.code, caught.value.message) == (
            "toolproof_stream_only",
            "Error code: 400 - toolproof: this reply is scripted as a broken stream: "
            "it answers stream true only",
        )
    assert [r.message for r in model.requests(token)] == [None, None]
