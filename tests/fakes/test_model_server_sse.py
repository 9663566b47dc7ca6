"""Self-tests of the chat SSE rendering of scripted replies (`stream: true`).

The streamed answer of a reply, accumulated the way OpenAI's stream is meant to
be read (by tool-call `index`), must equal the non-streaming answer of the same
reply. Expected values are literal.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from endpoint_support import CHAT_TOOLS, TWO_CALLS, client, run, two_calls_message  # tests/fakes

from toolproof.fakes import (
    AlwaysFail,
    Call,
    Cut,
    HttpError,
    ModelEndpoint,
    Runaway,
    Streamed,
    Text,
    ToolCalls,
)
from toolproof.fakes.replies import runaway_arguments
from toolproof.fakes.sse import TEXT as TEXT_AT
from toolproof.fakes.sse import Plan, chunks, cut_chunks, default_plan, encode

MESSAGES: list[Any] = [{"role": "user", "content": "hi"}]
REQUEST: dict[str, Any] = {"model": "gpt-test", "messages": MESSAGES, "tools": CHAT_TOOLS, "stream": True}

TEXT = Text("Hello, world!")
CALL = Call("alpha/lookup", '{"q":"weather"}')


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint() as endpoint:
        yield endpoint


def head(token: str, index: int = 0) -> dict[str, Any]:
    """The envelope every chunk of request `index` shares."""
    return {"id": f"chatcmpl-{token}-{index}", "object": "chat.completion.chunk", "created": 1767225600}


def delta(token: str, value: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        **head(token),
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": value, "finish_reason": finish}],
    }


# -- the pure renderer ------------------------------------------------------


def test_text_chunks_under_the_default_plan() -> None:
    assert chunks(TEXT, REQUEST, "tk", 0) == [
        delta("tk", {"role": "assistant", "content": ""}),
        delta("tk", {"content": "Hello, w"}),
        delta("tk", {"content": "orld!"}),
        delta("tk", {}, "stop"),
    ]


def test_call_chunks_under_the_default_plan() -> None:
    assert chunks(CALL, REQUEST, "tk", 0) == [
        delta("tk", {"role": "assistant", "content": None}),
        delta(
            "tk",
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_tk_0_0",
                        "type": "function",
                        "function": {"name": "alpha__lookup", "arguments": ""},
                    }
                ]
            },
        ),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":"we'}}]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": 'ather"}'}}]}),
        delta("tk", {}, "tool_calls"),
    ]


OPEN_0 = {
    "index": 0,
    "id": "call_tk_0_0",
    "type": "function",
    "function": {"name": "alpha__lookup", "arguments": ""},
}
OPEN_1 = {
    "index": 1,
    "id": "call_tk_0_1",
    "type": "function",
    "function": {"name": "alpha__output_send__qq", "arguments": ""},
}


def test_two_calls_chunks_under_the_default_plan() -> None:
    # The second call has no parameters: its arguments stay "" (opener only).
    assert chunks(TWO_CALLS, REQUEST, "tk", 0) == [
        delta("tk", {"role": "assistant", "content": ""}),
        delta("tk", {"content": "On it."}),
        delta("tk", {"tool_calls": [OPEN_0]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":"a"'}}]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
        delta("tk", {"tool_calls": [OPEN_1]}),
        delta("tk", {}, "tool_calls"),
    ]


def test_a_plan_cuts_anywhere_and_interleaves_by_index() -> None:
    plan = Plan(text=(1, 2), arguments=((1, 5), ()), order=(0, 1, 0, 0, 0))
    assert chunks(TWO_CALLS, REQUEST, "tk", 0, plan) == [
        delta("tk", {"role": "assistant", "content": ""}),
        delta("tk", {"content": "O"}),
        delta("tk", {"content": "n"}),
        delta("tk", {"content": " it."}),
        delta("tk", {"tool_calls": [OPEN_0]}),
        delta("tk", {"tool_calls": [OPEN_1]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '"q":'}}]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '"a"}'}}]}),
        delta("tk", {}, "tool_calls"),
    ]


def test_default_plan_is_fixed_size_fragments_calls_in_turn() -> None:
    assert default_plan(TWO_CALLS) == Plan(text=(), arguments=((8,), ()), order=None)
    assert default_plan(CALL, 4) == Plan(text=(), arguments=((4, 8, 12),), order=None)


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (Plan(arguments=((0,),)), "call 0 arguments: cuts (0,) are not strictly increasing inside 1..14"),
        (Plan(arguments=((15,),)), "call 0 arguments: cuts (15,) are not strictly increasing inside 1..14"),
        (Plan(arguments=((5, 5),)), "call 0 arguments: cuts (5, 5) are not strictly increasing inside 1..14"),
        (Plan(arguments=()), "plan has arguments cuts for 0 calls, the reply has 1"),
        (Plan(text=(1,), arguments=((),)), "plan cuts text, the reply has none"),
        (
            Plan(arguments=((),), order=(0,)),
            "plan order (0,) does not name each call once per delta (TEXT per fragment)",
        ),
    ],
)
def test_a_plan_that_does_not_fit_is_refused(plan: Plan, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        chunks(CALL, REQUEST, "tk", 0, plan)
    assert str(caught.value) == message


def test_usage_chunk_only_when_asked() -> None:
    asked = {**REQUEST, "stream_options": {"include_usage": True}}
    rendered = chunks(Text("ok"), asked, "tk", 0)
    assert rendered == [
        {**delta("tk", {"role": "assistant", "content": ""}), "usage": None},
        {**delta("tk", {"content": "ok"}), "usage": None},
        {**delta("tk", {}, "stop"), "usage": None},
        {
            **head("tk"),
            "model": "gpt-test",
            "choices": [],
            "usage": {"prompt_tokens": 8, "completion_tokens": 9, "total_tokens": 17},
        },
    ]
    for options in ({"include_usage": False}, {}, None):
        assert [
            c.get("usage", "absent")
            for c in chunks(Text("ok"), {**REQUEST, "stream_options": options}, "tk", 0)
        ] == ["absent"] * 3


def test_encode_is_data_lines_then_done() -> None:
    assert encode([{"a": 1}, {"b": "é"}]) == b'data: {"a": 1}\n\ndata: {"b": "\\u00e9"}\n\ndata: [DONE]\n\n'


# -- over HTTP, with the official client ------------------------------------


def accumulate(stream: list[Any]) -> dict[str, Any]:
    """Assemble streamed chunks into (message, finish_reason, usage), tool calls keyed by `index`."""
    content: str | None = None
    calls: dict[int, dict[str, Any]] = {}
    finish: str | None = None
    usage: Any = None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage.model_dump()
        for choice in chunk.choices:
            if choice.delta.content is not None:
                content = (content or "") + choice.delta.content
            for tc in choice.delta.tool_calls or []:
                entry = calls.setdefault(tc.index, {"id": None, "type": None, "name": None, "arguments": ""})
                if tc.id is not None:
                    entry["id"] = tc.id
                if tc.type is not None:
                    entry["type"] = tc.type
                if tc.function is not None and tc.function.name is not None:
                    entry["name"] = tc.function.name
                if tc.function is not None and tc.function.arguments is not None:
                    entry["arguments"] += tc.function.arguments
            if choice.finish_reason is not None:
                finish = choice.finish_reason
    tool_calls = [
        {"id": c["id"], "type": c["type"], "function": {"name": c["name"], "arguments": c["arguments"]}}
        for _, c in sorted(calls.items())
    ]
    return {"content": content, "tool_calls": tool_calls or None, "finish_reason": finish, "usage": usage}


async def streamed(model: ModelEndpoint, token: str, usage: bool = True) -> list[Any]:
    extra: dict[str, Any] = {"stream_options": {"include_usage": True}} if usage else {}
    async with client(model, token) as c:
        stream = await c.chat.completions.create(
            model="gpt-test", messages=MESSAGES, tools=CHAT_TOOLS, stream=True, **extra
        )
        return [chunk async for chunk in stream]


async def plain(model: ModelEndpoint, token: str) -> dict[str, Any]:
    async with client(model, token) as c:
        answer = await c.chat.completions.create(model="gpt-test", messages=MESSAGES, tools=CHAT_TOOLS)
    message = answer.choices[0].message
    tool_calls = [tc.model_dump() for tc in message.tool_calls] if message.tool_calls else None
    return {
        "content": message.content,
        "tool_calls": tool_calls,
        "finish_reason": answer.choices[0].finish_reason,
        "usage": answer.usage.model_dump() if answer.usage else None,
    }


@pytest.mark.parametrize(
    ("reply", "content", "tool_calls", "finish"),
    [
        (TEXT, "Hello, world!", None, "stop"),
        (
            CALL,
            None,
            [("call_{t}_{i}_0", "alpha__lookup", '{"q":"weather"}')],
            "tool_calls",
        ),
        (
            TWO_CALLS,
            "On it.",
            [
                ("call_{t}_{i}_0", "alpha__lookup", '{"q":"a"}'),
                ("call_{t}_{i}_1", "alpha__output_send__qq", ""),
            ],
            "tool_calls",
        ),
    ],
)
def test_streamed_answer_accumulates_to_the_plain_answer(
    model: ModelEndpoint,
    token: str,
    reply: Text | Call | ToolCalls,
    content: str | None,
    tool_calls: list[tuple[str, str, str]] | None,
    finish: str,
) -> None:
    model.script(token, [reply, reply])
    got = accumulate(run(streamed(model, token)))

    def expected_calls(i: int) -> list[dict[str, Any]] | None:
        # Ids name the request index: the streamed answer is request 0, the plain one request 1.
        if tool_calls is None:
            return None
        return [
            {"id": id_.format(t=token, i=i), "type": "function", "function": {"name": n, "arguments": a}}
            for id_, n, a in tool_calls
        ]

    assert {k: got[k] for k in ("content", "tool_calls", "finish_reason")} == {
        "content": content,
        "tool_calls": expected_calls(0),
        "finish_reason": finish,
    }
    again = run(plain(model, token))
    assert again["content"] == content
    assert again["tool_calls"] == expected_calls(1)
    assert again["finish_reason"] == finish
    # Same reply, same request messages: the same usage either way.
    assert got["usage"] == again["usage"]
    assert [r.status for r in model.requests(token)] == [200, 200]


def test_usage_chunk_is_last_and_only_when_asked(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok"), Text("ok")])
    with_usage = run(streamed(model, token, usage=True))
    assert [c.choices == [] for c in with_usage] == [False, False, False, True]
    without = run(streamed(model, token, usage=False))
    assert [(c.choices == [], c.usage) for c in without] == [(False, None)] * 3


def test_raw_stream_is_sse_ending_with_done(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok")])
    answer = httpx2.post(
        model.base_url(token) + "/chat/completions",
        json={"model": "m", "messages": MESSAGES, "stream": True},
        timeout=10,
    )
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/event-stream"
    c = f'"id": "chatcmpl-{token}-0", "object": "chat.completion.chunk", "created": 1767225600, "model": "m"'
    assert (
        answer.content
        == (
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{"role": "assistant", "content": ""}}, '
            '"finish_reason": null}]}\n\n'
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{"content": "ok"}}, '
            '"finish_reason": null}]}\n\n'
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{}}, "finish_reason": "stop"}}]}}\n\n'
            "data: [DONE]\n\n"
        ).encode()
    )
    record = model.requests(token)[0]
    assert (record.status, record.note, record.json) == (
        200,
        "",
        {"model": "m", "messages": MESSAGES, "stream": True},
    )
    assert [c["choices"][0]["delta"] for c in record.response] == [
        {"role": "assistant", "content": ""},
        {"content": "ok"},
        {},
    ]


def test_runaway_streams_its_varying_call(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Runaway("alpha/lookup")])
    first = accumulate(run(streamed(model, token)))
    second = accumulate(run(streamed(model, token)))
    assert [
        first["tool_calls"][0]["function"]["arguments"],
        second["tool_calls"][0]["function"]["arguments"],
    ] == [
        runaway_arguments(0),
        runaway_arguments(1),
    ]


def test_errors_and_safety_nets_stay_plain_json(model: ModelEndpoint, token: str) -> None:
    body = {"error": {"message": "slow down", "type": "rate_limit", "param": None, "code": "x"}}
    model.script(
        token, [HttpError(400, body), Call("nope/none"), AlwaysFail(HttpError(400, body))], safety_cap=4
    )
    outcomes = []
    for _ in range(5):
        with pytest.raises(openai.BadRequestError) as caught:
            run(streamed(model, token))
        outcomes.append((caught.value.status_code, caught.value.response.headers["content-type"]))
    assert outcomes == [(400, "application/json")] * 5
    assert [r.note for r in model.requests(token)] == [
        "scripted HTTP 400",
        "toolproof: no offered tool carries marker [tp:nope/none]",
        "scripted HTTP 400",
        "scripted HTTP 400",
        "toolproof: safety cap of 4 model requests reached",
    ]
    assert model.safety_nets(token) == ("toolproof: safety cap of 4 model requests reached",)


def test_script_exhausted_on_a_streaming_request(model: ModelEndpoint, token: str) -> None:
    model.script(token, [])
    with pytest.raises(openai.BadRequestError) as caught:
        run(streamed(model, token))
    assert caught.value.status_code == 400
    assert caught.value.code == "toolproof_script_exhausted"
    assert model.safety_nets(token) == ("toolproof: script exhausted after 0 replies",)


# -- the wire-neutral record -------------------------------------------------


def test_every_record_holds_the_answered_message_whatever_the_wire(model: ModelEndpoint, token: str) -> None:
    """`ModelRequest.message`: the assistant message a streamed and a plain answer stand for, the same
    dict the chat JSON carries; None for a scripted HTTP error and for a refusal."""
    body = {"error": {"message": "slow down", "type": "rate_limit", "param": None, "code": "x"}}
    model.script(token, [TWO_CALLS, TWO_CALLS, HttpError(400, body)])
    run(streamed(model, token))
    run(plain(model, token))
    with pytest.raises(openai.BadRequestError):
        run(streamed(model, token))
    with pytest.raises(openai.BadRequestError):
        run(streamed(model, token))  # script exhausted

    records = model.requests(token)
    assert [r.message for r in records] == [
        two_calls_message(token, 0),
        two_calls_message(token, 1),
        None,
        None,
    ]
    assert records[1].message == records[1].response["choices"][0]["message"]


# -- the shapes a plan adds, and streams that break off ---------------------------


def test_text_fragments_go_where_the_order_puts_them() -> None:
    plan = Plan(text=(3,), arguments=((8,), ()), order=(0, TEXT_AT, 0, TEXT_AT, 0, 1))
    assert chunks(TWO_CALLS, REQUEST, "tk", 0, plan) == [
        delta("tk", {"role": "assistant", "content": ""}),
        delta("tk", {"tool_calls": [OPEN_0]}),
        delta("tk", {"content": "On "}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":"a"'}}]}),
        delta("tk", {"content": "it."}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
        delta("tk", {"tool_calls": [OPEN_1]}),
        delta("tk", {}, "tool_calls"),
    ]


def test_empty_content_beside_calls() -> None:
    plan = Plan(arguments=((),), empty_content=True)
    assert chunks(CALL, REQUEST, "tk", 0, plan)[0] == delta("tk", {"role": "assistant", "content": ""})


def test_comments_and_the_compact_done_shape_the_events() -> None:
    stream = [{"a": 1}]
    assert encode(stream, Plan(comments=True, compact_done=True)) == (
        b': keep-alive\n\ndata: {"a": 1}\n\n: keep-alive\n\ndata:[DONE]\n\n'
    )


@pytest.mark.parametrize("shape", [Plan(comments=True), Plan(compact_done=True), Plan(empty_content=True)])
def test_the_official_client_reads_every_shape(model: ModelEndpoint, token: str, shape: Plan) -> None:
    plan = dataclasses.replace(shape, arguments=((8,), ()))
    model.script(token, [Streamed(TWO_CALLS, plan)])
    got = accumulate(run(streamed(model, token)))
    message = two_calls_message(token, 0)
    assert {k: got[k] for k in ("content", "tool_calls", "finish_reason")} == {
        "content": message["content"],
        "tool_calls": message["tool_calls"],
        "finish_reason": "tool_calls",
    }
    # The record holds the same message, whatever the shape (the checks read it there).
    assert model.requests(token)[0].message == message


def test_cut_chunks_stop_inside_the_arguments() -> None:
    cut = Cut(TWO_CALLS, call=0, at=3, ending="error")
    assert cut_chunks(cut, REQUEST, "tk", 0) == [
        delta("tk", {"role": "assistant", "content": ""}),
        delta("tk", {"content": "On it."}),
        delta("tk", {"tool_calls": [OPEN_0]}),
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '{"q'}}]}),
    ]
    # After the whole first call, inside the second's opener: the first call is complete.
    after = Cut(TWO_CALLS, call=1, at=0)
    assert cut_chunks(after, REQUEST, "tk", 0)[-2:] == [
        delta("tk", {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":"a"}'}}]}),
        delta("tk", {"tool_calls": [OPEN_1]}),
    ]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"call": 1, "at": 0}, "Cut.call 1 is not a call of the reply"),
        ({"call": 0, "at": 16}, "Cut.at 16 is outside call 0's arguments"),
        (
            {"call": 0, "at": 1, "ending": "end"},
            "Cut.ending must be one of ('abort', 'error', 'clean'), got 'end'",
        ),
    ],
    ids=["call", "at", "ending"],
)
def test_a_cut_that_does_not_fit_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        Cut(CALL, **fields)
    assert str(caught.value) == message


def test_an_error_event_breaks_the_stream_on_every_attempt(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="error")])
    for _ in range(2):
        with pytest.raises(openai.APIError) as caught:
            run(streamed(model, token))
        assert caught.value.message == "toolproof: the stream broke off (scripted)"
    records = model.requests(token)
    assert [(r.status, r.message, r.note) for r in records] == [
        (200, None, "stream cut (error) at offset 5 of call 0's arguments")
    ] * 2
    assert records[0].response[-1]["choices"][0]["delta"] == {
        "tool_calls": [{"index": 0, "function": {"arguments": '{"q":'}}]
    }


def test_an_aborted_stream_breaks_the_connection(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="abort")])
    # The client surfaces the transport's "incomplete chunked read" as a connection error.
    with pytest.raises(openai.APIConnectionError) as caught:
        run(streamed(model, token))
    assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)
    assert [(r.status, r.message) for r in model.requests(token)] == [(200, None)]


def test_a_clean_ending_ends_the_body_at_a_chunk_boundary_on_every_attempt(
    model: ModelEndpoint, token: str
) -> None:
    model.script(token, [Cut(CALL, call=0, at=5, ending="clean")])
    # The official client reads a body that ends normally to its end: no error, and no finish_reason.
    got = run(streamed(model, token))
    assert [(c.choices[0].finish_reason, c.choices[0].delta.model_dump(exclude_none=True)) for c in got] == [
        (None, {"role": "assistant"}),
        (
            None,
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": f"call_{token}_0_0",
                        "type": "function",
                        "function": {"name": "alpha__lookup", "arguments": ""},
                    }
                ]
            },
        ),
        (None, {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":'}}]}),
    ]
    answer = httpx2.post(
        model.base_url(token) + "/chat/completions",
        json={"model": "m", "messages": MESSAGES, "tools": CHAT_TOOLS, "stream": True},
        timeout=10,
    )
    c = f'"id": "chatcmpl-{token}-1", "object": "chat.completion.chunk", "created": 1767225600, "model": "m"'
    opener = (
        f'{{"index": 0, "id": "call_{token}_1_0", "type": "function", '
        '"function": {"name": "alpha__lookup", "arguments": ""}}'
    )
    assert (answer.status_code, answer.content) == (
        200,
        (
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{"role": "assistant", "content": null}}, '
            '"finish_reason": null}]}\n\n'
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{"tool_calls": [{opener}]}}, '
            '"finish_reason": null}]}\n\n'
            f'data: {{{c}, "choices": [{{"index": 0, "delta": {{"tool_calls": [{{"index": 0, '
            '"function": {"arguments": "{\\"q\\":"}}]}, "finish_reason": null}]}\n\n'
        ).encode(),
    )
    assert [(r.status, r.message, r.note) for r in model.requests(token)] == [
        (200, None, "stream cut (clean) at offset 5 of call 0's arguments")
    ] * 2


def test_a_cut_refuses_a_request_that_does_not_stream(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Cut(CALL, call=0, at=5)])
    with pytest.raises(openai.BadRequestError) as caught:
        run(plain(model, token))
    assert (caught.value.code, caught.value.message) == (
        "toolproof_stream_only",
        "Error code: 400 - toolproof: this reply is scripted as a broken stream: it answers stream true only",
    )
