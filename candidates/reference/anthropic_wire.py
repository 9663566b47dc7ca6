"""The model on the Anthropic Messages API wire (`messages.create`), through the official client.

The runtime's history stays chat-shaped; only the model boundary converts, as
on the Responses wire. A request is the chat request it stands for, converted
(`request_arguments`): the system message becomes the top-level `system`; an
assistant message becomes `thinking` blocks (replayed as received), its text
(when not empty) and one `tool_use` per call (`input` the arguments' object);
tool messages become `tool_result` blocks, and consecutive user-role blocks
merge into one user message, so every result of one assistant turn is in the
next user message, before any text of it (a continuation). `max_tokens` is
always sent (the API requires it); the client sends `anthropic-version`.

The reference's choices on this wire, each after a bug real runtimes shipped:
no empty text block is ever sent (a textless tool-use turn echoes no text
block; an assistant turn with no block at all is not sent, consecutive user
turns being one turn to the API); an empty tool result is a `tool_result`
without `content` (the API refuses an empty `content` string, and a
`tool_result` without content is valid), but a failure's empty text is
`EMPTY_ERROR_TEXT` (the API refuses an error result without content);
a failed call (unknown tool, invalid arguments, a failed MCP call) and an
`isError` result are `is_error: true` (their text marked `ErrorText`); a
streamed call's input is its `partial_json` fragments joined, parsed once
when the message is complete, an empty buffer meaning `{}`; a stream is a
turn only when it ended with `message_stop` (an `error` event raises in the
client); a `max_tokens` stop is a model error, never a turn, so a truncated
`tool_use` never runs (as the Responses wire's `incomplete`), and so is a
`refusal` (a refused turn's `tool_use` never runs; the conversation is not
continued); `pause_turn` (server tools only) reads as any turn.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2

from .config import ModelConfig
from .errors import ModelError, retryable_status
from .messages import THINKING_KEY, ErrorText, ModelReply, ToolCall

EMPTY_ERROR_TEXT = "The tool failed without output."
"""The text of an error result whose own text is empty (the API refuses an error result without content)."""
MAX_TOKENS = 4096
"""`max_tokens` of every request (required by the API; the reply's length is the model's)."""
THINKING_BLOCKS = frozenset({"thinking", "redacted_thinking"})
FAILURES: tuple[type[Exception], ...] = (anthropic.AnthropicError, httpx2.TransportError)
"""What a request through the `anthropic` client may raise (model.request_completion catches these)."""


def retryable(exc: Exception) -> bool:
    """True for failures of the `anthropic` client worth re-sending (as model.retryable for the
    `openai` client): 5xx, 408, 409, 429, timeouts, dropped connections."""
    if isinstance(exc, anthropic.APIStatusError):
        return retryable_status(exc.status_code)
    return isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError)


def open_client(model: ModelConfig, timeout: float) -> anthropic.AsyncAnthropic:
    """An Anthropic client for the configured endpoint (its own retries off); ModelError when it
    cannot be created."""
    try:
        return anthropic.AsyncAnthropic(
            base_url=model.base_url, api_key=model.api_key, max_retries=0, timeout=timeout
        )
    except anthropic.AnthropicError as exc:
        raise ModelError(f"model client: {exc}") from exc


def tool_input(arguments: str) -> Any:
    """A call's `input` object from its arguments' JSON text ("" stands for `{}`)."""
    return json.loads(arguments) if arguments else {}


def tool_use_block(call: dict[str, Any]) -> dict[str, Any]:
    """The echo of one chat tool call as a `tool_use` block (same id, same name, the input object)."""
    function = call["function"]
    return {
        "type": "tool_use",
        "id": call["id"],
        "name": function["name"],
        "input": tool_input(function["arguments"]),
    }


def assistant_blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """An assistant message's blocks: its thinking blocks as received, its text unless empty, its calls."""
    blocks: list[dict[str, Any]] = list(message.get(THINKING_KEY, ()))
    if message.get("content"):
        blocks.append({"type": "text", "text": message["content"]})
    blocks.extend(tool_use_block(call) for call in message.get("tool_calls", ()))
    return blocks


