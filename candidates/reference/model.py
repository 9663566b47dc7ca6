"""The model: OpenAI chat completions through the official `openai` client.

Credentials and URL come from CONFIG only (never from environment variables
the runtime reads itself). `tools` is sent only when non-empty: OpenAI
rejects `tools: []`.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from .config import ModelConfig
from .errors import ModelError
from .messages import ModelReply, ToolCall

MODEL_MAX_RETRIES = 2
MODEL_TIMEOUT_SECONDS = 30


def open_model_client(model: ModelConfig) -> openai.AsyncOpenAI:
    """A client for the configured endpoint; ModelError when it cannot be created."""
    try:
        return openai.AsyncOpenAI(
            base_url=model.base_url,
            api_key=model.api_key,
            max_retries=MODEL_MAX_RETRIES,
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


async def request_completion(
    client: openai.AsyncOpenAI,
    model_name: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
) -> ModelReply:
    """One model request; ModelError when it fails after the client's retries."""
    try:
        completion = await client.chat.completions.create(**completion_arguments(model_name, messages, tools))
    except openai.OpenAIError as exc:
        raise ModelError(f"model request failed: {exc}") from exc
    return parse_reply(completion)
