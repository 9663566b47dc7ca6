"""The reference's Responses API state and reasoning items (candidates/reference/responses.py).

The conversion rules are pure dict functions, tested on literal histories; the
end-to-end tests build the reference under each Responses profile against the
harness's fake `POST /v1/responses` (`ModelEndpoint(responses=True)`: it stores
responses as the API does, resolves `previous_response_id` and `item_reference`,
and refuses what the API refuses) and the reference's own MCP fakes, and read
the raw request bodies the fake recorded. Expected values are literal.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter
from toolproof.candidates.reference.errors import ModelError
from toolproof.candidates.reference.messages import ModelReply, ToolCall, assistant_message
from toolproof.candidates.reference.profiles import declared_options, get_profile
from toolproof.candidates.reference.responses import (
    last_response_at,
    parse_response,
    read_events,
    reasoning_model,
    request_arguments,
)
from toolproof.candidates.reference.runtime import Runtime

from toolproof.fakes import Call, Forgotten, HttpError, ModelEndpoint, Reasoned, Text, ToolCalls
from toolproof.fakes.model_server import Scripted
from toolproof.fakes.responses import reasoned_events, reasoned_response

from .conftest import SubprocessDriver
from .fakes import McpServers

INSTRUCTION = "You are a test agent."
REASONING = {
    "id": "rs_1",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "Look it up."}],
    "encrypted_content": "gAAAAB-opaque",
}
CALL = {"id": "call_a", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"a"}'}}
HISTORY: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "find a"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [CALL],
        "response_id": "resp_1",
        "response_item_ids": ["rs_1", "fc_a"],
        "reasoning_items": [REASONING],
    },
    {"role": "tool", "tool_call_id": "call_a", "content": "alpha:a"},
    {
        "role": "assistant",
        "content": "Found.",
        "response_id": "resp_2",
        "response_item_ids": ["msg_2"],
        "reasoning_items": [],
    },
    {"role": "user", "content": "thanks"},
]
SYSTEM_ITEM = {"type": "message", "role": "system", "content": "Be brief."}
USER_ITEM = {"type": "message", "role": "user", "content": "find a"}
CALL_ITEM = {"type": "function_call", "call_id": "call_a", "name": "lookup", "arguments": '{"q":"a"}'}
OUTPUT_ITEM = {"type": "function_call_output", "call_id": "call_a", "output": "alpha:a"}
FOUND_ITEM = {"type": "message", "role": "assistant", "content": "Found."}
THANKS_ITEM = {"type": "message", "role": "user", "content": "thanks"}


def chat(model: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": model, "messages": messages}


# -- the request, per responses_state ------------------------------------------------


def test_stateless_other_model_sends_neither_store_nor_include() -> None:
    """Not the reasoning model: the request is today's (its reasoning items were never kept)."""
    history = [
        {**message, "reasoning_items": []} if "reasoning_items" in message else message for message in HISTORY
    ]
    assert request_arguments(chat("gpt-test", history)) == {
        "model": "gpt-test",
        "input": [SYSTEM_ITEM, USER_ITEM, CALL_ITEM, OUTPUT_ITEM, FOUND_ITEM, THANKS_ITEM],
    }


def test_stateless_reasoning_model_replays_reasoning_before_its_call() -> None:
    assert request_arguments(chat("o4-mini", HISTORY), "stateless") == {
        "model": "o4-mini",
        "input": [SYSTEM_ITEM, USER_ITEM, REASONING, CALL_ITEM, OUTPUT_ITEM, FOUND_ITEM, THANKS_ITEM],
        "store": False,
        "include": ["reasoning.encrypted_content"],
    }


def test_chained_first_request_names_no_response() -> None:
    assert request_arguments(chat("o4-mini", HISTORY[:2]), "previous_response_id") == {
        "model": "o4-mini",
        "input": [SYSTEM_ITEM, USER_ITEM],
        "store": True,
    }


