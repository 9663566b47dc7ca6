"""A streamed chat completion, read chunk by chunk into one ModelReply.

OpenAI streams a call as deltas keyed by `index`: only a call's first delta
carries its `id`, `type` and `function.name` (with `arguments: ""`); later
deltas carry the `index` and an arguments fragment cut anywhere. Each rule
below is one function, after a bug real runtimes shipped: calls are keyed by
`index` (not by `id`, which later deltas lack; not one accumulator for all);
an id or name is set from the delta that carries it, never concatenated; the
reply is final only when the stream ended after a `finish_reason` (never
because the arguments so far parse as JSON); a chunk without choices (the
usage chunk) carries no delta; text and calls both count.
"""

from __future__ import annotations

from collections.abc import AsyncIterable
from dataclasses import dataclass, field
from typing import Any

from .errors import ModelError
from .messages import ModelReply, ToolCall


@dataclass
class _StreamedCall:
    id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)


@dataclass
class StreamedReply:
    """What the chunks read so far say: text fragments, calls by index, the finish reason."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, _StreamedCall] = field(default_factory=dict)
    finish_reason: str | None = None


def first_choice(chunk: Any) -> Any | None:
    """The chunk's choice, or None for a chunk without one (the usage chunk has `choices: []`)."""
    choices = getattr(chunk, "choices", None)
    return choices[0] if choices else None


def add_text(reply: StreamedReply, delta: Any) -> None:
    """Append a `content` fragment (text streamed before, between or after calls is all kept)."""
    content = getattr(delta, "content", None)
    if content is not None:
        reply.text.append(content)


def add_call_delta(reply: StreamedReply, tool_delta: Any) -> None:
    """Fold one `delta.tool_calls[]` item into the call at its `index`.

    `id` and `function.name` are set when a delta carries them (the first one of
    a call does), never appended; `arguments` fragments are appended.
    """
    index = getattr(tool_delta, "index", None)
    if not isinstance(index, int) or isinstance(index, bool):
        raise ModelError(f"malformed stream: a tool_calls delta without an integer index: {tool_delta!r}")
    call = reply.calls.setdefault(index, _StreamedCall())
    if tool_delta.id:
        call.id = tool_delta.id
    function = tool_delta.function
    if function is not None:
        if function.name:
            call.name = function.name
        if function.arguments:
            call.fragments.append(function.arguments)


def add_chunk(reply: StreamedReply, chunk: Any) -> None:
    """Fold one `chat.completion.chunk` into `reply`."""
    choice = first_choice(chunk)
    if choice is None:
        return
    delta = choice.delta
    if delta is not None:
        add_text(reply, delta)
        for tool_delta in delta.tool_calls or ():
            add_call_delta(reply, tool_delta)
    if choice.finish_reason is not None:
        reply.finish_reason = choice.finish_reason


def finished_reply(reply: StreamedReply) -> ModelReply:
    """The reply of a stream that ended; ModelError when it ended before a `finish_reason`.

    A call is complete only here, when the whole stream is read: arguments that
    already parse as JSON may still be a prefix of what the model sends.
    """
    if reply.finish_reason is None:
        raise ModelError("model stream ended before a finish_reason: the reply is incomplete")
    calls = tuple(
        ToolCall(id=call.id, name=call.name, arguments="".join(call.fragments))
        for _, call in sorted(reply.calls.items())
    )
    content = "".join(reply.text) if reply.text else None
    return ModelReply(content=content, tool_calls=calls)


async def read_stream(chunks: AsyncIterable[Any]) -> ModelReply:
    """Read every chunk of a streamed completion, then the reply it made."""
    reply = StreamedReply()
    async for chunk in chunks:
        add_chunk(reply, chunk)
    return finished_reply(reply)
