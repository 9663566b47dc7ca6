"""Shared by the model endpoint's self-tests (chat JSON, chat SSE, the Responses API): the chat
tools they offer, a client of the official `openai` SDK, and a way to run its coroutines."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import openai

from toolproof.fakes import ModelEndpoint

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


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine of the async client to its end."""
    return asyncio.run(coro)


def client(model: ModelEndpoint, token: str) -> openai.AsyncOpenAI:
    """The official async client aimed at `token` on `model`, with the client's own retries off."""
    return openai.AsyncOpenAI(base_url=model.base_url(token), api_key="sk-test", max_retries=0)
