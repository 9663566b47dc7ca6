"""One scripted reply rendered on the OpenAI Responses API wire (`POST /v1/responses`), stateless.

The reply is the same wire-neutral `Text` / `Call` / `ToolCalls` the chat
answers render; it stands for the same chat-shaped assistant message
(`assistant_message`, what `ModelRequest.message` records whatever the wire).
The shapes follow openai-python's `types/responses` and the real streams
recorded in vercel/ai's `packages/openai/src/responses/__fixtures__`:

- tools are flat on this wire (`{"type": "function", "name", "description",
  "parameters", "strict"}`); markers resolve against the function tools'
  descriptions exactly as on the chat wire (tools of other types are ignored);
- the answer is a `response` object (`object: "response"`, `status:
  "completed"`) whose `output` holds the text as one `message` item with one
  `output_text` part, then each call as a `function_call` item carrying both
  `id` (`fc_<token>_<index>_<i>`, the item id) and `call_id`
  (`call_<token>_<index>_<i>`, the id a result pairs with and the id the
  checks see), `name`, `arguments` (the scripted JSON text, byte for byte)
  and `status: "completed"`; then `usage`;
- with `stream: true`, the events are `response.created`,
  `response.in_progress`, then per item `response.output_item.added` (a
  function call with `arguments: ""`, a message with no content), the item's
  deltas (`response.content_part.added`, `response.output_text.delta` ...,
  `response.output_text.done`, `response.content_part.done` for text;
  `response.function_call_arguments.delta` ... keyed by `item_id` (the `fc_`
  id) and `output_index`, `response.function_call_arguments.done` for a call),
  `response.output_item.done`, and last `response.completed` carrying the
  whole response. Each is an SSE block `event: <type>` + `data: <json>`
  whose `type` equals the event name, numbered by `sequence_number` from 0.
  No `data: [DONE]` follows (whether OpenAI sends one is unverified; both
  official SDKs end at the end of the body either way).

Fragments are cut as `sse.Plan` cuts them (`text` and `arguments` offsets;
`sse.default_plan`: fixed-size fragments, text first, then the calls one after
another). A plan's chat-only shapes (`order`, `comments`, `compact_done`,
`empty_content`) are refused here for now (`ChatOnlyPlan`).

A `sse.Cut` streams the events up to offset `at` of its call's arguments
(`cut_events`), then the connection breaks (`abort`), the body ends there
without any terminal event (`clean`: no `response.completed`, `failed` or
`incomplete`), or, for `ending="error"`,
an `error` event (`code`, `message`, `param`) and `response.failed`, whose
response has `status: "failed"` and an `error` object
(`openai/openai-python:src/openai/types/responses/response_error_event.py` and
`openai/openai-python:src/openai/types/responses/response_failed_event.py`; the order as in the fixture
`prism-php/prism:tests/Fixtures/openai/stream-unknown-error-responses-1.json`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from toolproof.fakes import replies
from toolproof.fakes.replies import CREATED, Call, Text, ToolCalls, model_name
from toolproof.fakes.sse import Cut, Plan, default_plan, split_at
from toolproof.fakes.views import RESPONSES_PATH, chat_view

PATH: Final = RESPONSES_PATH
"""The Responses API path under a token's base URL's origin (`/<token>/v1/responses`)."""


class ChatOnlyPlan(ValueError):
    """A plan asks a shape only the chat wire has (`order`, `comments`, `compact_done`, `empty_content`)."""


def check_plan(plan: Plan) -> None:
    """Raise ChatOnlyPlan when `plan` asks a chat-only shape."""
    if plan.order is not None or plan.comments or plan.compact_done or plan.empty_content:
        raise ChatOnlyPlan("plan: order, comments, compact_done and empty_content are chat-only shapes")


def assistant_message(
    reply: Text | Call | ToolCalls, request: Mapping[str, Any], token: str, index: int
) -> dict[str, Any]:
    """The chat-shaped assistant message `reply` stands for on this wire (`replies.assistant_message`).

    Markers resolve against the request's flat function tools, read through the
    view (`views.chat_view`: nested the chat way). Raises Refusal when a marker
    does not resolve.
    """
    message, _ = replies.assistant_message(reply, chat_view(request), token, index)
    return message


def _item_id(call_id: str) -> str:
    # The item id shares the call id's suffix but never equals it: a runtime answering with
    # the item id is visibly wrong.
    return "fc_" + call_id.removeprefix("call_")


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}


def _message_item(
    token: str, index: int, text: str | None, status: str, parts: Sequence[str] | None = None
) -> dict[str, Any]:
    # `parts`: the text as several output_text parts (a `TextParts` reply); one part otherwise.
    content = [] if text is None else [_text_part(part) for part in (parts or [text])]
    return {
        "id": f"msg_{token}_{index}",
        "type": "message",
        "status": status,
        "content": content,
        "role": "assistant",
    }


def _call_item(call: Mapping[str, Any], arguments: str, status: str) -> dict[str, Any]:
    return {
        "id": _item_id(call["id"]),
        "type": "function_call",
        "status": status,
        "arguments": arguments,
        "call_id": call["id"],
        "name": call["function"]["name"],
    }


def output(
    message: Mapping[str, Any], token: str, index: int, parts: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The finished `output` items of `message`: its text as a `message` item (in `parts`, when
    given), then each call."""
    items: list[dict[str, Any]] = []
    if message.get("content") is not None:
        items.append(_message_item(token, index, message["content"], "completed", parts))
    for call in message.get("tool_calls", []):
        items.append(_call_item(call, call["function"]["arguments"], "completed"))
    return items


