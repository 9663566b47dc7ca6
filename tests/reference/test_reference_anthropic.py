"""The reference's Anthropic Messages API wire (candidates/reference/anthropic_wire.py), end to end.

Each test builds the reference under `reference-anthropic` (plain) or
`reference-anthropic-stream` (streamed) with the official `anthropic` client,
aims it at the harness's fake `POST /v1/messages` (`ModelEndpoint(anthropic=True)`,
base URL `anthropic_base_url(token)`) and the reference's own MCP fakes, and
reads the raw request bodies the fake recorded. Expected values are literal.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from anthropic.types import RawMessageStreamEvent
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from toolproof.candidates.reference.anthropic_wire import read_events, request_arguments
from toolproof.candidates.reference.errors import ModelError
from toolproof.candidates.reference.messages import ErrorText, ModelReply, ToolCall
from toolproof.candidates.reference.runtime import Runtime

from toolproof.fakes import (
    Call,
    Cut,
    Ended,
    ModelEndpoint,
    RedactedThought,
    Stopped,
    Text,
    Thinking,
    Thought,
    ToolCalls,
)
from toolproof.fakes.anthropic_wire import events
from toolproof.fakes.model_server import Scripted
from toolproof.fakes.sse import Plan
from toolproof.strategies.arguments import ijson_objects
from toolproof.strategies.streams import block_plans

from .conftest import SubprocessDriver
from .fakes import McpServers

PROFILES = ["reference-anthropic", "reference-anthropic-stream"]
INSTRUCTION = "You are a test agent."
LOOKUP = {
    "name": "lookup",
    "description": "[tp:alpha/lookup]",
    "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
}
"""The alpha server's `lookup` as a client tool (its schema's type lower-cased by the reference)."""


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(anthropic=True) as model:
        yield model


def run(
    profile: str,
    endpoint: ModelEndpoint,
    servers: McpServers,
    token: str,
    script: list[Scripted],
    *inputs: str,
) -> list[str]:
    """Script the model, build the reference under `profile` against alpha, run each input; the outputs."""
    endpoint.script(token, script)
    config = {
        "model": {
            "base_url": endpoint.anthropic_base_url(token),
            "api_key": "sk-test",
            "name": "claude-test",
        },
        "instruction": INSTRUCTION,
        "mcp_servers": {"alpha": {"type": "http", "url": servers.url(token, "alpha")}},
    }

    async def go() -> list[str]:
        agent = await Runtime(profile).build(config)
        outputs = [(await agent.run(text)).output for text in inputs]
        await agent.close()
        return outputs

    return asyncio.run(go())


def bodies(endpoint: ModelEndpoint, token: str) -> list[Any]:
    """The raw JSON bodies of every model request of `token`, in order."""
    return [request.json for request in endpoint.requests(token)]


def tool_calls(servers: McpServers, token: str) -> list[tuple[str, Any]]:
    """Every `tools/call` the MCP fakes saw for `token`: (name, arguments)."""
    return [
        (hit.body["params"]["name"], hit.body["params"]["arguments"])
        for hit in servers.token_hits(token)
        if hit.body and hit.body.get("method") == "tools/call"
    ]


def tool_use(token: str, index: int, i: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The echo of the fake's call `i` of its answer `index` (the fake's ids: toolu_<token>_<index>_<i>)."""
    return {"type": "tool_use", "id": f"toolu_{token}_{index}_{i}", "name": name, "input": arguments}


def result(token: str, index: int, i: int, content: str, is_error: bool = False) -> dict[str, Any]:
    """A `tool_result` for the fake's call `i` of answer `index`."""
    block = {"type": "tool_result", "tool_use_id": f"toolu_{token}_{index}_{i}", "content": content}
    return {**block, "is_error": True} if is_error else block


