"""The wire invariants (toolproof/judge/invariants.py) on literal bodies.

Each flags its bug and passes the fix.
"""

from __future__ import annotations

from typing import Any

from toolproof.fakes.records import ModelRequest
from toolproof.judge import invariants
from toolproof.judge.declared import Declared

DECLARED = Declared.from_hello(
    {"implementation": {"name": "x", "version": "0", "language": "py"}, "capabilities": ["openai.chat"]}
)
TEXT_PARTS = Declared.from_hello(
    {
        "implementation": {"name": "x", "version": "0", "language": "py"},
        "capabilities": ["openai.chat"],
        "options": {"tool_content": "text_parts"},
    }
)


def body(tools: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    if tools is not None:
        out["tools"] = tools
    return out


def tool(name: str = "lookup", parameters: Any = None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def request(
    data: Any, *, method: str = "POST", path: str = "/tok/v1/chat/completions", query: str = ""
) -> ModelRequest:
    return ModelRequest(
        token="tok",
        index=0,
        method=method,
        path=path,
        query=query,
        headers=(),
        body=b"",
        json=data,
        status=200,
        response=None,
        note="",
    )


def test_lowercase_types_walks_schema_positions_only() -> None:
    nested = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["OBJECT"]},  # a property named "type"
            "default": {"type": "boolean", "default": "STRING"},  # a property named "default"
            "f": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "STRING"}}}},
            "g": {"oneOf": [{"type": "NULL"}], "$defs": {"d": {"type": "Number"}}},
        },
    }
    problems = invariants.lowercase_schema_types(body([tool(parameters=nested)]), DECLARED)
    assert problems == [
        "tools[0].function.parameters.properties['f'].properties['tags'].items.type is 'STRING': "
        "JSON Schema type names are lowercase",
        "tools[0].function.parameters.properties['g'].oneOf[0].type is 'NULL': "
        "JSON Schema type names are lowercase",
        "tools[0].function.parameters.properties['g'].$defs['d'].type is 'Number': "
        "JSON Schema type names are lowercase",
    ]
    fixed = {"type": "object", "properties": {"type": {"type": "string"}, "default": {"type": "boolean"}}}
    assert invariants.lowercase_schema_types(body([tool(parameters=fixed)]), DECLARED) == []


def test_no_tool_keys_without_tools() -> None:
    assert invariants.no_tool_keys_without_tools(body(parallel_tool_calls=False), DECLARED) == [
        "parallel_tool_calls is present but the request offers no function"
    ]
    assert invariants.no_tool_keys_without_tools(body(tools=[], tool_choice="auto"), DECLARED) == [
        "tool_choice is present but the request offers no function"
    ]
    assert invariants.no_tool_keys_without_tools(body([tool()], tool_choice="auto"), DECLARED) == []


def test_endpoint() -> None:
    assert invariants.endpoint(request(body()), DECLARED) == []
    assert invariants.endpoint(request(body(stream=False)), DECLARED) == []
    assert invariants.endpoint(request(body(stream=True)), DECLARED) == [
        "stream is True: declared model_stream never (stream absent or false)"
    ]
    assert invariants.endpoint(request(body(stream=None)), DECLARED) == [
        "stream is None: declared model_stream never (stream absent or false)"
    ]
    assert invariants.endpoint(request(body(), query="api-version=1"), DECLARED) == [
        "request went to '/tok/v1/chat/completions?api-version=1', not '/tok/v1/chat/completions'"
    ]
    assert invariants.endpoint(request(None, method="GET", path="/tok/v1/models"), DECLARED) == [
        "method is GET, not POST",
        "request went to '/tok/v1/models', not '/tok/v1/chat/completions'",
    ]


def test_request_schema() -> None:
    assert invariants.request_schema(request(body([tool()])), DECLARED) == []
    missing = body(
        [tool()],
        messages=[
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c"},
        ],
    )
    assert invariants.request_schema(request(missing), DECLARED) == [
        ".messages[1]: 'content' is a required property"
    ]
    assert invariants.request_schema(request(None), DECLARED) == ["the body is not a JSON object: b''"]


def test_judge_runs_request_probes_per_request() -> None:
    bad = request(body(stream=True))
    assert invariants.judge("wire.endpoint", [bad], DECLARED).message() == (
        "1 of 1 request violates: tok#0\n"
        "request tok#0: stream is True: declared model_stream never (stream absent or false)"
    )
    assert invariants.judge("wire.request-schema", [bad], DECLARED).violations == ()


def test_text_parts_content() -> None:
    parts = body(messages=[{"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": ""}]}])
    assert invariants.tool_message_content(parts, TEXT_PARTS) == []
    assert invariants.tool_message_content(parts, DECLARED) == []
    empty = body(messages=[{"role": "tool", "tool_call_id": "c", "content": []}])
    assert invariants.tool_message_content(empty, TEXT_PARTS) == [
        "messages[0].content is an empty array (OpenAI rejects it)"
    ]


def _messages_with_result(block: dict[str, Any]) -> ModelRequest:
    """A Messages request whose last user message answers one `tool_use` with `block`."""
    return request(
        {
            "model": "m",
            "max_tokens": 8,
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}],
                },
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", **block}]},
            ],
        },
        path="/tok/v1/messages",
    )


def test_no_empty_text_leaves_an_empty_results_shape_to_its_own_check() -> None:
    """An empty result that is no error, as "" or one empty text block, is tp-anth-empty-result's (one
    defect, one failure); an empty block among others, and an error result without content, are this
    invariant's."""
    empty_text = {"type": "text", "text": ""}
    own = [{"content": ""}, {"content": [empty_text]}, {}]
    for block in own:
        assert invariants.anthropic_no_empty_text(_messages_with_result(block), DECLARED) == [], block
    assert invariants.anthropic_no_empty_text(
        _messages_with_result({"content": [{"type": "text", "text": "a"}, empty_text]}), DECLARED
    ) == ["messages[2].content[0].content[1] is a text block with an empty text"]
    assert invariants.anthropic_no_empty_text(_messages_with_result({"is_error": True}), DECLARED) == [
        "messages[2].content[0] has is_error true and no content (the API refuses an empty error result)"
    ]
    assert invariants.anthropic_no_empty_text(
        _messages_with_result({"is_error": True, "content": ""}), DECLARED
    ) == [
        'messages[2].content[0].content is "" (the API refuses an empty content string)',
        "messages[2].content[0] has is_error true and no content (the API refuses an empty error result)",
    ]
