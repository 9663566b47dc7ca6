"""Helpers shared by the calls area's tests (arguments, history, error paths).

The views read the fakes' records the way CONTRACT.md defines the term each
is named after (§2 "text of a message", "synthetic continuation message",
"JSON-equal"; §7 "the tool receives"); they never forgive a difference.
The two `expect_*` helpers pin exactly one expected value through
`tp.expect*`, like any test.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, ModelRequest, Text
from toolproof.judge.jsondiff import Multiset
from toolproof.plugin.scenario import Scenario
from toolproof.strategies.arguments import IJSON_MAX_INT

FINAL_TEXT: Final = "All done: 完了."
"""The text of the last scripted reply (it ends a run that went on)."""


def message_text(message: Any) -> Any:
    """§2 "text of a message": a string content, or its text parts joined with ""; none gives ""."""
    if not isinstance(message, Mapping):
        return f"<not a message: {message!r}>"
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(
        isinstance(part, Mapping) and part.get("type") == "text" and isinstance(part.get("text"), str)
        for part in content
    ):
        return "".join(part["text"] for part in content)
    return f"<content is neither a string nor text parts: {json.dumps(content, default=repr)}>"


def role(message: Any) -> Any:
    """A message's role (None when it has none)."""
    return message.get("role") if isinstance(message, Mapping) else None


def answered(tp: Scenario) -> list[ModelRequest]:
    """The model turns of this build: the requests answered with HTTP 200, in order."""
    return [r for r in tp.model_requests() if r.status == 200]


def messages_of(request: ModelRequest) -> list[Any]:
    """The `messages` array of one recorded request's view ([] when it has none)."""
    body = request.view if isinstance(request.view, Mapping) else {}
    messages = body.get("messages")
    return list(messages) if isinstance(messages, list) else []


def sent_calls(request: ModelRequest) -> list[dict[str, Any]]:
    """The tool calls the fake model sent in its answer to `request`: id, name, raw arguments."""
    message = request.message or {}
    return [
        {"id": c["id"], "name": c["function"]["name"], "arguments": c["function"]["arguments"]}
        for c in message.get("tool_calls") or []
    ]


def parsed_arguments(value: Any) -> Any:
    """An echoed `arguments` string parsed as JSON, or a `<...>` description when it is not one."""
    if not isinstance(value, str):
        return f"<arguments is not a string: {json.dumps(value, default=repr)}>"
    try:
        return json.loads(value)
    except ValueError:
        return f"<arguments is not JSON: {value!r}>"


def is_synthetic(message: Any, continuation: str | None) -> bool:
    """§2: a role "user" message whose text is the declared continuation (tests never use it as input)."""
    return continuation is not None and role(message) == "user" and message_text(message) == continuation


def carried(previous: Sequence[Any], current: Sequence[Any], continuation: str | None) -> list[Any]:
    """Request k's messages as request k+1 must start with them (§9 tp-hist-append-only).

    The runtime may first remove one synthetic continuation message (only the
    last message can be one, tp-cont-at-most-one): it counts as removed when
    request k+1 does not hold it at that position.
    """
    kept = list(previous)
    if kept and is_synthetic(kept[-1], continuation):
        at = len(kept) - 1
        if len(current) <= at or current[at] != kept[-1]:
            kept.pop()
    return kept


def added(previous: Sequence[Any], current: Sequence[Any], continuation: str | None) -> list[Any]:
    """What request k+1 appends after carrying request k, less one trailing synthetic message."""
    tail = list(current[len(carried(previous, current, continuation)) :])
    if tail and is_synthetic(tail[-1], continuation):
        tail.pop()
    return tail


def last_assistant(messages: Sequence[Any]) -> Any:
    """The last role "assistant" message ({} when there is none)."""
    for message in reversed(messages):
        if role(message) == "assistant":
            return message
    return {}


def echoed_calls(message: Any) -> list[dict[str, Any]]:
    """id, name and parsed arguments of each tool call of an (echoed) assistant message."""
    calls = message.get("tool_calls") if isinstance(message, Mapping) else None
    out = []
    for call in calls if isinstance(calls, list) else []:
        function = call.get("function") if isinstance(call, Mapping) else None
        function = function if isinstance(function, Mapping) else {}
        out.append(
            {
                "id": call.get("id") if isinstance(call, Mapping) else None,
                "name": function.get("name"),
                "arguments": parsed_arguments(function.get("arguments")),
            }
        )
    return out


def answers_after_last_assistant(messages: Sequence[Any]) -> list[Any]:
    """`tool_call_id`s of the tool messages after the last assistant message, sorted.

    Sorted: the order of the answers is a SHOULD with its own check
    (wire.tool-answers-in-call-order), never a condition here.
    """
    index = max((i for i, m in enumerate(messages) if role(m) == "assistant"), default=-1)
    ids = [m.get("tool_call_id") for m in messages[index + 1 :] if role(m) == "tool"]
    return sorted(ids, key=lambda i: json.dumps(i))


_MAX_DOUBLE: Final = int(sys.float_info.max)


