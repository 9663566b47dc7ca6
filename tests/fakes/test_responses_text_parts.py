"""Self-tests of `TextParts`: a Responses message item whose text comes in several `output_text` parts.

The parts, in order and joined with nothing between, are the reply's text: the
official client's `output_text` reads them so, plain and streamed, and the
record holds the whole text. Responses API only. Expected values are literal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from endpoint_support import CHAT_TOOLS, RESPONSES_REQUEST, RESPONSES_TOOLS, client, run  # tests/fakes

from toolproof.fakes import Call, ModelEndpoint, Text, TextParts, ToolCalls
from toolproof.fakes.responses import events, response

TOOLS = RESPONSES_TOOLS
SPLIT = TextParts(Text("Hello, world!"), at=(5, 7))
"""Three parts: "Hello", ", ", "world!"."""


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(responses=True) as endpoint:
        yield endpoint


def part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}


# -- the pure renderer ------------------------------------------------------


def test_the_message_item_carries_one_part_per_piece() -> None:
    output = response(SPLIT.reply, RESPONSES_REQUEST, "tk", 0, SPLIT.parts())["output"]
    assert output == [
        {
            "id": "msg_tk_0",
            "type": "message",
            "status": "completed",
            "content": [part("Hello"), part(", "), part("world!")],
            "role": "assistant",
        }
    ]


def test_each_part_streams_under_its_own_content_index() -> None:
    stream = events(SPLIT.reply, RESPONSES_REQUEST, "tk", 0, parts=SPLIT.parts())
    at = {"item_id": "msg_tk_0", "output_index": 0}
    assert [{k: v for k, v in e.items() if k != "sequence_number"} for e in stream[3:15]] == [
        {"type": "response.content_part.added", "content_index": 0, **at, "part": part("")},
        {"type": "response.output_text.delta", "content_index": 0, "delta": "Hello", **at, "logprobs": []},
        {"type": "response.output_text.done", "content_index": 0, **at, "logprobs": [], "text": "Hello"},
        {"type": "response.content_part.done", "content_index": 0, **at, "part": part("Hello")},
        {"type": "response.content_part.added", "content_index": 1, **at, "part": part("")},
        {"type": "response.output_text.delta", "content_index": 1, "delta": ", ", **at, "logprobs": []},
        {"type": "response.output_text.done", "content_index": 1, **at, "logprobs": [], "text": ", "},
        {"type": "response.content_part.done", "content_index": 1, **at, "part": part(", ")},
        {"type": "response.content_part.added", "content_index": 2, **at, "part": part("")},
        {"type": "response.output_text.delta", "content_index": 2, "delta": "world!", **at, "logprobs": []},
        {"type": "response.output_text.done", "content_index": 2, **at, "logprobs": [], "text": "world!"},
        {"type": "response.content_part.done", "content_index": 2, **at, "part": part("world!")},
    ]
    assert [e["type"] for e in stream[15:]] == ["response.output_item.done", "response.completed"]
    assert stream[15]["item"]["content"] == [part("Hello"), part(", "), part("world!")]
    assert stream[16]["response"]["output"][0]["content"] == [part("Hello"), part(", "), part("world!")]


@pytest.mark.parametrize(
    ("reply", "at", "message"),
    [
        (Text("Hello"), (), "TextParts needs a reply with text and at least one cut"),
        (
            ToolCalls((Call("alpha/lookup", "{}"),)),
            (1,),
            "TextParts needs a reply with text and at least one cut",
        ),
        (Text("Hello"), (5,), "TextParts.at: cuts (5,) are not strictly increasing inside 1..4"),
        (Text("Hello"), (3, 2), "TextParts.at: cuts (3, 2) are not strictly increasing inside 1..4"),
    ],
    ids=["no-cut", "no-text", "at-the-end", "not-increasing"],
)
def test_parts_that_do_not_fit_are_refused(reply: Any, at: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        TextParts(reply, at)
    assert str(caught.value) == message


# -- over HTTP, with the official client ------------------------------------


async def plain(model: ModelEndpoint, token: str) -> Any:
    async with client(model, token) as c:
        return await c.responses.create(model="gpt-test", input="hi", tools=TOOLS)


async def helper(model: ModelEndpoint, token: str) -> Any:
    async with (
        client(model, token) as c,
        c.responses.stream(model="gpt-test", input="hi", tools=TOOLS) as stream,
    ):
        async for _ in stream:
            pass
        return await stream.get_final_response()


def test_the_official_client_reads_the_whole_text_plain_and_streamed(
    model: ModelEndpoint, token: str
) -> None:
    beside = TextParts(ToolCalls((Call("alpha/lookup", '{"q":"a"}'),), text="On it, then."), at=(3,))
    model.script(token, [SPLIT, SPLIT, beside])
    answer = run(plain(model, token))
    assert ([p.text for p in answer.output[0].content], answer.output_text) == (
        ["Hello", ", ", "world!"],
        "Hello, world!",
    )
    final = run(helper(model, token))
    assert ([p.text for p in final.output[0].content], final.output_text) == (
        ["Hello", ", ", "world!"],
        "Hello, world!",
    )
    with_call = run(plain(model, token))
    assert ([p.text for p in with_call.output[0].content], [i.type for i in with_call.output]) == (
        ["On ", "it, then."],
        ["message", "function_call"],
    )
    records = model.requests(token)
    assert [(r.status, r.note, r.message["content"] if r.message else None) for r in records] == [
        (200, "text in 3 output_text parts", "Hello, world!"),
        (200, "text in 3 output_text parts", "Hello, world!"),
        (200, "text in 2 output_text parts", "On it, then."),
    ]


async def chat(model: ModelEndpoint, token: str) -> Any:
    async with client(model, token) as c:
        messages: Any = [{"role": "user", "content": "hi"}]
        return await c.chat.completions.create(model="gpt-test", messages=messages, tools=CHAT_TOOLS)


def test_a_chat_request_is_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [SPLIT])
    with pytest.raises(openai.BadRequestError) as caught:
        run(chat(model, token))
    message = "toolproof: this reply is scripted for the Responses API only (TextParts)"
    assert (caught.value.code, caught.value.message) == (
        "toolproof_responses_only",
        f"Error code: 400 - {message}",
    )
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (400, message, None)
