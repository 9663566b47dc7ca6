"""Chat-completions messages and the runtime's own history entries.

A history entry carries a `synthetic` marker: the continuation message is
recognised by that marker, never by its text, so a real user message with
the same words is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """One function call of a model reply; `arguments` is the raw string sent."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ModelReply:
    """A model reply: its text (None when absent) and its tool calls."""

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    thinking: tuple[dict[str, Any], ...] = ()
    """The turn's `thinking` / `redacted_thinking` blocks as received (Anthropic wire only), in order."""
    reasoning: tuple[dict[str, Any], ...] = ()
    """The turn's `reasoning` items as received (Responses wire, a reasoning model only), in order."""
    response_id: str | None = None
    """The id of the response that made the turn (Responses wire only)."""
    item_ids: tuple[str, ...] = ()
    """The ids of that response's output items, in order (Responses wire only)."""


@dataclass
class HistoryEntry:
    """One message of the conversation, with the runtime's marker."""

    message: dict[str, Any]
    synthetic: bool = False

    @property
    def role(self) -> str:
        """The message's role."""
        return str(self.message["role"])


def system_message(instruction: str) -> HistoryEntry:
    """The first message of every conversation."""
    return HistoryEntry({"role": "system", "content": instruction})


def user_message(text: str) -> HistoryEntry:
    """A real user message (the run's input)."""
    return HistoryEntry({"role": "user", "content": text})


def synthetic_user_message(text: str) -> HistoryEntry:
    """A user message the runtime inserted itself (marked, so it can be removed)."""
    return HistoryEntry({"role": "user", "content": text}, synthetic=True)


def tool_call_message(call: ToolCall) -> dict[str, Any]:
    """The echo of one tool call; arguments exactly as the model sent them."""
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


THINKING_KEY = "thinking_blocks"
"""Where an assistant message keeps its turn's thinking blocks for the Anthropic wire to replay.

Only a reply on that wire has any, so no chat or Responses request carries the key."""


REASONING_KEY = "reasoning_items"
"""Where an assistant message keeps its turn's reasoning items for the Responses wire to replay
(stateless: sent back unchanged before the turn's other items)."""
RESPONSE_ID_KEY = "response_id"
"""Where an assistant message keeps the id of the response that made it (the Responses wire's chain)."""
ITEM_IDS_KEY = "response_item_ids"
"""Where an assistant message keeps the ids of that response's output items (its `item_reference`s)."""


def assistant_message(reply: ModelReply) -> HistoryEntry:
    """The echo of a model reply, with its thinking blocks (`THINKING_KEY`) when it had any, and
    what the Responses wire keeps of the response that made it (`response_state`).

    Only replies on those wires carry any, so no chat request holds the extra keys."""
    entry = chat_assistant_message(reply)
    if reply.thinking:
        entry.message[THINKING_KEY] = list(reply.thinking)
    entry.message.update(response_state(reply))
    return entry


def response_state(reply: ModelReply) -> dict[str, Any]:
    """What an assistant message keeps of the Responses API response that made it: its id, its
    output items' ids and its reasoning items ({} for a reply of another wire)."""
    if reply.response_id is None:
        return {}
    return {
        RESPONSE_ID_KEY: reply.response_id,
        ITEM_IDS_KEY: list(reply.item_ids),
        REASONING_KEY: list(reply.reasoning),
    }


def chat_assistant_message(reply: ModelReply) -> HistoryEntry:
    """The chat echo of a model reply; text sent alongside tool calls is kept."""
    if not reply.tool_calls:
        # A final reply without text is echoed as "": OpenAI rejects an
        # assistant message with neither content nor tool_calls.
        return HistoryEntry({"role": "assistant", "content": reply.content or ""})
    return HistoryEntry(
        {
            "role": "assistant",
            "content": reply.content or None,
            "tool_calls": [tool_call_message(call) for call in reply.tool_calls],
        }
    )


class ErrorText(str):
    """A tool message's text that reports a failure: an unknown tool, invalid arguments, a failed
    MCP call, an `isError` result. It is sent as the text it is; the Anthropic wire also marks
    its `tool_result` `is_error: true` (a subclass, so the chat and Responses wires, which have
    no such flag, send the very same string)."""

    __slots__ = ()


ToolContent = str | list[dict[str, Any]]
"""A tool message's content: its text, or (Responses wire, a binary block) its output parts."""


def tool_message(call_id: str, text: ToolContent) -> HistoryEntry:
    """The answer to one tool call: content always present, "" for an empty result."""
    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": text})


def request_messages(history: list[HistoryEntry]) -> list[dict[str, Any]]:
    """The `messages` array of a chat-completions request."""
    return [entry.message for entry in history]
