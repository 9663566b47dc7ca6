"""One scripted reply rendered on the Anthropic Messages API wire (`POST /v1/messages`).

The reply is the same wire-neutral `Text` / `Call` / `ToolCalls` the OpenAI
wires render; it stands for the same chat-shaped assistant message
(`assistant_message`, what `ModelRequest.message` records whatever the wire),
its call ids those of the `tool_use` blocks. The shapes follow Anthropic's
published Messages API and streaming documentation
(https://docs.anthropic.com/en/api/messages,
https://docs.anthropic.com/en/docs/build-with-claude/streaming) and the
official Python client's types and stream accumulator; every object carries
every key the published OpenAPI document's response schemas list (`Message`,
`MessageStreamEvent`: `stop_details`, `container`, a `tool_use` block's
`caller`, the whole `usage`, with their published defaults; checked by
tests/wire/test_anthropic_answer_shapes.py) but a text block's `citations`,
which the live API leaves out when there are none (the streaming guide's
`{"type": "text", "text": ""}`) and which @ai-sdk/anthropic refuses as null
(https://github.com/coder/mux/pull/858); the `usage` counts as a recorded
stream carries them (no caching, standard tier):

- markers resolve against the request's client tools (`name`, `description`,
  `input_schema`), read through the view (`anthropic_view`), exactly as on the
  chat wire;
- the answer is a `message` object (`type: "message"`, `role: "assistant"`)
  whose `content` holds the reply's text as one `text` block (none when the
  text is empty or absent: the API never answers an empty text block), then
  each call as a `tool_use` block with `id` (`toolu_<token>_<index>_<i>`, the
  token's characters outside `[A-Za-z0-9_-]` as `_`, so the id meets the API's
  pattern), `name` and `input`, the scripted arguments parsed (an object; `""`
  stands for `{}`, and the record's message says `{}` then); `stop_reason` is
  `end_turn` for text alone, `tool_use` with calls, `max_tokens` for an
  `Ended(..., "incomplete")`, a `Stopped` reply's own reason; then `usage`;
- with `stream: true`, the events are `message_start` (the message with empty
  `content` and a null `stop_reason`), one `ping`, per block
  `content_block_start` (a text block with `text: ""`, a `tool_use` block with
  `input: {}`), its `content_block_delta`s (`text_delta`; `input_json_delta`
  whose `partial_json` fragments are the scripted arguments text byte for
  byte, a parameterless call's one fragment `""`), `content_block_stop`, then
  `message_delta` (`stop_reason`, `usage.output_tokens`) and `message_stop`.
  Each is an SSE block `event: <type>` + `data: <json>` whose `type` equals the
  event name; no `data: [DONE]` follows.

Arguments must be a JSON object's text (or `""`): a `tool_use` input is always
an object on this wire, so a script asking other text (malformed arguments, a
JSON array) is refused with a 400 (`toolproof_anthropic_unsupported`), as a
plan's chat-only shapes are (`order`, `comments`, `compact_done`,
`empty_content`; blocks never interleave on this wire).

A `sse.Cut` streams the events up to offset `at` of its call's `partial_json`
(0: up to its `content_block_start`), then the connection breaks (`abort`), the
body ends there (`clean`: no `content_block_stop`, `message_delta` or
`message_stop` follows), or, for `ending="error"`, an `error` event
(`{"type": "error", "error": {"type": "overloaded_error", "message": ...}}`,
what the streaming documentation shows for a stream that fails) ends it.

Two scripts exist on this wire only (refused on the others): `Thinking`, a
reply opening with `thinking` blocks (streamed as `thinking_delta`s, then one
`signature_delta`) and `redacted_thinking` blocks (whole in their
`content_block_start`), whose opaque signatures and data a runtime must send
back unchanged; and `Stopped`, a reply ending once with another published stop
reason (`pause_turn`, `refusal`, ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolproof.fakes import replies
from toolproof.fakes.anthropic_view import ANTHROPIC_PATH, anthropic_chat_view
from toolproof.fakes.replies import Call, Refusal, Text, ToolCalls, model_name
from toolproof.fakes.responses import check_plan
from toolproof.fakes.sse import FRAGMENT, Cut, Plan, default_plan, reply_calls, split_at

PATH: Final = ANTHROPIC_PATH
"""The Messages API path under a token's base URL (`/<token>/v1/messages`)."""

UNSUPPORTED: Final = "toolproof_anthropic_unsupported"
"""The code of a refusal of a script this wire cannot carry."""