def usage(message: Mapping[str, Any], request: Mapping[str, Any]) -> dict[str, Any]:
    """Token counts for answering `request` with `message` (about four characters a token)."""
    produced = len(json.dumps(message)) // 4
    consumed = len(json.dumps(request.get("input"))) // 4
    return {
        "input_tokens": consumed,
        "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0},
        "output_tokens": produced,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": consumed + produced,
    }


def _envelope(
    request: Mapping[str, Any],
    token: str,
    index: int,
    status: str,
    items: list[dict[str, Any]],
    counts: dict[str, Any] | None,
) -> dict[str, Any]:
    tools = request.get("tools")
    choice = request.get("tool_choice")
    parallel = request.get("parallel_tool_calls")
    instructions = request.get("instructions")
    return {
        "id": f"resp_{token}_{index}",
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "completed_at": CREATED if status == "completed" else None,
        "error": None,
        "incomplete_details": None,
        "instructions": instructions if isinstance(instructions, str) else None,
        "model": model_name(request),
        "output": items,
        "parallel_tool_calls": parallel if isinstance(parallel, bool) else True,
        "tool_choice": choice if choice is not None else "auto",
        "tools": tools if isinstance(tools, list) else [],
        "usage": counts,
        "metadata": {},
    }


def response(
    reply: Text | Call | ToolCalls,
    request: Mapping[str, Any],
    token: str,
    index: int,
    parts: Sequence[str] | None = None,
) -> Any:
    """Render a reply as a completed `response` object for request number `index` of `token` (its
    text in `parts`, when given)."""
    message = assistant_message(reply, request, token, index)
    return _envelope(
        request, token, index, "completed", output(message, token, index, parts), usage(message, request)
    )


