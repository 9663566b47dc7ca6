"""One scripted reply rendered as an OpenAI chat-completions SSE stream (`stream: true`).

The reply is the same wire-neutral `Text` / `Call` / `ToolCalls` the chat JSON
answer renders (`replies.assistant_message`); only the shape differs. The
shape follows OpenAI's streams as recorded in openai-python's test fixtures:

- every chunk is a `chat.completion.chunk` with the same `id`, `created` and
  `model`, and one choice (`index: 0`) whose `finish_reason` is null until the end;
- the first delta carries `role: "assistant"` and `content` ("" when the reply
  has text, null when it has only calls); text follows as `content` deltas;
- each call opens with one delta carrying `index`, `id`, `type: "function"`,
  `function.name` and `function.arguments: ""`; later deltas of that call carry
  only `index` and an arguments fragment;
- a `delta: {}` chunk carries the `finish_reason` ("stop" or "tool_calls");
- when the request asked `stream_options.include_usage`, every chunk has
  `usage: null` and a last chunk with `choices: []` carries the usage;
- then `data: [DONE]`.

Where the fragments are cut, whether calls stream one after another or
interleaved by `index` (text fragments among them), and the shapes a legal
stream may take besides (SSE comment lines, `data:[DONE]` without the space,
`content: ""` beside calls) is a `Plan`: `default_plan` cuts every string into
fixed-size fragments and streams the text, then the calls one after another.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolproof.fakes.replies import CREATED, Call, Text, ToolCalls, assistant_message, model_name, usage

FRAGMENT: Final = 8
"""Characters per text or arguments fragment under the default plan."""

DONE: Final = b"data: [DONE]\n\n"
"""The event that ends every stream."""

COMPACT_DONE: Final = b"data:[DONE]\n\n"
"""The same event without the optional space after the colon (legal SSE)."""

COMMENT: Final = b": keep-alive\n\n"
"""An SSE comment line (a keep-alive); a client ignores it."""

TEXT: Final = -1
"""In `Plan.order`: the next text fragment goes here."""

CONTENT_TYPE: Final = "text/event-stream"


@dataclass(frozen=True)
class Plan:
    """How one reply is cut into chunks.

    `text`: offsets into the reply's text where a new `content` delta starts
    (strictly increasing, each in 1..len-1). `arguments`: one such tuple per
    call, offsets into that call's arguments. `order`: which call's next delta
    each tool-call chunk carries, by call position; a call's first delta is its
    opener, then its fragments, so position i appears 1 + len(arguments[i])
    times. `TEXT` entries, one per text fragment, place the text among the
    calls; without any, the text comes first. None streams the text, then the
    calls one after another.

    `comments`: an SSE comment line before every event. `compact_done`:
    `data:[DONE]` without the space. `empty_content`: the first delta carries
    `content: ""` even when the reply has no text (some servers send it beside
    calls).
    """

    text: tuple[int, ...] = ()
    arguments: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] | None = None
    comments: bool = False
    compact_done: bool = False
    empty_content: bool = False


def _cuts(length: int, size: int) -> tuple[int, ...]:
    return tuple(range(size, length, size))


def reply_calls(reply: Text | Call | ToolCalls) -> tuple[Call, ...]:
    """The calls of a scripted reply, in order (none for a text reply)."""
    if isinstance(reply, Text):
        return ()
    return reply.calls if isinstance(reply, ToolCalls) else (reply,)


def reply_text(reply: Text | Call | ToolCalls) -> str | None:
    """The text of a scripted reply (None when it has none)."""
    if isinstance(reply, Text):
        return reply.text
    return reply.text if isinstance(reply, ToolCalls) else None


def default_plan(reply: Text | Call | ToolCalls, size: int = FRAGMENT) -> Plan:
    """Cut text and every call's arguments into `size`-character fragments; calls one after another."""
    if size < 1:
        raise ValueError(f"fragment size must be positive, got {size}")
    return Plan(
        text=_cuts(len(reply_text(reply) or ""), size),
        arguments=tuple(_cuts(len(call.arguments), size) for call in reply_calls(reply)),
    )