@pytest.mark.parametrize("profile", PROFILES)
def test_text_reply(profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    assert run(profile, endpoint, mcp_servers, token, [Text("Hello, world!")], "hi") == ["Hello, world!"]
    (request,) = endpoint.requests(token)
    assert request.path == f"/{token}/v1/messages"
    assert request.header_values("anthropic-version") == ["2026-10-21"]  # the pinned client's
    assert request.wire == "anthropic.messages"
    expected: dict[str, Any] = {
        "model": "claude-test",
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": "hi"}],
        "system": INSTRUCTION,
    }
    if profile.endswith("-stream"):
        expected["stream"] = True
    body = dict(request.json)
    tools = body.pop("tools")
    assert body == expected
    assert [tool for tool in tools if tool["name"] == "lookup"] == [LOOKUP]


@pytest.mark.parametrize("profile", PROFILES)
def test_results_of_a_textless_turn_in_one_user_message(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    calls = ToolCalls((Call("alpha/lookup", '{"q":"a"}'), Call("alpha/lookup", '{"q":"b"}')))
    assert run(profile, endpoint, mcp_servers, token, [calls, Text("done")], "find") == ["done"]
    assert tool_calls(mcp_servers, token) == [("lookup", {"q": "a"}), ("lookup", {"q": "b"})]
    assert bodies(endpoint, token)[1]["messages"] == [
        {"role": "user", "content": "find"},
        {
            "role": "assistant",
            "content": [
                tool_use(token, 0, 0, "lookup", {"q": "a"}),
                tool_use(token, 0, 1, "lookup", {"q": "b"}),
            ],
        },
        {"role": "user", "content": [result(token, 0, 0, "alpha:a"), result(token, 0, 1, "alpha:b")]},
    ]


@pytest.mark.parametrize("profile", PROFILES)
def test_errors_flagged_empty_result_empty_input(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """isError and a failed call: is_error; an empty result: no content; an empty isError result: the
    reference's own text (the API refuses an error without content); a parameterless call (streamed:
    one `partial_json: ""`): input {}; the turn's text before its calls."""
    calls = ToolCalls(
        (
            Call("alpha/report_error", '{"text":"bad"}'),
            Call("alpha/rpc_error", ""),
            Call("alpha/echo_text", '{"text":""}'),
            Call("alpha/report_error", '{"text":""}'),
        ),
        text="On it.",
    )
    assert run(profile, endpoint, mcp_servers, token, [calls, Text("done")], "go") == ["done"]
    assert tool_calls(mcp_servers, token) == [
        ("report_error", {"text": "bad"}),
        ("rpc_error", {}),
        ("echo_text", {"text": ""}),
        ("report_error", {"text": ""}),
    ]
    assert bodies(endpoint, token)[1]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "On it."},
                tool_use(token, 0, 0, "report_error", {"text": "bad"}),
                tool_use(token, 0, 1, "rpc_error", {}),
                tool_use(token, 0, 2, "echo_text", {"text": ""}),
                tool_use(token, 0, 3, "report_error", {"text": ""}),
            ],
        },
        {
            "role": "user",
            "content": [
                result(token, 0, 0, "bad", is_error=True),
                result(token, 0, 1, "tool error: rpc boom", is_error=True),
                {"type": "tool_result", "tool_use_id": f"toolu_{token}_0_2"},
                result(token, 0, 3, "The tool failed without output.", is_error=True),
            ],
        },
    ]


@pytest.mark.parametrize("profile", PROFILES)
def test_thinking_replayed_unchanged_in_order(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    thoughts = (
        Thought("First, look.", "c2lnLW9uZQ=="),
        RedactedThought("cmVkYWN0ZWQ="),
        Thought("Then b.", "c2lnLXR3bw=="),
    )
    script: list[Scripted] = [Thinking(Call("alpha/lookup", '{"q":"a"}'), thoughts), Text("done")]
    assert run(profile, endpoint, mcp_servers, token, script, "think") == ["done"]
    assert bodies(endpoint, token)[1]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "First, look.", "signature": "c2lnLW9uZQ=="},
                {"type": "redacted_thinking", "data": "cmVkYWN0ZWQ="},
                {"type": "thinking", "thinking": "Then b.", "signature": "c2lnLXR3bw=="},
                tool_use(token, 0, 0, "lookup", {"q": "a"}),
            ],
        },
        {"role": "user", "content": [result(token, 0, 0, "alpha:a")]},
    ]


