"""Shared by the model endpoint's self-tests (chat JSON, chat SSE, the Responses API): the tools
they offer (chat and flat), a client of the official `openai` SDK, and a way to run its coroutines."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import openai

from toolproof.fakes import Call, ModelEndpoint, ToolCalls

T = TypeVar("T")

CHAT_TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "alpha__lookup",
            "description": "Look something up. [tp:alpha/lookup]",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
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
]
"""Two chat-completions tools carrying the markers the scripts use (alpha/lookup, alpha/output_send__qq)."""
RESPONSES_TOOLS: list[Any] = [
    {
        "type": "function",
        "name": "alpha__lookup",
        "description": "Look something up. [tp:alpha/lookup]",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        "strict": False,
    },
    {
        "type": "function",
        "name": "alpha__output_send__qq",
        "description": "Send. [tp:alpha/output_send__qq]",
        "parameters": {"type": "object", "properties": {}},
        "strict": False,
    },
]
"""The same two tools, flat, as the Responses API offers them."""
RESPONSES_REQUEST: dict[str, Any] = {"model": "gpt-test", "input": "hi", "tools": RESPONSES_TOOLS}
"""A Responses request body offering them."""


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine of the async client to its end."""
    return asyncio.run(coro)


def client(model: ModelEndpoint, token: str) -> openai.AsyncOpenAI:
    """The official async client aimed at `token` on `model`, with the client's own retries off."""
    return openai.AsyncOpenAI(base_url=model.base_url(token), api_key="sk-test", max_retries=0)


TWO_CALLS = ToolCalls((Call("alpha/lookup", '{"q":"a"}'), Call("alpha/output_send__qq", "")), text="On it.")
"""Text beside two calls, the second without parameters (its arguments stay "")."""


def two_calls_message(token: str, i: int) -> dict[str, Any]:
    """The chat-shaped message TWO_CALLS stands for, answered to request `i` of `token`, whatever the
    wire (written out: the fake's ids are `call_<token>_<i>_<n>`)."""
    return {
        "role": "assistant",
        "content": "On it.",
        "tool_calls": [
            {
                "id": f"call_{token}_{i}_0",
                "type": "function",
                "function": {"name": "alpha__lookup", "arguments": '{"q":"a"}'},
            },
            {
                "id": f"call_{token}_{i}_1",
                "type": "function",
                "function": {"name": "alpha__output_send__qq", "arguments": ""},
            },
        ],
    }