def call_deltas(reply: Text | Call | ToolCalls, arguments: tuple[tuple[int, ...], ...]) -> list[int]:
    """How many deltas each call of `reply` streams under these arguments cuts: its opener, then
    one per fragment (arguments "" stream no fragment, as `split_at` renders them)."""
    return [
        1 + (len(cuts) + 1 if call.arguments else 0)
        for call, cuts in zip(reply_calls(reply), arguments, strict=True)
    ]


def split_at(value: str, cuts: tuple[int, ...], what: str) -> list[str]:
    """`value` cut at `cuts` (strictly increasing, inside it); ValueError naming `what` otherwise."""
    # An empty string streams no fragment at all (a parameterless call keeps its opener's "").
    bounds = (0, *cuts, len(value)) if value else (0, *cuts)
    if any(a >= b for a, b in itertools.pairwise(bounds)) or (cuts and cuts[-1] >= len(value)):
        raise ValueError(f"{what}: cuts {cuts!r} are not strictly increasing inside 1..{len(value) - 1}")
    return [value[a:b] for a, b in itertools.pairwise(bounds)]


def _deltas(tool_calls: list[dict[str, Any]], text: list[str], plan: Plan) -> list[dict[str, Any]]:
    """The content and tool-call deltas after the opening one, in the plan's order."""
    if len(plan.arguments) != len(tool_calls):
        raise ValueError(
            f"plan has arguments cuts for {len(plan.arguments)} calls, the reply has {len(tool_calls)}"
        )
    pending: list[list[dict[str, Any]]] = []
    for i, (call, cuts) in enumerate(zip(tool_calls, plan.arguments, strict=True)):
        function = call["function"]
        opener = {
            "index": i,
            "id": call["id"],
            "type": "function",
            "function": {"name": function["name"], "arguments": ""},
        }
        fragments = split_at(function["arguments"], cuts, f"call {i} arguments")
        pending.append([opener] + [{"index": i, "function": {"arguments": f}} for f in fragments])
    order = plan.order
    if order is None:
        order = tuple(i for i, deltas in enumerate(pending) for _ in deltas)
    if TEXT not in order:
        order = (TEXT,) * len(text) + order
    expected = [TEXT] * len(text) + [i for i, deltas in enumerate(pending) for _ in deltas]
    if sorted(order) != sorted(expected):
        raise ValueError(f"plan order {order!r} does not name each call once per delta (TEXT per fragment)")
    texts = iter(text)
    taken = [0] * len(pending)
    deltas: list[dict[str, Any]] = []
    for i in order:
        if i == TEXT:
            deltas.append({"content": next(texts)})
            continue
        deltas.append({"tool_calls": [pending[i][taken[i]]]})
        taken[i] += 1
    return deltas


def include_usage(request: Mapping[str, Any]) -> bool:
    """True when the request asked for a usage chunk (`stream_options.include_usage` is true)."""
    options = request.get("stream_options")
    return isinstance(options, Mapping) and options.get("include_usage") is True


def chunks(
    reply: Text | Call | ToolCalls,
    request: Mapping[str, Any],
    token: str,
    index: int,
    plan: Plan | None = None,
) -> list[dict[str, Any]]:
    """The `chat.completion.chunk` objects streaming `reply` to request number `index` of `token`.

    `plan` defaults to `default_plan(reply)`. Raises Refusal when a marker does
    not resolve, ValueError when the plan does not fit the reply.
    """
    message, finish = assistant_message(reply, request, token, index)
    plan = default_plan(reply) if plan is None else plan
    text = reply_text(reply)
    with_usage = include_usage(request)
    opening = None if text is None and not plan.empty_content else ""
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": opening}]
    if text is None and plan.text:
        raise ValueError("plan cuts text, the reply has none")
    fragments = split_at(text or "", plan.text, "text")
    deltas += _deltas(message.get("tool_calls", []), fragments, plan)

    def chunk(choices: list[dict[str, Any]]) -> dict[str, Any]:
        shaped: dict[str, Any] = {
            "id": f"chatcmpl-{token}-{index}",
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model_name(request),
            "choices": choices,
        }
        if with_usage:
            shaped["usage"] = None
        return shaped

    out = [chunk([{"index": 0, "delta": delta, "finish_reason": None}]) for delta in deltas]
    out.append(chunk([{"index": 0, "delta": {}, "finish_reason": finish}]))
    if with_usage:
        out.append({**chunk([]), "usage": usage(message, request)})
    return out