@pytest.mark.parametrize("profile", PROFILES)
def test_max_tokens_runs_no_call(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    with pytest.raises(ModelError, match="max_tokens"):
        run(
            profile,
            endpoint,
            mcp_servers,
            token,
            [Ended(Call("alpha/lookup", '{"q":"a"}'), "incomplete")],
            "go",
        )
    assert tool_calls(mcp_servers, token) == []


@pytest.mark.parametrize("profile", PROFILES)
def test_refusal_runs_no_call(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    with pytest.raises(ModelError, match="refused"):
        run(
            profile,
            endpoint,
            mcp_servers,
            token,
            [Stopped(Call("alpha/lookup", '{"q":"a"}'), "refusal")],
            "go",
        )
    assert tool_calls(mcp_servers, token) == []


@pytest.mark.parametrize(("ending", "retried"), [("error", False), ("clean", False), ("abort", True)])
def test_broken_stream_runs_no_call(
    ending: str, retried: bool, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """An `error` event and a body without `message_stop` are not retried; a dropped connection is."""
    cut = Cut(Call("alpha/lookup", '{"q":"a"}'), call=0, at=3, ending=ending)
    with pytest.raises(ModelError):
        run("reference-anthropic-stream", endpoint, mcp_servers, token, [cut], "go")
    assert tool_calls(mcp_servers, token) == []
    assert len(endpoint.requests(token)) == (3 if retried else 1)


def test_textless_final_reply_not_echoed(
    endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """A final reply without text has no block to echo: the next request holds no empty turn."""
    assert run("reference-anthropic", endpoint, mcp_servers, token, [Text(""), Text("ok")], "one", "two") == [
        "",
        "ok",
    ]
    assert bodies(endpoint, token)[1]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]}
    ]


def test_request_conversion() -> None:
    """The pure boundary: system on top, text and calls in one assistant turn, results merged with the
    continuation after them, tools with input_schema, no empty text block, ErrorText as is_error."""
    chat = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "t", "arguments": '{"a":1}'}},
                    {"id": "c2", "type": "function", "function": {"name": "t", "arguments": "{}"}},
                ],
                "thinking_blocks": [{"type": "redacted_thinking", "data": "eA=="}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": ""},
            {"role": "tool", "tool_call_id": "c2", "content": ErrorText('unknown tool: "t"')},
            {"role": "user", "content": "go on"},
            {"role": "assistant", "content": ""},
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "t", "description": "d", "parameters": {"type": "object"}},
            }
        ],
    }
    assert request_arguments(chat) == {
        "model": "m",
        "max_tokens": 4096,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": [
                    {"type": "redacted_thinking", "data": "eA=="},
                    {"type": "tool_use", "id": "c1", "name": "t", "input": {"a": 1}},
                    {"type": "tool_use", "id": "c2", "name": "t", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "c1"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "c2",
                        "content": 'unknown tool: "t"',
                        "is_error": True,
                    },
                    {"type": "text", "text": "go on"},
                ],
            },
        ],
        "tools": [{"name": "t", "description": "d", "input_schema": {"type": "object"}}],
    }


# -- the stream fold, on the fake's own events --------------------------------------------

EVENTS: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
STREAM_REQUEST: dict[str, Any] = {"model": "m", "max_tokens": 64, "messages": [], "tools": [LOOKUP]}


def read(rendered: list[dict[str, Any]]) -> ModelReply:
    """`read_events` over the fake's events as the official client yields them (it skips `ping`)."""

    async def stream() -> AsyncIterator[Any]:
        for event in rendered:
            if event["type"] != "ping":
                yield EVENTS.validate_python(event)

    return asyncio.run(read_events(stream()))


