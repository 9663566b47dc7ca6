"""The model: OpenAI chat completions through the official `openai` client.

Credentials and URL come from CONFIG only (never from environment variables
the runtime reads itself). `tools` is sent only when non-empty: OpenAI
rejects `tools: []`.

Retries are the runtime's own (the client's are off): a 5xx, 408, 409 or
429 answer, a timeout or a connection error is retried with short delays,
re-sending the very same request. A retry is not a model turn: the tool
loop never sees it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import openai

from .config import ModelConfig
from .errors import ModelError
from .messages import ModelReply, ToolCall

RETRY_DELAYS_SECONDS = (0.05, 0.2)
"""One delay per retry: at most len(RETRY_DELAYS_SECONDS) retries after the first attempt."""
RETRYABLE_STATUS = frozenset({408, 409, 429})
MODEL_TIMEOUT_SECONDS = 30


def open_model_client(model: ModelConfig) -> openai.AsyncOpenAI:
    """A client for the configured endpoint; ModelError when it cannot be created."""
    try:
        return openai.AsyncOpenAI(
            base_url=model.base_url,
            api_key=model.api_key,
            max_retries=0,  # retried by request_completion, quickly and visibly
            timeout=MODEL_TIMEOUT_SECONDS,
        )
    except openai.OpenAIError as exc:
        raise ModelError(f"model client: {exc}") from exc


def completion_arguments(
    model_name: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> dict[str, Any]:
    """Keyword arguments of one chat.completions.create call."""
    arguments: dict[str, Any] = {"model": model_name, "messages": messages}
    if tools:
        arguments["tools"] = tools
    return arguments


def raw_arguments(value: object) -> str:
    """A call's arguments as the raw string the model sent ("" when absent).

    A non-conforming endpoint may send an object instead of a string: it is
    re-encoded as JSON so the echo and the decoder still see JSON text.
    """
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


def parse_reply(completion: Any) -> ModelReply:
    """The first choice of a completion as a ModelReply; ModelError when malformed."""
    try:
        message = completion.choices[0].message
        calls = tuple(
            ToolCall(
                id=call.id,
                name=call.function.name,
                arguments=raw_arguments(call.function.arguments),
            )
            for call in (message.tool_calls or [])
        )
        return ModelReply(content=message.content, tool_calls=calls)
    except (AttributeError, IndexError, TypeError) as exc:
        raise ModelError(f"malformed model response: {exc}") from exc


def retryable(exc: openai.OpenAIError) -> bool:
    """True for failures worth re-sending: 5xx, 408, 409, 429, timeouts, dropped connections."""
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code in RETRYABLE_STATUS
    return isinstance(exc, openai.APIConnectionError)


async def request_completion(
    client: openai.AsyncOpenAI,
    model_name: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
) -> ModelReply:
    """One model turn; ModelError when it still fails after the retries."""
    arguments = completion_arguments(model_name, messages, tools)
    for delay in (*RETRY_DELAYS_SECONDS, None):
        try:
            completion = await client.chat.completions.create(**arguments)
        except openai.OpenAIError as exc:
            if delay is None or not retryable(exc):
                raise ModelError(f"model request failed: {exc}") from exc
            await asyncio.sleep(delay)
            continue
        return parse_reply(completion)
    raise AssertionError("unreachable: the last attempt returns or raises")