def test_chained_request_names_the_last_response_and_sends_what_follows() -> None:
    assert request_arguments(chat("o4-mini", HISTORY[:4]), "previous_response_id") == {
        "model": "o4-mini",
        "input": [OUTPUT_ITEM],
        "store": True,
        "previous_response_id": "resp_1",
    }
    assert request_arguments(chat("m", HISTORY), "previous_response_id") == {
        "model": "m",
        "input": [THANKS_ITEM],
        "store": True,
        "previous_response_id": "resp_2",
    }


def test_last_response_at() -> None:
    assert last_response_at(HISTORY[:2]) is None
    assert last_response_at(HISTORY[:4]) == 2
    assert last_response_at(HISTORY) == 4


def test_references_name_every_output_item_of_earlier_responses() -> None:
    assert request_arguments({**chat("o4-mini", HISTORY), "tools": [], "stream": True}, "item_reference") == {
        "model": "o4-mini",
        "input": [
            SYSTEM_ITEM,
            USER_ITEM,
            {"type": "item_reference", "id": "rs_1"},
            {"type": "item_reference", "id": "fc_a"},
            OUTPUT_ITEM,
            {"type": "item_reference", "id": "msg_2"},
            THANKS_ITEM,
        ],
        "tools": [],
        "stream": True,
        "store": True,
    }


def test_reasoning_model_is_the_declared_name() -> None:
    assert reasoning_model("o4-mini") is True
    assert reasoning_model("o4-mini-high") is False


# -- the reply and the history ------------------------------------------------------

REQUEST: dict[str, Any] = {"model": "o4-mini", "input": [], "include": ["reasoning.encrypted_content"]}
REASONED = Reasoned(Call("alpha/lookup", '{"q":"a"}'), summary=("Look it up.",))
FAKE_REASONING = {
    "id": "rs_tk_0",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "Look it up."}],
    "encrypted_content": "gAAAABtp-tk-0-reasoning-state-opaque",
}
"""The reasoning item the fake answers REASONED with (request 0 of token tk), whole."""
REASONED_REPLY = ModelReply(
    content=None,
    tool_calls=(ToolCall(id="call_tk_0_0", name="alpha__lookup", arguments='{"q":"a"}'),),
    reasoning=(FAKE_REASONING,),
    response_id="resp_tk_0",
    item_ids=("rs_tk_0", "fc_tk_0_0"),
)
TOOLS_REQUEST: dict[str, Any] = {
    **REQUEST,
    "tools": [{"type": "function", "name": "alpha__lookup", "description": "[tp:alpha/lookup]"}],
}


def test_response_keeps_reasoning_items_as_sent_for_a_reasoning_model() -> None:
    answer = Response.model_validate(reasoned_response(REASONED, TOOLS_REQUEST, "tk", 0))
    assert parse_response(answer, reasoning=True) == REASONED_REPLY
    assert parse_response(answer) == ModelReply(
        content=None,
        tool_calls=REASONED_REPLY.tool_calls,
        response_id="resp_tk_0",
        item_ids=("rs_tk_0", "fc_tk_0_0"),
    )


def test_response_without_include_keeps_no_encrypted_key() -> None:
    unasked = {**TOOLS_REQUEST, "include": []}
    answer = Response.model_validate(reasoned_response(REASONED, unasked, "tk", 0))
    assert parse_response(answer, reasoning=True).reasoning == (
        {"id": "rs_tk_0", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Look it up."}]},
    )


def test_stream_keeps_the_done_reasoning_item_never_the_added_one() -> None:
    parsed = [
        TypeAdapter(ResponseStreamEvent).validate_python(e)
        for e in reasoned_events(REASONED, TOOLS_REQUEST, "tk", 0)
    ]

    async def events() -> AsyncIterator[Any]:
        for event in parsed:
            yield event

    assert asyncio.run(read_events(events(), reasoning=True)) == REASONED_REPLY


def test_assistant_message_keeps_the_response_state() -> None:
    assert assistant_message(REASONED_REPLY).message == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_tk_0_0",
                "type": "function",
                "function": {"name": "alpha__lookup", "arguments": '{"q":"a"}'},
            }
        ],
        "response_id": "resp_tk_0",
        "response_item_ids": ["rs_tk_0", "fc_tk_0_0"],
        "reasoning_items": [FAKE_REASONING],
    }
    # A reply of another wire keeps none of it: no chat request carries the keys.
    assert assistant_message(ModelReply(content="hi")).message == {"role": "assistant", "content": "hi"}