STREAM_ERROR: Final = {
    "type": "error",
    "error": {"type": "overloaded_error", "message": "toolproof: the stream broke off (scripted)"},
}
"""The `error` event of a scripted `Cut(..., ending="error")`."""

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_-]")

DIRECT: Final = {"type": "direct"}
"""A client tool call's `caller` (the published default)."""


@dataclass(frozen=True)
class Thought:
    """A `thinking` block: the model's thinking and its opaque `signature`, which the runtime must
    send back unchanged (the API verifies it)."""

    thinking: str
    signature: str


@dataclass(frozen=True)
class RedactedThought:
    """A `redacted_thinking` block: opaque `data`, sent back unchanged."""

    data: str


@dataclass(frozen=True)
class Thinking:
    """A reply whose Messages API answer opens with thinking blocks, in order (issue 25 §2
    "Thinking"; the extended-thinking guide: with tool use, the turn's thinking blocks go back with
    the tool results, unchanged and in order).

    Messages API only: a request on another wire is refused (`toolproof_anthropic_only`).
    `plan` cuts the reply's text and arguments as `Streamed` does; each thinking text streams
    in fixed-size `thinking_delta`s, then its `signature_delta`; a redacted block streams
    whole in its `content_block_start`. Consumed like any reply.
    """

    reply: Text | Call | ToolCalls
    thoughts: tuple[Thought | RedactedThought, ...]
    plan: Plan | None = None

    def __post_init__(self) -> None:
        if not self.thoughts or not all(isinstance(t, Thought | RedactedThought) for t in self.thoughts):
            raise ValueError("Thinking.thoughts must be a non-empty tuple of Thought or RedactedThought")


def thought_block(thought: Thought | RedactedThought) -> dict[str, Any]:
    """The finished content block of `thought`."""
    if isinstance(thought, Thought):
        return {"type": "thinking", "thinking": thought.thinking, "signature": thought.signature}
    return {"type": "redacted_thinking", "data": thought.data}


def _thought_events(thought: Thought | RedactedThought, position: int) -> list[dict[str, Any]]:
    at = {"index": position}
    if isinstance(thought, RedactedThought):
        start = {"type": "content_block_start", **at, "content_block": thought_block(thought)}
        return [start, {"type": "content_block_stop", **at}]
    opener = {"type": "thinking", "thinking": "", "signature": ""}
    out: list[dict[str, Any]] = [{"type": "content_block_start", **at, "content_block": opener}]
    cuts = tuple(range(FRAGMENT, len(thought.thinking), FRAGMENT))
    for fragment in split_at(thought.thinking, cuts, "thinking"):
        out.append(
            {"type": "content_block_delta", **at, "delta": {"type": "thinking_delta", "thinking": fragment}}
        )
    signature = {"type": "signature_delta", "signature": thought.signature}
    out.append({"type": "content_block_delta", **at, "delta": signature})
    out.append({"type": "content_block_stop", **at})
    return out


def _ids(token: str) -> str:
    # Tool use ids match ^[a-zA-Z0-9_-]+$ in the published request schema: a runtime echoing the
    # fake's id must be able to send a valid request. Ids need only be unique within one token.
    return _UNSAFE.sub("_", token)


def assistant_message(
    reply: Text | Call | ToolCalls, request: Mapping[str, Any], token: str, index: int
) -> dict[str, Any]:
    """The chat-shaped assistant message `reply` stands for on this wire (`replies.assistant_message`),
    its call ids the `tool_use` ids (`toolu_...`).

    Markers resolve against the request's client tools, read through the view.
    Raises Refusal when a marker does not resolve or arguments are not an
    object's JSON text (or `""`).
    """
    message, _ = replies.assistant_message(reply, anthropic_chat_view(request), token, index)
    prefix = f"call_{token}_"
    for call in message.get("tool_calls", []):
        call["id"] = f"toolu_{_ids(token)}_" + call["id"].removeprefix(prefix)
        function = call["function"]
        tool_input(function["arguments"])
        # A tool_use always carries an object: a parameterless call stands for {} on this wire
        # (streamed, its one empty fragment), and a runtime echoes it as {}.
        function["arguments"] = function["arguments"] or "{}"
    return message


def tool_input(arguments: str) -> dict[str, Any]:
    """The `input` object scripted `arguments` stand for (`""`: `{}`); Refusal when not an object."""
    if arguments == "":
        return {}
    try:
        value = json.loads(arguments)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        why = f"toolproof: a tool_use input is a JSON object on this wire, the script has {arguments!r}"
        raise Refusal(400, UNSUPPORTED, why)
    return value


