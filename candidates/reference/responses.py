"""The model on the OpenAI Responses API wire (`responses.create`).

The runtime's history stays chat-shaped; only the model boundary converts.
A request is the chat request it stands for, converted (`request_arguments`):
every message becomes one input item or more, in order. How the conversation
is carried is the profile's `responses_state` (`STATES`): stateless resends the
whole input every time (no `previous_response_id`; `store` is not sent but for
a reasoning model, below: the run never reads anything back from the server);
previous_response_id names the last response and sends only what came after
it; item_reference resends the whole conversation, each earlier response's
items named by id. The chain is
read off the history itself (each assistant message keeps the id of the
response that made it and of its items), so a failed run, whose history is
dropped, drops its part of the chain with it. The answer becomes the
chat-shaped ModelReply the tool loop reads.

Under the declared reasoning model (`REASONING_MODEL`) a response's reasoning
items are kept with the turn; stateless, nothing is stored (`store: false`) and
each is asked whole (`include` its encrypted content) and replayed unchanged
before the turn's calls; a stored state leaves them with the server.

Each rule below is one function, after a bug real runtimes shipped: a result
pairs with its call by `call_id`, never by the `fc_` item id, and a replayed
call carries no item id; a `failed` or `incomplete` response (or stream) is a model
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
from .messages import ITEM_IDS_KEY, REASONING_KEY, RESPONSE_ID_KEY, ModelReply, ToolCall
from .profiles import REASONING_MODEL

FAILED_STREAM_EVENTS = frozenset({"error", "response.failed", "response.incomplete"})
ENCRYPTED_REASONING = "reasoning.encrypted_content"
"""The `include` value that asks a response for its reasoning items' encrypted content."""


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

    An assistant message is its reasoning items as received (kept for a
    reasoning model only: `reasoning_model`), so each stands before the call it
    preceded, then its text (when not None) then one `function_call` per tool
    call; a tool message is a `function_call_output` whose `output` is the
    message's content (its string, or its output parts).
    """
    role = message["role"]
    if role == "tool":
        return [
            {"type": "function_call_output", "call_id": message["tool_call_id"], "output": message["content"]}
        ]
    items: list[dict[str, Any]] = list(message.get(REASONING_KEY, ()))
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


def reasoning_model(model_name: str) -> bool:
    """Whether the reference treats `model_name` as a reasoning model (`reasoning_model_name`)."""
    return model_name == REASONING_MODEL


def stateless_arguments(chat: dict[str, Any]) -> dict[str, Any]:
    """Stateless: the whole conversation is the input already. For a reasoning model nothing is
    stored (`store: false`), so each reasoning item is asked whole (`include` its encrypted
    content) to be replayed unchanged; otherwise nothing is added."""
    if not reasoning_model(chat["model"]):
        return {}
    return {"store": False, "include": [ENCRYPTED_REASONING]}


def last_response_at(messages: list[dict[str, Any]]) -> int | None:
    """The position of the last message a response made (None before the first response)."""
    made = [i for i, message in enumerate(messages) if RESPONSE_ID_KEY in message]
    return made[-1] if made else None


def chained_arguments(chat: dict[str, Any]) -> dict[str, Any]:
    """previous_response_id: stored; after the first response of the conversation, the last one
    is named and the input is only what came after it (its tool results, a later run's user
    message): the chain holds the rest. The first request names none (never null)."""
    messages = chat["messages"]
    last = last_response_at(messages)
    if last is None:
        return {"store": True}
    return {
        "store": True,
        "previous_response_id": messages[last][RESPONSE_ID_KEY],
        "input": input_items(messages[last + 1 :]),
    }


def item_references(item_ids: list[str]) -> list[dict[str, Any]]:
    """Stored output items named by id, in order."""
    return [{"type": "item_reference", "id": item_id} for item_id in item_ids]


def referenced_items_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A message a response made as that response's output items by reference (reasoning, message
    and function_call items alike); any other message as its items (`input_items_of`)."""
    if ITEM_IDS_KEY in message:
        return item_references(message[ITEM_IDS_KEY])
    return input_items_of(message)


def referenced_arguments(chat: dict[str, Any]) -> dict[str, Any]:
    """item_reference: stored; the whole conversation, each earlier response's items by reference."""
    items = [item for message in chat["messages"] for item in referenced_items_of(message)]
    return {"store": True, "input": items}