@pytest.mark.parametrize(
    ("profile", "state", "replay"),
    [
        ("reference-responses", "stateless", "encrypted"),
        ("reference-responses-stream", "stateless", "encrypted"),
        ("reference-responses-chained", "previous_response_id", "by_id"),
        ("reference-responses-chained-stream", "previous_response_id", "by_id"),
        ("reference-responses-refs", "item_reference", "by_id"),
    ],
)
def test_declared_state(profile: str, state: str, replay: str) -> None:
    options = declared_options(get_profile(profile))
    assert {
        key: options[key] for key in options if key.startswith(("responses_", "reasoning_", "items_"))
    } == {
        "responses_state": state,
        "reasoning_replay": replay,
        "reasoning_model_name": "o4-mini",
        "items_from_done_events": "yes",
    }
    assert options["model_stream"] == ("always" if profile.endswith("-stream") else "never")


def test_other_wires_declare_no_responses_state() -> None:
    for profile in ("reference", "reference-anthropic"):
        assert [
            key
            for key in declared_options(get_profile(profile))
            if key.startswith(("responses_", "reasoning_"))
        ] == []


# -- end to end, against the fake endpoint -------------------------------------------------

CHAINED = ["reference-responses-chained", "reference-responses-chained-stream"]
STATELESS = ["reference-responses", "reference-responses-stream"]


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(responses=True) as model:
        yield model


def config(endpoint: ModelEndpoint, servers: McpServers, token: str, model: str) -> dict[str, Any]:
    return {
        "model": {"base_url": endpoint.base_url(token), "api_key": "sk-test", "name": model},
        "instruction": INSTRUCTION,
        "mcp_servers": {"alpha": {"type": "http", "url": servers.url(token, "alpha")}},
    }


def run(
    profile: str,
    endpoint: ModelEndpoint,
    servers: McpServers,
    token: str,
    script: list[Scripted],
    *inputs: str,
    model: str = "test-model",
) -> list[str | ModelError]:
    """Script the model, build the reference under `profile`, run each input on the one build; the
    outputs (a failed run: its ModelError)."""
    endpoint.script(token, script)

    async def go() -> list[str | ModelError]:
        agent = await Runtime(profile).build(config(endpoint, servers, token, model))
        outputs: list[str | ModelError] = []
        for text in inputs:
            try:
                outputs.append((await agent.run(text)).output)
            except ModelError as exc:
                outputs.append(exc)
        await agent.close()
        return outputs

    return asyncio.run(go())


def bodies(endpoint: ModelEndpoint, token: str) -> list[Any]:
    """The raw JSON bodies of every model request of `token`, in order."""
    return [request.json for request in endpoint.requests(token)]


def without_tools(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key != "tools"}


def message(role: str, content: str) -> dict[str, Any]:
    return {"type": "message", "role": role, "content": content}


def call_item(token: str, arguments: str = '{"q":"a"}') -> dict[str, Any]:
    """The echo of the fake's first call of its answer 0 (paired by call_id, no item id)."""
    return {"type": "function_call", "call_id": f"call_{token}_0_0", "name": "lookup", "arguments": arguments}