def stop_reason(message: Mapping[str, Any], stop: str | None = None) -> str:
    """`stop` when given, else `tool_use` for a message with calls, `end_turn` without."""
    if stop is not None:
        return stop
    return "tool_use" if message.get("tool_calls") else "end_turn"


STOPPED_REASONS: Final = ("max_tokens", "stop_sequence", "pause_turn", "refusal")
"""The stop reasons a `Stopped` reply may end with: the published `StopReason` values but the two a
reply ends with by itself (the stop-reasons guide also names `model_context_window_exceeded`, which
the published response schema does not list yet)."""


@dataclass(frozen=True)
class Stopped:
    """A reply answered once with `reason` as its stop reason instead of `end_turn` / `tool_use`, its
    blocks all there (consumed like any reply; the record's message is the reply's).

    Messages API only (refused elsewhere, `toolproof_anthropic_only`). For the
    stop-reason requirements still to decide (issue 25 §2 "Stop reasons"): a
    `pause_turn` the runtime should continue, a `refusal`, a truncated turn met once.
    `Ended(reply, "incomplete")` is the same `max_tokens` on every attempt.
    """

    reply: Text | Call | ToolCalls
    reason: str

    def __post_init__(self) -> None:
        if self.reason not in STOPPED_REASONS:
            raise ValueError(f"Stopped.reason must be one of {STOPPED_REASONS}, got {self.reason!r}")

    def note(self) -> str:
        """What the harness records about the answer (the record's `note`)."""
        return f"stop_reason {self.reason}"


