"""The model on the OpenAI Responses API wire (`responses.create`), stateless.

The runtime's history stays chat-shaped; only the model boundary converts.
A request is the chat request it stands for, converted (`request_arguments`):
every message becomes one input item or more, in order, and every request
resends the whole input (no `previous_response_id`; `store` is not sent, the
run never reads anything back from the server). The answer becomes the
chat-shaped ModelReply the tool loop reads.

Each rule below is one function, after a bug real runtimes shipped: a result
pairs with its call by `call_id`, never by the `fc_` item id, and item ids are
never sent back; a `failed` or `incomplete` response (or stream) is a model
error, never a completed turn; streamed arguments come from the finished item
(`response.output_item.done`), never from `response.output_item.added`, whose
arguments are still ""; a `response.completed` with an empty `output` is
answered from the items the `output_item.done` events carried; a stream that
ends before `response.completed` is incomplete.
"""

from __future__ import annotations

from collections.abc import AsyncIterable
from dataclasses import dataclass, field
from typing import Any

import openai

from .errors import ModelError
from .messages import ModelReply, ToolCall

FAILED_STREAM_EVENTS = frozenset({"error", "response.failed", "response.incomplete"})


def message_item(role: str, content: str) -> dict[str, Any]:
    """An input `message` item (system, user, or an assistant's text)."""
    return {"type": "message", "role": role, "content": content}


def function_call_item(call: dict[str, Any]) -> dict[str, Any]:
    """The echo of one chat tool call: paired by `call_id` (the chat call id); no item `id` is sent."""
    function = call["function"]
    return {
        "type": "function_call",
        "call_id": call["id"],
        "name": function["name"],
        "arguments": function["arguments"],
    }


def input_items_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The input items one chat message stands for, in order.

    An assistant message is its text (when not None) then one `function_call`
    per tool call; a tool message is a `function_call_output` whose `output` is
    the message's content (its string, or its output parts).
    """
    role = message["role"]
    if role == "tool":
        return [
            {"type": "function_call_output", "call_id": message["tool_call_id"], "output": message["content"]}
        ]
    items: list[dict[str, Any]] = []
    if message.get("content") is not None:
        items.append(message_item(role, message["content"]))
    items.extend(function_call_item(call) for call in message.get("tool_calls", ()))
    return items


def input_items(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The request's `input`: every chat message's items, in order (the whole history, every time)."""
    return [item for message in messages for item in input_items_of(message)]


def function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A chat tool (`{type, function: {name, description?, parameters}}`) as a flat function tool.

    `strict` is false: the reference sends the server's schema as it is, which
    strict mode's rules (every property required, no extra keywords) would change.
    """
    flat = {"type": "function", **tool["function"]}
    flat["strict"] = False
    return flat


def request_arguments(chat: dict[str, Any]) -> dict[str, Any]:
    """The `responses.create` keyword arguments standing for `chat.completions.create` ones.

    `tools` and `stream` are sent exactly when the chat request has them (so,
    as there, no `tool_choice` or `parallel_tool_calls`); `stream_options` has
    no counterpart (usage comes with `response.completed`).
    """
    arguments: dict[str, Any] = {"model": chat["model"], "input": input_items(chat["messages"])}
    if "tools" in chat:
        arguments["tools"] = [function_tool(tool) for tool in chat["tools"]]
    if "stream" in chat:
        arguments["stream"] = chat["stream"]
    return arguments


def message_text(item: Any) -> list[str]:
    """The `output_text` parts of a `message` item (refusals and other parts are not text)."""
    return [part.text for part in item.content or () if getattr(part, "type", None) == "output_text"]


def reply_from_items(items: list[Any]) -> ModelReply:
    """The reply `output` items make: message text joined, each `function_call` a call keyed by `call_id`.

    Content is None when no output_text part came; other item types (reasoning, ...) carry neither.
    """
    from .model import raw_arguments  # here, not at the top: model.py imports this module

    texts: list[str] = []
    calls: list[ToolCall] = []
    try:
        for item in items:
            kind = getattr(item, "type", None)
            if kind == "message":
                texts.extend(message_text(item))
            elif kind == "function_call":
                calls.append(
                    ToolCall(id=item.call_id, name=item.name, arguments=raw_arguments(item.arguments))
                )
    except (AttributeError, TypeError) as exc:
        raise ModelError(f"malformed model response: {exc}") from exc
    return ModelReply(content="".join(texts) if texts else None, tool_calls=tuple(calls))


def check_completed(response: Any) -> None:
    """ModelError unless the response's `status` is `completed` (`failed`, `incomplete`: not a turn)."""
    status = getattr(response, "status", None)
    if status != "completed":
        why = getattr(response, "error", None) or getattr(response, "incomplete_details", None)
        raise ModelError(f"model response {status}: {why}")


def parse_response(response: Any) -> ModelReply:
    """A non-streamed `response` as a ModelReply; ModelError when it did not complete."""
    check_completed(response)
    return reply_from_items(list(response.output or ()))


@dataclass
class StreamedResponse:
    """What the events read so far say: finished items by `output_index`, the completed response."""

    done: dict[int, Any] = field(default_factory=dict)
    completed: Any | None = None


def stream_failure(event: Any) -> str:
    """What an `error`, `response.failed` or `response.incomplete` event says went wrong."""
    response = getattr(event, "response", None)
    if response is None:
        return f"{getattr(event, 'code', None)}: {getattr(event, 'message', None)}"
    return str(getattr(response, "error", None) or getattr(response, "incomplete_details", None))


def add_event(stream: StreamedResponse, event: Any) -> None:
    """Fold one stream event into `stream`; ModelError for a failure event.

    Items are taken only when finished (`response.output_item.done`).
    """
    kind = getattr(event, "type", None)
    if kind in FAILED_STREAM_EVENTS:
        raise ModelError(f"model stream {kind}: {stream_failure(event)}")
    if kind == "response.output_item.done":
        stream.done[event.output_index] = event.item
    elif kind == "response.completed":
        stream.completed = event.response


def finished_items(stream: StreamedResponse) -> list[Any]:
    """The turn's items: `response.completed`'s output, else those of the `output_item.done` events.

    ModelError when the stream ended before `response.completed`.
    """
    if stream.completed is None:
        raise ModelError("model stream ended before response.completed: the reply is incomplete")
    output = list(stream.completed.output or ())
    return output if output else [item for _, item in sorted(stream.done.items())]


async def read_events(events: AsyncIterable[Any]) -> ModelReply:
    """Read every event of a streamed response, then the reply it made."""
    stream = StreamedResponse()
    async for event in events:
        add_event(stream, event)
    return reply_from_items(finished_items(stream))


async def request_response(client: openai.AsyncOpenAI, arguments: dict[str, Any]) -> ModelReply:
    """One `responses.create` call (streamed when `arguments` say so) as a ModelReply."""
    answer = await client.responses.create(**arguments)
    if arguments.get("stream"):
        return await read_events(answer)
    return parse_response(answer)