def output_item(token: str, index: int, text: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": f"call_{token}_{index}_0", "output": text}


def stream_key(profile: str) -> dict[str, Any]:
    return {"stream": True} if profile.endswith("-stream") else {}


@pytest.mark.parametrize("profile", CHAINED)
def test_chained_tool_turn_and_next_run(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    script: list[Scripted] = [Call("alpha/lookup", '{"q":"a"}'), Text("done"), Text("again")]
    assert run(profile, endpoint, mcp_servers, token, script, "find", "more") == ["done", "again"]
    first, second, third = (without_tools(body) for body in bodies(endpoint, token))
    assert first == {
        "model": "test-model",
        "input": [message("system", INSTRUCTION), message("user", "find")],
        **stream_key(profile),
        "store": True,
    }
    assert second == {
        "model": "test-model",
        "input": [output_item(token, 0, "alpha:a")],
        **stream_key(profile),
        "store": True,
        "previous_response_id": f"resp_{token}_0",
    }
    assert third == {
        "model": "test-model",
        "input": [message("user", "more")],
        **stream_key(profile),
        "store": True,
        "previous_response_id": f"resp_{token}_1",
    }
    assert [request.status for request in endpoint.requests(token)] == [200, 200, 200]


def test_chain_of_a_failed_run_is_dropped_with_its_history(
    endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """A run that fails after a response of its own leaves the chain where the last good run ended."""
    refused = HttpError(400, {"error": {"message": "no", "type": "invalid_request_error"}})
    script: list[Scripted] = [Text("one"), Call("alpha/lookup", '{"q":"a"}'), refused, Text("three")]
    outputs = run("reference-responses-chained", endpoint, mcp_servers, token, script, "1", "2", "3")
    assert outputs[0] == "one" and isinstance(outputs[1], ModelError) and outputs[2] == "three"
    assert [(body.get("previous_response_id"), body["input"]) for body in bodies(endpoint, token)] == [
        (None, [message("system", INSTRUCTION), message("user", "1")]),
        (f"resp_{token}_0", [message("user", "2")]),
        (f"resp_{token}_1", [output_item(token, 1, "alpha:a")]),
        (f"resp_{token}_0", [message("user", "3")]),
    ]


def test_refused_chain_is_a_model_error(endpoint: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    """The stored response is gone (it expired): the API's refusal ends the run model_error, once
    (a 4xx is never retried)."""
    script: list[Scripted] = [Call("alpha/lookup", '{"q":"a"}'), Forgotten(Text("never"))]
    (outcome,) = run("reference-responses-chained", endpoint, mcp_servers, token, script, "find")
    assert isinstance(outcome, ModelError)
    assert outcome.kind == "model_error"
    assert f"Previous response with id 'resp_{token}_0' not found." in outcome.message
    assert len(endpoint.requests(token)) == 2


def test_references_tool_turn_and_next_run(
    endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    calls = ToolCalls((Call("alpha/lookup", '{"q":"a"}'),), text="On it.")
    script: list[Scripted] = [calls, Text("done"), Text("again")]
    assert run("reference-responses-refs", endpoint, mcp_servers, token, script, "find", "more") == [
        "done",
        "again",
    ]
    start = [message("system", INSTRUCTION), message("user", "find")]
    turn = [
        {"type": "item_reference", "id": f"msg_{token}_0"},
        {"type": "item_reference", "id": f"fc_{token}_0_0"},
        output_item(token, 0, "alpha:a"),
    ]
    assert [without_tools(body) for body in bodies(endpoint, token)] == [
        {"model": "test-model", "input": start, "store": True},
        {"model": "test-model", "input": [*start, *turn], "store": True},
        {
            "model": "test-model",
            "input": [
                *start,
                *turn,
                {"type": "item_reference", "id": f"msg_{token}_1"},
                message("user", "more"),
            ],
            "store": True,
        },
    ]
    assert [request.status for request in endpoint.requests(token)] == [200, 200, 200]


def reasoning_sent(token: str) -> dict[str, Any]:
    """The fake's reasoning item answering request 0 of `token` under `include`, whole."""
    return {
        "id": f"rs_{token}_0",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Look it up."}],
        "encrypted_content": f"gAAAABtp-{token}-0-reasoning-state-opaque",
    }


@pytest.mark.parametrize("profile", STATELESS)
def test_stateless_reasoning_replayed_before_its_call(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    script: list[Scripted] = [REASONED, Text("done")]
    assert run(profile, endpoint, mcp_servers, token, script, "find", model="o4-mini") == ["done"]
    first, second = (without_tools(body) for body in bodies(endpoint, token))
    start = [message("system", INSTRUCTION), message("user", "find")]
    stored = {**stream_key(profile), "store": False, "include": ["reasoning.encrypted_content"]}
    assert first == {"model": "o4-mini", "input": start, **stored}
    assert second == {
        "model": "o4-mini",
        "input": [*start, reasoning_sent(token), call_item(token), output_item(token, 0, "alpha:a")],
        **stored,
    }


@pytest.mark.parametrize("profile", STATELESS)
def test_other_model_ignores_reasoning(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """Not the reasoning model: the requests are what they always were, reasoning item dropped."""
    assert run(profile, endpoint, mcp_servers, token, [REASONED, Text("done")], "find") == ["done"]
    start = [message("system", INSTRUCTION), message("user", "find")]
    assert [without_tools(body) for body in bodies(endpoint, token)] == [
        {"model": "test-model", "input": start, **stream_key(profile)},
        {
            "model": "test-model",
            "input": [*start, call_item(token), output_item(token, 0, "alpha:a")],
            **stream_key(profile),
        },
    ]


@pytest.mark.parametrize("profile", [*CHAINED, "reference-responses-refs"])
def test_stored_reasoning_stays_by_id(
    profile: str, endpoint: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    """A stored state asks no include and never resends the reasoning item whole: the chain holds
    it, or an item_reference names it, right before its call (the fake resolves it there)."""
    assert run(profile, endpoint, mcp_servers, token, [REASONED, Text("done")], "find", model="o4-mini") == [
        "done"
    ]
    second = endpoint.requests(token)[1]
    assert second.status == 200
    if profile == "reference-responses-refs":
        expected_input = [
            message("system", INSTRUCTION),
            message("user", "find"),
            {"type": "item_reference", "id": f"rs_{token}_0"},
            {"type": "item_reference", "id": f"fc_{token}_0_0"},
            output_item(token, 0, "alpha:a"),
        ]
    else:
        expected_input = [output_item(token, 0, "alpha:a")]
    assert without_tools(second.json) == {
        "model": "o4-mini",
        "input": expected_input,
        **stream_key(profile),
        "store": True,
        **({} if profile == "reference-responses-refs" else {"previous_response_id": f"resp_{token}_0"}),
    }
    resolved = second.resolved or []
    assert [item.get("type") for item in resolved] == [
        "message",
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
    ]
    assert "encrypted_content" not in resolved[2]


def test_chained_over_cmd(endpoint: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    """The chained profile behind its JSON Lines adapter (`cmd:`, `--profile`)."""
    driver = SubprocessDriver("reference-responses-chained")
    try:
        hello = driver.call({"op": "hello", "protocol": 1})
        assert [c for c in hello["capabilities"] if c.startswith(("openai.", "anthropic."))] == [
            "openai.responses"
        ]
        assert hello["options"]["responses_state"] == "previous_response_id"
        endpoint.script(token, [Call("alpha/lookup", '{"q":"x"}'), Text("found x")])
        built = driver.call({"op": "build", "id": "b1", "config": config(endpoint, mcp_servers, token, "m")})
        assert built == {"ok": True}
        assert driver.call({"op": "run", "id": "b1", "input": "find x"}) == {
            "ok": True,
            "output": "found x",
            "stop_reason": "completed",
        }
        second = endpoint.requests(token)[1].json
        assert (second["previous_response_id"], second["input"]) == (
            f"resp_{token}_0",
            [output_item(token, 0, "alpha:x")],
        )
        assert driver.call({"op": "close", "id": "b1"}) == {"ok": True}
    finally:
        assert driver.stop() == 0
