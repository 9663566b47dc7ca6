"""The model: OpenAI chat completions (or, for a profile on the `responses`
wire, the Responses API: responses.py) through the official `openai` client;
for a profile on the `anthropic` wire, the Anthropic Messages API through the
official `anthropic` client (anthropic_wire.py).

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
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

import httpx2
import openai

from . import responses
from .config import ModelConfig
from .errors import ModelError, retryable_status
from .messages import ModelReply, ToolCall
from .streaming import read_stream

if TYPE_CHECKING:
    import anthropic

RETRY_DELAYS_SECONDS = (0.05, 0.2)
"""One delay per retry: at most len(RETRY_DELAYS_SECONDS) retries after the first attempt."""
MODEL_TIMEOUT_SECONDS = 30
ModelClient: TypeAlias = "openai.AsyncOpenAI | anthropic.AsyncAnthropic"


def anthropic_wire() -> ModuleType:
    """The Messages API path, imported on that wire only: the `anthropic` client costs every other
    process about a second to import."""
    from . import anthropic_wire as wire

    return wire


def open_model_client(model: ModelConfig, wire: str = "chat") -> ModelClient:
    """A client for the configured endpoint; ModelError when it cannot be created."""
    if wire == "anthropic":
        client: anthropic.AsyncAnthropic = anthropic_wire().open_client(model, MODEL_TIMEOUT_SECONDS)
        return client
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
    model_name: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], stream: bool = False
) -> dict[str, Any]:
    """Keyword arguments of one chat.completions.create call (streamed: with a usage chunk)."""
    arguments: dict[str, Any] = {"model": model_name, "messages": messages}
    if tools:
        arguments["tools"] = tools
    if stream:
        arguments["stream"] = True
        arguments["stream_options"] = {"include_usage": True}
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


def retryable(exc: Exception) -> bool:
    """True for failures of the `openai` client worth re-sending: 5xx, 408, 409, 429, timeouts,
    dropped connections.

    A stream cut mid-body surfaces as `openai.APIConnectionError` with the current
    client; client versions at the pinned floor let the transport's own
    `httpx2.TransportError` through instead, so that is caught too.
    """
    if isinstance(exc, openai.APIStatusError):
        return retryable_status(exc.status_code)
    return isinstance(exc, openai.APIConnectionError | httpx2.TransportError)


def client_failures(wire: str) -> tuple[tuple[type[Exception], ...], Any]:
    """The wire's client failures (the exception classes a request may raise) and its `retryable`."""
    if wire == "anthropic":
        return anthropic_wire().FAILURES, anthropic_wire().retryable
    return (openai.OpenAIError, httpx2.TransportError), retryable


async def send_request(
    client: ModelClient, arguments: dict[str, Any], *, stream: bool, wire: str
) -> ModelReply:
    """One attempt on the profile's wire (its client's kind); a streamed answer is read to its end."""
    if not isinstance(client, openai.AsyncOpenAI):  # an Anthropic client (open_model_client's)
        reply: ModelReply = await anthropic_wire().request_message(client, arguments)
        return reply
    if wire == "responses":
        return await responses.request_response(client, arguments)
    completion = await client.chat.completions.create(**arguments)
    if stream:
        return await read_stream(completion)
    return parse_reply(completion)


async def request_completion(
    client: ModelClient,
    model_name: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    *,
    stream: bool = False,
    wire: str = "chat",
    state: str = "stateless",
) -> ModelReply:
    """One model turn; ModelError when it still fails after the retries.

    `stream`: ask for a streamed answer and read it to its end (`read_stream`);
    a stream that breaks off is retried like a dropped connection. `wire`
    "responses": the same request converted at the boundary
    (`responses.request_arguments`, under responses_state `state`) and sent
    with `responses.create`; `wire`
    "anthropic" (an Anthropic client): converted by `anthropic_wire.request_arguments`
    and sent with `messages.create`.
    """
    arguments = completion_arguments(model_name, messages, tools, stream)
    if wire == "responses":
        arguments = responses.request_arguments(arguments, state)
    if wire == "anthropic":
        arguments = anthropic_wire().request_arguments(arguments)
    failures, worth_retrying = client_failures(wire)
    for delay in (*RETRY_DELAYS_SECONDS, None):
        try:
            return await send_request(client, arguments, stream=stream, wire=wire)
        except failures as exc:
            if delay is None or not worth_retrying(exc):
                raise ModelError(f"model request failed: {exc}") from exc
            await asyncio.sleep(delay)
    raise AssertionError("unreachable: the last attempt returns or raises")