@st.composite
def streamed_replies(draw: st.DrawFn) -> tuple[ToolCalls, Plan]:
    """Calls with any I-JSON object as arguments ("" for a parameterless one) and text or none, cut anyhow."""
    objects = draw(st.lists(ijson_objects(), min_size=1, max_size=3))
    calls = tuple(Call("alpha/lookup", json.dumps(value) if value else "") for value in objects)
    reply = ToolCalls(calls, text=draw(st.none() | st.text(min_size=1, max_size=20)))
    return reply, draw(block_plans(reply))


@settings(max_examples=60, deadline=None)
@given(case=streamed_replies())
def test_any_chunking_reads_the_scripted_reply(case: tuple[ToolCalls, Plan]) -> None:
    """The fragments of each call join to its input, parsed once: an empty buffer is {}."""
    reply, plan = case
    expected = ModelReply(
        content=reply.text,
        tool_calls=tuple(
            ToolCall(
                id=f"toolu_tk_0_{i}",
                name="lookup",
                arguments=json.dumps(
                    json.loads(call.arguments) if call.arguments else {}, ensure_ascii=False
                ),
            )
            for i, call in enumerate(reply.calls)
        ),
    )
    assert read(events(reply, STREAM_REQUEST, "tk", 0, plan=plan)) == expected


def test_streamed_thinking_kept_whole_in_order() -> None:
    thoughts = (Thought("Look first.", "c2ln"), RedactedThought("cmVk"))
    rendered = events(Call("alpha/lookup", ""), STREAM_REQUEST, "tk", 0, thoughts=thoughts)
    assert read(rendered) == ModelReply(
        content=None,
        tool_calls=(ToolCall(id="toolu_tk_0_0", name="lookup", arguments="{}"),),
        thinking=(
            {"type": "thinking", "thinking": "Look first.", "signature": "c2ln"},
            {"type": "redacted_thinking", "data": "cmVk"},
        ),
    )


def test_stream_without_message_stop_is_no_turn() -> None:
    rendered = events(Call("alpha/lookup", '{"q":"a"}'), STREAM_REQUEST, "tk", 0)
    assert rendered[-1] == {"type": "message_stop"}
    with pytest.raises(ModelError, match="message_stop"):
        read(rendered[:-1])


@pytest.mark.parametrize("profile", PROFILES)
def test_over_cmd(profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    """The profile behind its JSON Lines adapter (`cmd:`, `--profile`): it claims the Messages wire and
    runs a tool turn against the fake `POST /v1/messages`."""
    driver = SubprocessDriver(profile)
    try:
        hello = driver.call({"op": "hello", "protocol": 1})
        assert [c for c in hello["capabilities"] if c.startswith(("openai.", "anthropic."))] == [
            "anthropic.messages"
        ]
        endpoint.script(token, [Call("alpha/lookup", '{"q":"x"}'), Text("found x")])
        config = {
            "model": {"base_url": endpoint.anthropic_base_url(token), "api_key": "sk-test", "name": "m"},
            "instruction": INSTRUCTION,
            "mcp_servers": {"alpha": {"type": "http", "url": mcp_servers.url(token, "alpha")}},
        }
        assert driver.call({"op": "build", "id": "b1", "config": config}) == {"ok": True}
        assert driver.call({"op": "run", "id": "b1", "input": "find x"}) == {
            "ok": True,
            "output": "found x",
            "stop_reason": "completed",
        }
        assert tool_calls(mcp_servers, token) == [("lookup", {"q": "x"})]
        assert [request.path for request in endpoint.requests(token)] == [f"/{token}/v1/messages"] * 2
        assert driver.call({"op": "close", "id": "b1"}) == {"ok": True}
    finally:
        assert driver.stop() == 0