STATES = {
    "stateless": stateless_arguments,
    "previous_response_id": chained_arguments,
    "item_reference": referenced_arguments,
}
"""What each `responses_state` adds to (or replaces in) the stateless request."""


def request_arguments(chat: dict[str, Any], state: str = "stateless") -> dict[str, Any]:
    """The `responses.create` keyword arguments standing for `chat.completions.create` ones.

    `tools` and `stream` are sent exactly when the chat request has them (so,
    as there, no `tool_choice` or `parallel_tool_calls`); `stream_options` has
    no counterpart (usage comes with `response.completed`). `state` (the
    profile's `responses_state`) then says what is stored and sent (`STATES`).
    """
    arguments: dict[str, Any] = {"model": chat["model"], "input": input_items(chat["messages"])}
    if "tools" in chat:
        arguments["tools"] = [function_tool(tool) for tool in chat["tools"]]
    if "stream" in chat:
        arguments["stream"] = chat["stream"]
    arguments.update(STATES[state](chat))
    return arguments


def message_text(item: Any) -> list[str]:
    """The `output_text` parts of a `message` item (refusals and other parts are not text)."""
    return [part.text for part in item.content or () if getattr(part, "type", None) == "output_text"]


def item_ids(items: list[Any]) -> tuple[str, ...]:
    """The ids of the output items, in order (an item without one cannot be referenced)."""
    ids = [getattr(item, "id", None) for item in items]
    return tuple(item_id for item_id in ids if isinstance(item_id, str))


def reply_from_items(items: list[Any], response_id: str | None = None, reasoning: bool = False) -> ModelReply:
    """The reply `output` items make: message text joined, each `function_call` a call keyed by `call_id`.

    Content is None when no output_text part came; other item types carry
    neither. With `reasoning` (a reasoning model) each `reasoning` item is kept
    exactly as the server sent it (only the keys it sent); the reply also keeps
    the response's id and its items' ids.
    """
    from .model import raw_arguments  # here, not at the top: model.py imports this module

    texts: list[str] = []
    calls: list[ToolCall] = []
    kept: list[dict[str, Any]] = []
    try:
        for item in items:
            kind = getattr(item, "type", None)
            if kind == "message":
                texts.extend(message_text(item))
            elif kind == "function_call":
                calls.append(
                    ToolCall(id=item.call_id, name=item.name, arguments=raw_arguments(item.arguments))
                )
            elif kind == "reasoning" and reasoning:
                kept.append(item.to_dict(mode="json"))
    except (AttributeError, TypeError) as exc:
        raise ModelError(f"malformed model response: {exc}") from exc
    return ModelReply(
        content="".join(texts) if texts else None,
        tool_calls=tuple(calls),
        reasoning=tuple(kept),
        response_id=response_id,
        item_ids=item_ids(items),
    )


def check_completed(response: Any) -> None:
    """ModelError unless the response's `status` is `completed` (`failed`, `incomplete`: not a turn)."""
    status = getattr(response, "status", None)
    if status != "completed":
        why = getattr(response, "error", None) or getattr(response, "incomplete_details", None)
        raise ModelError(f"model response {status}: {why}")


def parse_response(response: Any, reasoning: bool = False) -> ModelReply:
    """A non-streamed `response` as a ModelReply (its reasoning items kept with `reasoning`);
    ModelError when it did not complete."""
    check_completed(response)
    return reply_from_items(list(response.output or ()), response.id, reasoning)


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


async def read_events(events: AsyncIterable[Any], reasoning: bool = False) -> ModelReply:
    """Read every event of a streamed response, then the reply it made (its id: the completed
    response's; its reasoning items kept with `reasoning`)."""
    stream = StreamedResponse()
    async for event in events:
        add_event(stream, event)
    items = finished_items(stream)
    return reply_from_items(items, getattr(stream.completed, "id", None), reasoning)


async def request_response(client: openai.AsyncOpenAI, arguments: dict[str, Any]) -> ModelReply:
    """One `responses.create` call (streamed when `arguments` say so) as a ModelReply; a reasoning
    model's reasoning items are kept."""
    reasoning = reasoning_model(arguments["model"])
    answer = await client.responses.create(**arguments)
    if arguments.get("stream"):
        return await read_events(answer, reasoning)
    return parse_response(answer, reasoning)
