"""Scripted model replies and how one reply becomes a chat.completion response.

Replies are wire-neutral: `completion` renders one as chat JSON, and
`toolproof.fakes.sse` renders the same reply as a chat SSE stream.

Tools are addressed by marker: `Call("alpha/lookup", ...)` calls the tool the
request offers whose description carries `[tp:alpha/lookup]`, whatever wire
name the runtime gave it. `Call(name="x", ...)` names a tool literally (for
unknown-tool cases). `arguments` is sent as the raw string given, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any, Final

CREATED: Final = 1767225600
"""`created` of every completion (2026-01-01T00:00:00Z): responses are reproducible."""

DEFAULT_MODEL: Final = "toolproof-fake"
"""`model` echoed when the request names none."""


@dataclass(frozen=True)
class Text:
    """A final assistant message: ends the tool loop."""

    text: str


@dataclass(frozen=True)
class Call:
    """One tool call: by marker (`tool="<route>/<tool>"`) or by literal wire name (`name=`)."""

    tool: str | None = None
    arguments: str = "{}"
    _: KW_ONLY
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.tool is None) == (self.name is None):
            raise ValueError("Call needs exactly one of tool= (a marker) or name= (a literal wire name)")
        if not isinstance(self.arguments, str):
            raise TypeError("Call.arguments is the raw JSON text to send, a str")


@dataclass(frozen=True)
class StaleCall:
    """One call to the marked tool under the wire name the latest earlier request of this build
    token offered it under: a call the model makes from what it saw before, to a tool the runtime
    may no longer offer (a list that changed, CONTRACT.md §5c). Refused when no earlier request
    offered it."""

    tool: str
    arguments: str = "{}"

    def __post_init__(self) -> None:
        if not isinstance(self.arguments, str):
            raise TypeError("StaleCall.arguments is the raw JSON text to send, a str")


@dataclass(frozen=True)
class ToolCalls:
    """Several tool calls in one reply, with optional assistant text beside them."""

    calls: tuple[Call, ...]
    text: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.calls, tuple) or not self.calls:
            raise ValueError("ToolCalls.calls must be a non-empty tuple of Call")


@dataclass(frozen=True)
class Runaway:
    """Answer this and every later request with one call to the marked tool, arguments varying each time."""

    tool: str


@dataclass(frozen=True)
class HttpError:
    """Answer with this HTTP status and JSON body instead of a completion."""

    status: int
    body: Mapping[str, Any]

    def __post_init__(self) -> None:
        if not 400 <= self.status <= 599:
            raise ValueError(f"HttpError.status must be 4xx or 5xx, got {self.status}")


@dataclass(frozen=True)
class AlwaysFail:
    """Answer this and every later request with `error`: an endpoint that fails every attempt.

    Unlike a finite run of `HttpError`s it never runs out, so a client that keeps
    retrying meets the harness's safety cap, not the end of the script.
    """

    error: HttpError

    def __post_init__(self) -> None:
        if not isinstance(self.error, HttpError):
            raise TypeError("AlwaysFail.error must be an HttpError")


Reply = Text | Call | ToolCalls | StaleCall | Runaway | HttpError | AlwaysFail


class Refusal(Exception):
    """The harness refuses a request; answered as an OpenAI-style error."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def payload(self) -> dict[str, Any]:
        """The OpenAI-style error body."""
        return error_body(self.message, self.code)


def error_body(message: str, code: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}


def resolve_marker(tools: Any, marker: str) -> str:
    """Return the wire name of the one offered tool whose description carries `[tp:<marker>]`."""
    tag = f"[tp:{marker}]"
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict):
            continue
        description = function.get("description")
        if isinstance(description, str) and tag in description:
            names.append(str(function.get("name")))
    if not names:
        raise Refusal(400, "toolproof_marker_unresolved", f"toolproof: no offered tool carries marker {tag}")
    if len(names) > 1:
        listed = ", ".join(names)
        raise Refusal(
            400,
            "toolproof_marker_ambiguous",
            f"toolproof: several offered tools carry marker {tag}: {listed}",
        )
    return names[0]


def earlier_name(bodies: Sequence[Any], marker: str) -> str:
    """The wire name the latest of `bodies` (earlier requests' chat views, oldest first) that offered
    the marked tool gave it (StaleCall); Refusal when none did."""
    for body in reversed(bodies):
        tools = body.get("tools") if isinstance(body, Mapping) else None
        try:
            return resolve_marker(tools, marker)
        except Refusal:
            continue
    why = f"toolproof: no earlier request offered a tool carrying [tp:{marker}]"
    raise Refusal(400, "toolproof_marker_unresolved", why)


def runaway_arguments(k: int) -> str:
    """The k-th runaway call's arguments: content and length differ every time."""
    return json.dumps({"channel": "qq", "text": f"{k} " + "x" * (150 + (37 * k) % 200)})


def _call_wire(call: Call, tools: Any, token: str, index: int, i: int) -> dict[str, Any]:
    name = call.name if call.name is not None else resolve_marker(tools, str(call.tool))
    return {
        "id": f"call_{token}_{index}_{i}",
        "type": "function",
        "function": {"name": name, "arguments": call.arguments},
    }


def assistant_message(
    reply: Text | Call | ToolCalls, request: Mapping[str, Any], token: str, index: int
) -> tuple[dict[str, Any], str]:
    """The assistant message a reply stands for, and its `finish_reason`, whatever the wire.

    Markers resolve against the tools of `request`; call ids are
    `call_<token>_<index>_<i>`. Raises Refusal when a marker does not resolve.
    """
    tools = request.get("tools")
    message: dict[str, Any] = {"role": "assistant"}
    if isinstance(reply, Text):
        message["content"] = reply.text
        return message, "stop"
    calls = reply.calls if isinstance(reply, ToolCalls) else (reply,)
    message["content"] = reply.text if isinstance(reply, ToolCalls) else None
    message["tool_calls"] = [_call_wire(call, tools, token, index, i) for i, call in enumerate(calls)]
    return message, "tool_calls"


def model_name(request: Mapping[str, Any]) -> str:
    """The `model` echoed back: the request's, else DEFAULT_MODEL."""
    model = request.get("model")
    return model if isinstance(model, str) else DEFAULT_MODEL


def usage(message: Mapping[str, Any], request: Mapping[str, Any]) -> dict[str, int]:
    """Token counts for answering `request` with `message` (about four characters a token)."""
    produced = len(json.dumps(message))
    consumed = len(json.dumps(request.get("messages")))
    return {
        "prompt_tokens": consumed // 4,
        "completion_tokens": produced // 4,
        "total_tokens": consumed // 4 + produced // 4,
    }


def completion(reply: Text | Call | ToolCalls, request: Mapping[str, Any], token: str, index: int) -> Any:
    """Render a reply as a `chat.completion` for request number `index` of `token`."""
    message, finish = assistant_message(reply, request, token, index)
    return {
        "id": f"chatcmpl-{token}-{index}",
        "object": "chat.completion",
        "created": CREATED,
        "model": model_name(request),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage(message, request),
    }