def tool_result_block(message: dict[str, Any]) -> dict[str, Any]:
    """A tool message as a `tool_result` block: its text as `content` (no `content` when empty: the
    API refuses an empty one; a failure's empty text is EMPTY_ERROR_TEXT, as the API refuses an
    error result without content), `is_error` when it failed."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": message["tool_call_id"]}
    if message["content"]:
        block["content"] = message["content"]
    elif isinstance(message["content"], ErrorText):
        block["content"] = EMPTY_ERROR_TEXT
    if isinstance(message["content"], ErrorText):
        block["is_error"] = True
    return block


def user_blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A user or tool message as user-role blocks (a tool message: its `tool_result`)."""
    if message["role"] == "tool":
        return [tool_result_block(message)]
    return [{"type": "text", "text": message["content"]}]


def turn_content(blocks: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    """A turn's `content`: a lone text block as its string (as the chat message was), else the blocks."""
    if len(blocks) == 1 and blocks[0]["type"] == "text":
        return str(blocks[0]["text"])
    return blocks


def conversation(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The request's `messages`: the chat messages but the system one, consecutive user-role blocks merged.

    An assistant message with no block (a final reply without text) is not
    sent: an empty turn is rejected, and the turns around it are one turn then.
    """
    turns: list[tuple[str, list[dict[str, Any]]]] = []
    for message in messages:
        if message["role"] == "system":
            continue
        role = "assistant" if message["role"] == "assistant" else "user"
        blocks = assistant_blocks(message) if role == "assistant" else user_blocks(message)
        if not blocks:
            continue
        if turns and turns[-1][0] == role == "user":
            turns[-1][1].extend(blocks)
        else:
            turns.append((role, blocks))
    return [{"role": role, "content": turn_content(blocks)} for role, blocks in turns]


def system_text(messages: list[dict[str, Any]]) -> str | None:
    """The system message's text (the instruction), None when there is none."""
    for message in messages:
        if message["role"] == "system":
            return str(message["content"])
    return None


def client_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A chat tool (`{type, function: {name, description?, parameters}}`) as a client tool
    (`input_schema`)."""
    function = dict(tool["function"])
    schema = function.pop("parameters")
    return {**function, "input_schema": schema}


def request_arguments(chat: dict[str, Any]) -> dict[str, Any]:
    """The `messages.create` keyword arguments standing for `chat.completions.create` ones.

    `tools` and `stream` are sent exactly when the chat request has them;
    `stream_options` has no counterpart (usage comes with the events).
    """
    arguments: dict[str, Any] = {
        "model": chat["model"],
        "max_tokens": MAX_TOKENS,
        "messages": conversation(chat["messages"]),
    }
    system = system_text(chat["messages"])
    if system is not None:
        arguments["system"] = system
    if "tools" in chat:
        arguments["tools"] = [client_tool(tool) for tool in chat["tools"]]
    if "stream" in chat:
        arguments["stream"] = chat["stream"]
    return arguments


def thinking_block(block: dict[str, Any]) -> dict[str, Any]:
    """A thinking or redacted_thinking block exactly as the API replays it: its opaque fields unchanged."""
    if block["type"] == "thinking":
        return {"type": "thinking", "thinking": block["thinking"], "signature": block["signature"]}
    return {"type": "redacted_thinking", "data": block["data"]}


def tool_call(block: dict[str, Any]) -> ToolCall:
    """A `tool_use` block as a call; its `input` must be an object (the API's own guarantee)."""
    if not isinstance(block["input"], dict):
        raise ModelError(f"malformed model response: tool_use input is not an object: {block['input']!r}")
    return ToolCall(
        id=block["id"], name=block["name"], arguments=json.dumps(block["input"], ensure_ascii=False)
    )


def check_stop(stop_reason: str | None) -> None:
    """ModelError for a `max_tokens` stop (the reply is cut, a `tool_use` in it may be truncated) and
    for a `refusal` (the model declined: the turn is never continued, its calls never run)."""
    if stop_reason == "max_tokens":
        raise ModelError("model reply stopped at max_tokens: the reply is incomplete")
    if stop_reason == "refusal":
        raise ModelError("model refused: stop_reason refusal")


def reply_from_blocks(blocks: list[dict[str, Any]], stop_reason: str | None) -> ModelReply:
    """The reply a message's content blocks make: text joined, `tool_use` blocks as calls, thinking kept.

    Content is None when no text block came; other block types carry nothing.
    """
    check_stop(stop_reason)
    texts = [str(block["text"]) for block in blocks if block["type"] == "text"]
    try:
        calls = tuple(tool_call(block) for block in blocks if block["type"] == "tool_use")
        thinking = tuple(thinking_block(block) for block in blocks if block["type"] in THINKING_BLOCKS)
    except (KeyError, TypeError) as exc:
        raise ModelError(f"malformed model response: {exc!r}") from exc
    return ModelReply(content="".join(texts) if texts else None, tool_calls=calls, thinking=thinking)


def parse_message(message: Any) -> ModelReply:
    """A non-streamed `message` object as a ModelReply."""
    try:
        blocks = [block.model_dump() for block in message.content]
    except (AttributeError, TypeError) as exc:
        raise ModelError(f"malformed model response: {exc}") from exc
    return reply_from_blocks(blocks, message.stop_reason)


@dataclass
class StreamedMessage:
    """What the events read so far say: blocks by index, `input_json_delta` fragments, the stop."""

    blocks: dict[int, dict[str, Any]] = field(default_factory=dict)
    fragments: dict[int, list[str]] = field(default_factory=dict)
    stop_reason: str | None = None
    stopped: bool = False


def add_delta(stream: StreamedMessage, index: int, delta: Any) -> None:
    """Fold one `content_block_delta` into the block at `index` (a signature is set, never appended)."""
    block = stream.blocks[index]
    kind = delta.type
    if kind == "text_delta":
        block["text"] += delta.text
    elif kind == "input_json_delta":
        stream.fragments.setdefault(index, []).append(delta.partial_json)
    elif kind == "thinking_delta":
        block["thinking"] += delta.thinking
    elif kind == "signature_delta":
        block["signature"] = delta.signature


def add_event(stream: StreamedMessage, event: Any) -> None:
    """Fold one stream event into `stream` (`ping` and `error` never reach here: the client handles them)."""
    kind = getattr(event, "type", None)
    if kind == "content_block_start":
        stream.blocks[event.index] = event.content_block.model_dump()
    elif kind == "content_block_delta":
        add_delta(stream, event.index, event.delta)
    elif kind == "message_delta":
        stream.stop_reason = event.delta.stop_reason
    elif kind == "message_stop":
        stream.stopped = True


def streamed_input(fragments: list[str]) -> Any:
    """A streamed call's input: its fragments joined and parsed once; an empty buffer is `{}`."""
    text = "".join(fragments)
    try:
        return json.loads(text) if text else {}
    except json.JSONDecodeError as exc:
        raise ModelError(f"malformed stream: tool_use input is not JSON: {text!r}") from exc


def finished_blocks(stream: StreamedMessage) -> list[dict[str, Any]]:
    """The message's blocks in order, each call's input from its fragments; ModelError when the
    stream ended before `message_stop`."""
    if not stream.stopped:
        raise ModelError("model stream ended before message_stop: the reply is incomplete")
    for index, block in stream.blocks.items():
        if block["type"] == "tool_use":
            block["input"] = streamed_input(stream.fragments.get(index, []))
    return [block for _, block in sorted(stream.blocks.items())]


async def read_events(events: AsyncIterable[Any]) -> ModelReply:
    """Read every event of a streamed message, then the reply it made."""
    stream = StreamedMessage()
    async for event in events:
        add_event(stream, event)
    return reply_from_blocks(finished_blocks(stream), stream.stop_reason)


async def request_message(client: anthropic.AsyncAnthropic, arguments: dict[str, Any]) -> ModelReply:
    """One `messages.create` call (streamed when `arguments` say so) as a ModelReply."""
    answer = await client.messages.create(**arguments)
    if arguments.get("stream"):
        return await read_events(answer)
    return parse_message(answer)