def blocks(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The finished `content` blocks of `message`: its text (when not empty), then each call."""
    out: list[dict[str, Any]] = []
    if message.get("content"):
        out.append({"type": "text", "text": message["content"]})
    for call in message.get("tool_calls", []):
        function = call["function"]
        out.append(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": function["name"],
                "input": tool_input(function["arguments"]),
                "caller": DIRECT,
            }
        )
    return out


def usage(message: Mapping[str, Any], request: Mapping[str, Any]) -> dict[str, int]:
    """Token counts for answering `request` with `message` (about four characters a token)."""
    consumed = len(json.dumps([request.get("system"), request.get("messages")])) // 4
    return {"input_tokens": consumed, "output_tokens": len(json.dumps(message)) // 4}


def _usage(counts: Mapping[str, int]) -> dict[str, Any]:
    # A message's whole `usage` as published (every key present), no caching, standard tier.
    return {
        "input_tokens": counts["input_tokens"],
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": counts["output_tokens"],
        "output_tokens_details": None,
        "server_tool_use": None,
        "service_tier": "standard",
        "inference_geo": None,
    }


def _delta_usage(counts: Mapping[str, int]) -> dict[str, Any]:
    # `message_delta`'s cumulative usage as published (MessageDeltaUsage).
    return {
        "input_tokens": counts["input_tokens"],
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": counts["output_tokens"],
        "output_tokens_details": None,
        "server_tool_use": None,
    }


def _envelope(
    request: Mapping[str, Any],
    token: str,
    index: int,
    content: list[dict[str, Any]],
    stop: str | None,
    counts: dict[str, int],
) -> dict[str, Any]:
    return {
        "id": f"msg_{_ids(token)}_{index}",
        "type": "message",
        "role": "assistant",
        "model": model_name(request),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "stop_details": None,
        "usage": _usage(counts),
        "container": None,
    }


def message_object(
    reply: Text | Call | ToolCalls,
    request: Mapping[str, Any],
    token: str,
    index: int,
    stop: str | None = None,
    thoughts: Sequence[Thought | RedactedThought] = (),
) -> dict[str, Any]:
    """Render a reply as a `message` object for request number `index` of `token` (stop reason
    `stop` when given; `thoughts` first, as thinking blocks)."""
    message = assistant_message(reply, request, token, index)
    content = [thought_block(t) for t in thoughts] + blocks(message)
    return _envelope(request, token, index, content, stop_reason(message, stop), usage(message, request))


def events(
    reply: Text | Call | ToolCalls,
    request: Mapping[str, Any],
    token: str,
    index: int,
    plan: Plan | None = None,
    stop: str | None = None,
    thoughts: Sequence[Thought | RedactedThought] = (),
) -> list[dict[str, Any]]:
    """The stream events answering `reply` to request number `index` of `token`, in order.

    `plan` (default `sse.default_plan(reply)`) says where text and arguments are
    cut; `thoughts` stream first, as thinking blocks. Raises Refusal when a marker
    does not resolve or arguments are not an object's text, ValueError when the plan does not fit the reply
    (ChatOnlyPlan when it asks a chat-only shape).
    """
    plan = default_plan(reply) if plan is None else plan
    check_plan(plan)
    message = assistant_message(reply, request, token, index)
    calls: list[dict[str, Any]] = message.get("tool_calls", [])
    if len(plan.arguments) != len(calls):
        raise ValueError(
            f"plan has arguments cuts for {len(plan.arguments)} calls, the reply has {len(calls)}"
        )
    text = message.get("content")
    if not text and plan.text:
        raise ValueError("plan cuts text, the reply has none")
    counts = usage(message, request)
    opening = _envelope(
        request, token, index, [], None, {"input_tokens": counts["input_tokens"], "output_tokens": 1}
    )
    out: list[dict[str, Any]] = [{"type": "message_start", "message": opening}, {"type": "ping"}]
    for position, thought in enumerate(thoughts):
        out += _thought_events(thought, position)
    position = len(thoughts)
    if text:
        empty = {"type": "text", "text": ""}
        out.append({"type": "content_block_start", "index": position, "content_block": empty})
        for fragment in split_at(text, plan.text, "text"):
            delta = {"type": "text_delta", "text": fragment}
            out.append({"type": "content_block_delta", "index": position, "delta": delta})
        out.append({"type": "content_block_stop", "index": position})
        position += 1
    scripted = reply_calls(reply)
    for i, (call, cuts) in enumerate(zip(calls, plan.arguments, strict=True)):
        function = call["function"]
        opener = {
            "type": "tool_use",
            "id": call["id"],
            "name": function["name"],
            "input": {},
            "caller": DIRECT,
        }
        out.append({"type": "content_block_start", "index": position, "content_block": opener})
        # The scripted text, byte for byte; a parameterless call streams one empty fragment, as the
        # API does (an empty partial_json: {}).
        fragments = split_at(scripted[i].arguments, cuts, f"call {i} arguments") or [""]
        for fragment in fragments:
            delta = {"type": "input_json_delta", "partial_json": fragment}
            out.append({"type": "content_block_delta", "index": position, "delta": delta})
        out.append({"type": "content_block_stop", "index": position})
        position += 1
    ending = {
        "stop_reason": stop_reason(message, stop),
        "stop_sequence": None,
        "stop_details": None,
        "container": None,
    }
    out.append({"type": "message_delta", "delta": ending, "usage": _delta_usage(counts)})
    out.append({"type": "message_stop"})
    return out


def cut_events(cut: Cut, request: Mapping[str, Any], token: str, index: int) -> list[dict[str, Any]]:
    """The events a `Cut` sends before it breaks off, then, for `ending="error"`, the `error`
    event (`abort` and `clean` add nothing; raises Refusal as `events` does).

    The stream stops right after the cut call's `content_block_start` (`at` 0) or
    after the delta reaching offset `at` of its arguments: no `content_block_stop`
    of that call and no later block follow.
    """
    stream = events(cut.reply, request, token, index, cut.plan())
    starts = [e for e in stream if e["type"] == "content_block_start"]
    position = [e["index"] for e in starts if e["content_block"]["type"] == "tool_use"][cut.call]
    sent = 0
    end = None
    for at, e in enumerate(stream):
        if e.get("index") != position:
            continue
        if e["type"] == "content_block_start" and cut.at == 0:
            end = at + 1
            break
        if e["type"] == "content_block_delta":
            sent += len(e["delta"]["partial_json"])
            if sent >= cut.at:
                end = at + 1
                break
    if end is None:
        raise AssertionError("unreachable: the cut call's events reach offset `at`")
    out = stream[:end]
    if cut.ending == "error":
        out.append(dict(STREAM_ERROR))
    return out


def event(payload: Mapping[str, Any]) -> bytes:
    """One `event: <type>` + `data: <json>` SSE block."""
    return (
        b"event: "
        + str(payload["type"]).encode("utf-8")
        + b"\ndata: "
        + json.dumps(payload).encode("utf-8")
        + b"\n\n"
    )


def encode(stream: Sequence[Mapping[str, Any]]) -> bytes:
    """The whole SSE body for `stream` (no `[DONE]`: the body ends after `message_stop`)."""
    return b"".join(event(e) for e in stream)