def event(payload: Mapping[str, Any]) -> bytes:
    """One `data: <json>\\n\\n` SSE event."""
    return b"data: " + json.dumps(payload).encode("utf-8") + b"\n\n"


def events(stream: Sequence[Mapping[str, Any]], plan: Plan | None = None) -> list[bytes]:
    """One SSE event per chunk, then the `[DONE]` event, shaped as `plan` says (comment lines
    before every event, the compact `data:[DONE]`)."""
    shaped = plan or Plan()
    done = COMPACT_DONE if shaped.compact_done else DONE
    out = [event(c) for c in stream] + [done]
    return [COMMENT + e for e in out] if shaped.comments else out


def encode(stream: Sequence[Mapping[str, Any]], plan: Plan | None = None) -> bytes:
    """The whole SSE body for `stream`."""
    return b"".join(events(stream, plan))


@dataclass(frozen=True)
class Streamed:
    """A scripted reply and the plan its stream follows (a plain JSON answer ignores the plan)."""

    reply: Text | Call | ToolCalls
    plan: Plan


CUT_ENDINGS: Final = ("abort", "error", "clean")


@dataclass(frozen=True)
class Cut:
    """A stream that breaks off inside call `call` of `reply`, on every attempt (never consumed).

    The stream carries everything up to offset `at` of that call's arguments (0: up
    to its opener; len: its whole arguments, no later delta), then ends as `ending`
    says: `abort`, the connection breaks mid-body; `error`, an `{"error": ...}` event
    and the body ends (what OpenAI sends when a stream fails); `clean`, the body
    ends normally right there, at an event boundary (the chunked body is
    terminated, nothing is wrong on the transport). None sends a `finish_reason`
    or `[DONE]`, which every OpenAI stream ends with. A non-streaming request is
    refused.
    """

    reply: Call | ToolCalls
    call: int
    at: int
    ending: str = "abort"

    def __post_init__(self) -> None:
        calls = reply_calls(self.reply)
        if not 0 <= self.call < len(calls):
            raise ValueError(f"Cut.call {self.call} is not a call of the reply")
        if not 0 <= self.at <= len(calls[self.call].arguments):
            raise ValueError(f"Cut.at {self.at} is outside call {self.call}'s arguments")
        if self.ending not in CUT_ENDINGS:
            raise ValueError(f"Cut.ending must be one of {CUT_ENDINGS}, got {self.ending!r}")

    def note(self) -> str:
        """What the harness records about the cut (the record's `note`)."""
        return f"stream cut ({self.ending}) at offset {self.at} of call {self.call}'s arguments"

    def plan(self) -> Plan:
        """One fragment per string, except the cut call's arguments, cut at `at`."""
        calls = reply_calls(self.reply)
        length = len(calls[self.call].arguments)
        return Plan(
            arguments=tuple(
                (self.at,) if i == self.call and 0 < self.at < length else () for i in range(len(calls))
            )
        )


STREAM_ERROR: Final = {
    "error": {
        "message": "toolproof: the stream broke off (scripted)",
        "type": "server_error",
        "param": None,
        "code": "toolproof_stream_cut",
    }
}
"""The payload of a scripted `Cut(..., ending="error")` event."""


def cut_chunks(cut: Cut, request: Mapping[str, Any], token: str, index: int) -> list[dict[str, Any]]:
    """The chunks a `Cut` sends before it breaks off (raises Refusal when a marker does not resolve)."""
    stream = chunks(cut.reply, request, token, index, cut.plan())
    sent = 0
    for position, chunk in enumerate(stream):
        for delta in chunk["choices"][0]["delta"].get("tool_calls", []) if chunk["choices"] else []:
            if delta["index"] != cut.call:
                continue
            sent += len(delta["function"]["arguments"])
            if sent >= cut.at:
                return stream[: position + 1]
    raise AssertionError("unreachable: the cut call's deltas reach offset `at`")