def json_equal_form(value: Any) -> Any:
    """The form in which two JSON values compare exactly when they are §2 JSON-equal.

    §2: "numbers are compared by value". A runtime may re-encode 5 as 5.0 or
    1e17 as 100000000000000000; so an integral float becomes the integer it
    equals (exactly: Python ints are unbounded). Booleans stay booleans, and
    nothing else changes: strings are never touched. An integer beyond ±(2^53 - 1)
    stands for the IEEE double it denotes (I-JSON, RFC 7493 §2.2: no receiver
    keeps it exact): a runtime that parses -5.1708572662861008e16 into a double
    and writes it back as -51708572662861010 sends the same number.
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and IJSON_MAX_INT < abs(value) <= _MAX_DOUBLE:
        return int(float(value))
    if isinstance(value, dict):
        return {key: json_equal_form(item) for key, item in value.items()}
    if isinstance(value, Multiset):
        return Multiset(json_equal_form(item) for item in value)
    if isinstance(value, list):
        return [json_equal_form(item) for item in value]
    return value


def expect_json_equal(tp: Scenario, check_id: str, observed: Any, expected: Any, *, what: str) -> None:
    """`tp.expect` under §2 JSON-equality (numbers by value), for argument values."""
    tp.expect(check_id, json_equal_form(observed), json_equal_form(expected), what=what)


def received_arguments(tp: Scenario, route: str | None = None) -> list[Any]:
    """§7 "the tool receives": `params.arguments` of every tools/call, in arrival order.

    A request without `arguments` passes none, which §7 defines as `{}` (MCP makes the key
    optional); a present value, `null` included, is read as sent.
    """
    out = []
    for request in tp.tool_calls_received(route):
        params = request.rpc_params if isinstance(request.rpc_params, Mapping) else {}
        out.append(params.get("arguments", {}))
    return out


def canonical(value: Any) -> str:
    """One text per JSON-equal class of values (sorted keys, numbers by value)."""
    return json.dumps(json_equal_form(value), sort_keys=True, default=repr)


def as_multiset(values: Sequence[Any]) -> Multiset:
    """`values` in a canonical order, for comparing collections whose order the contract leaves open;
    `tp.expect` pairs each observed item with its closest expected one (toolproof.judge.jsondiff)."""
    return Multiset(sorted(values, key=canonical))


def expect_not_called_path(
    tp: Scenario, check_id: str, option: str, outcome: Outcome, *, what: str, turn: int = 0
) -> None:
    """A call the tool never saw, handled as the declared `tool_error_message` or `run_error`.

    `tool_error_message`: the run goes on (the script's last reply ends it) and
    the next model request answers every call of the reply to model turn `turn`
    (0: the build's first).
    `run_error`: the run fails with kind `tool_error`.
    """
    if option == "tool_error_message":
        tp.expect_outcome(
            check_id,
            outcome,
            {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
            what=f"{what}: declared tool_error_message, so the run goes on",
        )
        turns = answered(tp)
        first_calls = sorted((c["id"] for c in sent_calls(turns[turn])), key=json.dumps)
        tp.expect(
            check_id,
            answers_after_last_assistant(messages_of(turns[turn + 1])),
            first_calls,
            what=f"{what}: tool_call_ids of the tool messages in the next model request",
        )
    elif option == "run_error":
        tp.expect_outcome(
            check_id,
            outcome,
            {"ok": False, "kind": "tool_error"},
            what=f"{what}: declared run_error",
        )
    else:  # pragma: no cover - options.yaml allows no other value here
        raise ValueError(f"no not-called path for option value {option!r}")


def expect_tool_failure_path(
    tp: Scenario, check_id: str, crash: str, *, transport: str | None = None
) -> None:
    """alpha's `crash` tool (`crash_http`: HTTP 500 on its tools/call; `crash_close`: the connection
    dropped), called once on a build of alpha alone (over `transport`, else the run's): the path
    the declared `tool_failure` obliges, exactly."""
    tp.script(Call(f"alpha/{crash}", "{}"), Text(FINAL_TEXT))
    tp.build(tp.config({"alpha": tp.server("alpha", transport=transport)}))
    outcome = tp.run("Call the failing tool.", judged=True)
    option = tp.option("tool_failure")
    if option == "tool_error_message":
        expect_not_called_path(tp, check_id, option, outcome, what=f"{crash} failed mid-call")
        return
    tp.expect_outcome(
        check_id, outcome, {"ok": False, "kind": "tool_error"}, what=f"declared run_error: {crash}"
    )
    tp.expect(
        check_id,
        len(answered(tp)),
        1,
        what="declared run_error: model turns (none may follow the failed call)",
    )


def expect_every_request_answered_with(tp: Scenario, check_id: str, note: str, *, what: str) -> None:
    """Record under `check_id` that the run's model requests were all answered with the scripted
    `note` and that there was one: a runtime ending the run without asking the model would
    otherwise pass a check about how it ends (how many attempts it makes is its own)."""
    tp.expect(
        check_id,
        sorted({request.note for request in tp.model_requests()}),
        [note],
        what=f"{what}: what answered the run's model requests (none: the model was never asked)",
    )


def not_streaming(tp: Scenario, *check_ids: str) -> bool:
    """Record not_testable for a candidate that does not stream; True when it does not."""
    if tp.option("model_stream") == "always":
        return False
    for check_id in check_ids:
        tp.not_testable(check_id, "declares model_stream never: its model requests are not streamed")
    return True


def input_items(request: ModelRequest, *, resolved: bool = False) -> list[Any]:
    """A Responses request's `input` items: as sent, or (`resolved`) the conversation it stands for,
    stored items resolved (`ModelRequest.conversation_body`); [] when there is no such list (the
    request schema judges that)."""
    body = request.conversation_body if resolved else request.json
    given = body.get("input") if isinstance(body, Mapping) else None
    return list(given) if isinstance(given, list) else []