def events(
    reply: Text | Call | ToolCalls,
    request: Mapping[str, Any],
    token: str,
    index: int,
    plan: Plan | None = None,
    parts: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """The stream events answering `reply` to request number `index` of `token`, in order.

    `plan` (default `sse.default_plan(reply)`) says where text and arguments are
    cut. With `parts`, the text comes as those output_text parts, each with its
    own `content_index` and one delta (the plan then cuts no text). Raises Refusal
    when a marker does not resolve, ValueError when the plan does not fit the
    reply (ChatOnlyPlan when it asks a chat-only shape).
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
    if text is None and plan.text:
        raise ValueError("plan cuts text, the reply has none")
    out: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        out.append({"type": kind, **fields, "sequence_number": len(out)})

    opening = _envelope(request, token, index, "in_progress", [], None)
    emit("response.created", response=opening)
    emit("response.in_progress", response=opening)
    position = 0
    if text is not None:
        item_id = f"msg_{token}_{index}"
        at = {"item_id": item_id, "output_index": position}
        added = _message_item(token, index, None, "in_progress")
        emit("response.output_item.added", item=added, output_index=position)
        fragments = [[part] for part in parts] if parts else [split_at(text, plan.text, "text")]
        for content_index, pieces in enumerate(fragments):
            whole = "".join(pieces)
            emit("response.content_part.added", content_index=content_index, **at, part=_text_part(""))
            for fragment in pieces:
                emit(
                    "response.output_text.delta",
                    content_index=content_index,
                    delta=fragment,
                    **at,
                    logprobs=[],
                )
            emit("response.output_text.done", content_index=content_index, **at, logprobs=[], text=whole)
            emit("response.content_part.done", content_index=content_index, **at, part=_text_part(whole))
        done = _message_item(token, index, text, "completed", parts)
        emit("response.output_item.done", item=done, output_index=position)
        position += 1
    for i, (call, cuts) in enumerate(zip(calls, plan.arguments, strict=True)):
        arguments = call["function"]["arguments"]
        at = {"item_id": _item_id(call["id"]), "output_index": position}
        emit("response.output_item.added", item=_call_item(call, "", "in_progress"), output_index=position)
        for fragment in split_at(arguments, cuts, f"call {i} arguments"):
            emit("response.function_call_arguments.delta", delta=fragment, **at)
        emit("response.function_call_arguments.done", arguments=arguments, **at)
        emit(
            "response.output_item.done", item=_call_item(call, arguments, "completed"), output_index=position
        )
        position += 1
    finished = _envelope(
        request, token, index, "completed", output(message, token, index, parts), usage(message, request)
    )
    emit("response.completed", response=finished)
    return out


STREAM_ERROR: Final = {
    "code": "server_error",
    "message": "toolproof: the stream broke off (scripted)",
    "param": None,
}
"""The fields of a scripted `Cut(..., ending="error")`'s `error` event; its `response.failed` carries
`code` and `message` as the response's `error`."""


def cut_events(cut: Cut, request: Mapping[str, Any], token: str, index: int) -> list[dict[str, Any]]:
    """The events a `Cut` sends before it breaks off, then, for `ending="error"`, `error` and
    `response.failed` (`abort` and `clean` add nothing; raises Refusal when a marker does not
    resolve).

    The stream stops right after the cut call's `response.output_item.added` (`at` 0)
    or after the delta reaching offset `at` of its arguments: no `.done` of that call
    and no later item follow.
    """
    stream = events(cut.reply, request, token, index, cut.plan())
    added = [e["item"] for e in stream if e["type"] == "response.output_item.added"]
    item_id = [item["id"] for item in added if item["type"] == "function_call"][cut.call]
    sent = 0
    end = None
    for position, e in enumerate(stream):
        if e["type"] == "response.output_item.added" and e["item"]["id"] == item_id and cut.at == 0:
            end = position + 1
            break
        if e["type"] == "response.function_call_arguments.delta" and e["item_id"] == item_id:
            sent += len(e["delta"])
            if sent >= cut.at:
                end = position + 1
                break
    if end is None:
        raise AssertionError("unreachable: the cut call's events reach offset `at`")
    out = stream[:end]
    if cut.ending == "error":
        out.append({"type": "error", **STREAM_ERROR, "sequence_number": len(out)})
        failed = _envelope(request, token, index, "failed", [], None)
        # A failed response carries no output (what was sent streamed already) and says why.
        failed["error"] = {"code": STREAM_ERROR["code"], "message": STREAM_ERROR["message"]}
        out.append({"type": "response.failed", "response": failed, "sequence_number": len(out)})
    return out


ENDED_STATUSES: Final = ("failed", "incomplete")
INCOMPLETE_DETAILS: Final = {"reason": "max_output_tokens"}
ENDED_ERROR: Final = {"code": "server_error", "message": "toolproof: the response failed (scripted)"}
"""The `error` of a scripted failed response (and, with `param: null`, its stream's `error` event)."""


@dataclass(frozen=True)
class Ended:
    """A response that ends `failed` or `incomplete`, on every attempt (never consumed; last).

    Responses API only (a chat request is refused). Its output holds the reply's
    items all the same (a function call among them), so a runtime that takes it
    for a completed turn runs the call. Plain: a `response` object whose `status`
    is `failed` (with `error`) or `incomplete` (with `incomplete_details`
    `max_output_tokens`, its items `incomplete`). Streamed: the reply's events up
    to its last `response.output_item.done`, then `error` and `response.failed`,
    or `response.incomplete`.
    """

    reply: Call | ToolCalls
    status: str

    def __post_init__(self) -> None:
        if self.status not in ENDED_STATUSES:
            raise ValueError(f"Ended.status must be one of {ENDED_STATUSES}, got {self.status!r}")

    def note(self) -> str:
        """What the harness records about the answer (the record's `note`)."""
        return f"response ended {self.status}"


@dataclass(frozen=True)
class DoneEventsOnly:
    """A streamed reply whose `response.completed` carries `output: []`, its items only in the
    `response.output_item.done` events (some backends do; tp-resp-completed-output).

    Responses API only, streamed only (a chat or non-streaming request is refused);
    consumed like any reply, by a refused request too (as a reply whose marker does
    not resolve is).
    """

    reply: Text | Call | ToolCalls

    NOTE: ClassVar[str] = "response.completed with output [] (items only in output_item.done events)"


@dataclass(frozen=True)
class TextParts:
    """A reply whose `message` item carries its text as several `output_text` parts, cut at `at`.

    The parts, in order and joined with nothing between, are the reply's text (as the
    official client's `output_text` joins them); the record's message holds the whole
    text. Responses API only (a chat request is refused); plain and streamed alike
    (streamed: each part its own `content_index`, one delta each); consumed like any
    reply.
    """

    reply: Text | ToolCalls
    at: tuple[int, ...]

    def __post_init__(self) -> None:
        text = self.reply.text
        if not text or not self.at:
            raise ValueError("TextParts needs a reply with text and at least one cut")
        split_at(text, self.at, "TextParts.at")

    def parts(self) -> list[str]:
        """The text's parts, in order."""
        return split_at(self.reply.text or "", self.at, "TextParts.at")

    def note(self) -> str:
        """What the harness records about the answer (the record's `note`)."""
        return f"text in {len(self.at) + 1} output_text parts"


def _ended_envelope(
    ended: Ended, request: Mapping[str, Any], token: str, index: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    message = assistant_message(ended.reply, request, token, index)
    items = output(message, token, index)
    if ended.status == "incomplete":
        items = [{**item, "status": "incomplete"} for item in items]
    envelope = _envelope(request, token, index, ended.status, items, usage(message, request))
    if ended.status == "failed":
        envelope["error"] = dict(ENDED_ERROR)
    else:
        envelope["incomplete_details"] = dict(INCOMPLETE_DETAILS)
    return envelope, message


def ended_response(ended: Ended, request: Mapping[str, Any], token: str, index: int) -> Any:
    """`ended` as one `response` object (status failed or incomplete)."""
    return _ended_envelope(ended, request, token, index)[0]


def ended_events(ended: Ended, request: Mapping[str, Any], token: str, index: int) -> list[dict[str, Any]]:
    """`ended` as a stream: the reply's events but `response.completed`, then the failure's end."""
    out = events(ended.reply, request, token, index)[:-1]
    envelope, _ = _ended_envelope(ended, request, token, index)
    if ended.status == "failed":
        out.append({"type": "error", **ENDED_ERROR, "param": None, "sequence_number": len(out)})
    out.append({"type": f"response.{ended.status}", "response": envelope, "sequence_number": len(out)})
    return out


def done_events_only(
    reply: Text | Call | ToolCalls, request: Mapping[str, Any], token: str, index: int
) -> list[dict[str, Any]]:
    """`reply`'s stream with `response.completed`'s `output` emptied (its items stay in the
    `response.output_item.done` events)."""
    out = events(reply, request, token, index)
    completed = out[-1]
    out[-1] = {**completed, "response": {**completed["response"], "output": []}}
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
    """The whole SSE body for `stream` (no `[DONE]`: the body ends after the last event)."""
    return b"".join(event(e) for e in stream)


ENCRYPTED_INCLUDE: Final = "reasoning.encrypted_content"
"""The `include` value that asks for a reasoning item's `encrypted_content`."""


def encrypted_content(token: str, index: int) -> str:
    """The opaque `encrypted_content` of the reasoning item answering request `index` of `token`.

    Literal in shape so a test can write it down: `gAAAAB` (the prefix OpenAI's
    Fernet tokens carry), then the token and index, then a fixed tail; a
    stream's `response.output_item.added` carries its first half only.
    """
    return f"gAAAABtp-{token}-{index}-reasoning-state-opaque"


@dataclass(frozen=True)
class Reasoned:
    """A reply whose output opens with one `reasoning` item (`rs_<token>_<index>`), then the reply's
    items (its calls). Responses API only (a chat or Messages request is refused); consumed like any
    reply.

    The item carries `summary` (one `summary_text` part per string, [] for none)
    and, when the request's `include` names `reasoning.encrypted_content`, its
    `encrypted_content` (`encrypted_content(token, index)`); otherwise no such
    key, as the API answers. Streamed, its `response.output_item.added` carries
    an empty summary and the first half of the encrypted content only; the
    summary comes as `response.reasoning_summary_*` events; only
    `response.output_item.done` (and `response.completed`) carry the whole item.
    """

    reply: Call | ToolCalls
    summary: tuple[str, ...] = ()

    def note(self) -> str:
        """What the harness records about the answer (the record's `note`)."""
        return f"reasoning item ({len(self.summary)} summary parts) before the calls"


def reasoning_item(reasoned: Reasoned, request: Mapping[str, Any], token: str, index: int) -> dict[str, Any]:
    """The finished `reasoning` output item of `reasoned` answering `request`."""
    item: dict[str, Any] = {
        "id": f"rs_{token}_{index}",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": text} for text in reasoned.summary],
    }
    include = request.get("include")
    if isinstance(include, list) and ENCRYPTED_INCLUDE in include:
        item["encrypted_content"] = encrypted_content(token, index)
    return item


def reasoned_response(reasoned: Reasoned, request: Mapping[str, Any], token: str, index: int) -> Any:
    """`reasoned` as one completed `response` object: the reasoning item, then the reply's items."""
    whole = response(reasoned.reply, request, token, index)
    whole["output"] = [reasoning_item(reasoned, request, token, index), *whole["output"]]
    return whole


def reasoned_events(
    reasoned: Reasoned, request: Mapping[str, Any], token: str, index: int
) -> list[dict[str, Any]]:
    """`reasoned` as a stream: the reasoning item's events first (its added item partial), then the
    reply's events, every later `output_index` one further."""
    item = reasoning_item(reasoned, request, token, index)
    at = {"item_id": item["id"], "output_index": 0}
    added = {**item, "summary": []}
    if "encrypted_content" in item:
        added["encrypted_content"] = item["encrypted_content"][: len(item["encrypted_content"]) // 2]
    own: list[dict[str, Any]] = [{"type": "response.output_item.added", "item": added, "output_index": 0}]
    for i, text in enumerate(reasoned.summary):
        part = {"type": "summary_text", "text": text}
        own.append(
            {
                "type": "response.reasoning_summary_part.added",
                **at,
                "summary_index": i,
                "part": {**part, "text": ""},
            }
        )
        own.append({"type": "response.reasoning_summary_text.delta", **at, "summary_index": i, "delta": text})
        own.append({"type": "response.reasoning_summary_text.done", **at, "summary_index": i, "text": text})
        own.append({"type": "response.reasoning_summary_part.done", **at, "summary_index": i, "part": part})
    own.append({"type": "response.output_item.done", "item": item, "output_index": 0})
    rest = events(reasoned.reply, request, token, index)
    out: list[dict[str, Any]] = [*rest[:2], *own]
    for e in rest[2:]:
        moved = {**e, "output_index": e["output_index"] + 1} if "output_index" in e else dict(e)
        if e["type"] == "response.completed":
            moved["response"] = {**e["response"], "output": [item, *e["response"]["output"]]}
        out.append(moved)
    return [{**e, "sequence_number": n} for n, e in enumerate(out)]


@dataclass(frozen=True)
class Forgotten:
    """Before this reply answers, the endpoint forgets every response it stored for the token (as
    the API does once a stored response expires): a request that chains to one of them is refused
    with the API's 404 and consumes nothing; a stateless request gets `reply`. Responses API only."""

    reply: Text | Call | ToolCalls

    NOTE: ClassVar[str] = "stored responses forgotten before this answer"
