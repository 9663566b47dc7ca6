"""The Anthropic Messages API wire, non-streaming (CONTRACT.md §6c; contracts/requirements/anthropic.yaml).

A candidate claiming `anthropic.messages` runs every `model.*` test of the
suite on this wire: the fake answers `POST /v1/messages` from the same scripts,
and the checks read its requests through the view. Six invariants judge every
request of every test on the raw body (`anthropic.endpoint`,
`anthropic.request-schema`, `anthropic.results-paired`,
`anthropic.no-empty-text`, `anthropic.no-blank-text`,
`anthropic.tool-name-pattern`). The tests here judge what the view does not
carry: the `is_error` flag of each `tool_result` (tp-anth-error-flag), the
shape an empty result takes (tp-anth-empty-result: the Messages counterpart of
`result.empty` and `result.no-content-block`, which are `openai.*`), and MCP
names outside the Messages pattern, dotted or of 130 characters
(tp-anth-invalid-tool-name). They read the raw request
(a `ModelRequest`'s `json`) where the view hides what they judge, and a tool's text
through the view, as test_results.py reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.fakes import NAMES_OVERLONG_TOOL, Call, Text, ToolCalls
from toolproof.plugin.scenario import Scenario, tool_texts, wire_name_for

from ._calls import FINAL_TEXT
from .test_results import answers, as_call_tool_result, echo, parsed, text_block
from .test_wire import NAME_CASES, NameCase

NO_CONTENT: Final = "<no content key>"
"""How `wire_results` shows a `tool_result` without `content` (anthropic_empty_result no_content)."""
MESSAGES_NAME: Final = re.compile(r"[a-zA-Z0-9_-]{1,128}")
"""The Messages API's tool name pattern (tp-anth-tool-name-pattern), matched whole."""
ONE_VALID_NAME: Final = "one offered tool, under a valid Messages tool name"
MESSAGES_NAME_CASES: Final = {
    "dotted": NAME_CASES["dotted"],
    "overlong": NameCase(
        servers={"names": "names_overlong"},
        tools=(f"names_overlong/{NAMES_OVERLONG_TOOL}",),
        results=("overlong ok",),
        received={"names_overlong": [NAMES_OVERLONG_TOOL]},
    ),
}
"""The MCP names outside the Messages API's pattern, one kind per build (a dotted name; 130 characters,
past 128): the 70-character names of test_wire.py are valid on this wire."""


def wire_results(tp: Scenario, k: int) -> list[Any]:
    """The `tool_result` blocks answering reply k's calls, in call order, as raw request k+1 carries
    them, each read as `{"content": ..., "is_error": ...}` (`content` NO_CONTENT when absent;
    `is_error` absent reads false: the guide sets it only for an error).

    Matched by `tool_use_id` anywhere in the request's messages (where they stand is
    anthropic.results-paired's); a call without one, or no request k+1, shows as a `<...>` note.
    """
    served = [r for r in tp.model_requests() if r.status == 200]
    if k + 1 >= len(served):
        return [f"<no model request {k + 1}: {len(served)} requests were answered>"]
    body = served[k + 1].json
    messages = body.get("messages") if isinstance(body, Mapping) else None
    blocks = [
        block
        for message in (messages if isinstance(messages, list) else [])
        if isinstance(message, Mapping) and isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, Mapping) and block.get("type") == "tool_result"
    ]
    by_id = {
        block.get("tool_use_id"): {
            "content": block.get("content", NO_CONTENT),
            "is_error": block.get("is_error", False),
        }
        for block in blocks
    }
    reply = served[k].message or {}
    return [by_id.get(c["id"], f"<no tool_result for call {c['id']}>") for c in reply.get("tool_calls") or []]


def flags(results: list[Any]) -> list[Any]:
    """The `is_error` of each of `wire_results`' entries (a `<...>` note stays as it is)."""
    return [r["is_error"] if isinstance(r, Mapping) else r for r in results]


FAILURE: Final = "lookup failed: no such record\n  (code 42) "
PLAIN: Final = Call("alpha/lookup", '{"q": "plain"}')
"""A call beside each failing one: its result is no error."""
ERROR_CASES: Final = {
    "is-error": (Call("alpha/report_error", json.dumps({"text": FAILURE})), None),
    "is-error-empty": (Call("alpha/report_error", '{"text": ""}'), None),
    "unknown-tool": (Call(name="no_such_tool", arguments='{"q": "x"}'), "unknown_tool"),
    "tool-failure": (Call("alpha/crash_http", "{}"), "tool_failure"),
}
"""Per case: the failing call, and the option under which its result reaches the model (None: always).
`is-error-empty`, an isError result of one empty text block: the API refuses `is_error: true`
without content, so its text is the runtime's own (never judged here) and
`anthropic.no-empty-text` judges that it has some."""


@pytest.mark.checks("anthropic.error-results-flagged")
@pytest.mark.capability("anthropic.messages")
@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_failed_calls_and_is_error_results_are_flagged(tp: Scenario, case: str) -> None:
    """A batch of the failing call and a plain one: the failing call's `tool_result` has `is_error`
    true, the plain one's not (upstream-anth-is-error: never set, the model read failures as
    results). The text the model gets is tp-result-is-error's (read through the view): one defect,
    one failure."""
    failing, option = ERROR_CASES[case]
    if option is not None and tp.option(option) != "tool_error_message":
        tp.not_testable(
            "anthropic.error-results-flagged",
            f"{option} is declared run_error: no tool_result follows (tp-err-* judge the run)",
        )
        return
    tp.script(ToolCalls((failing, PLAIN)), Text(FINAL_TEXT))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("Call both tools.", judged=True)
    tp.expect(
        "anthropic.error-results-flagged",
        flags(wire_results(tp, 0)),
        [True, False],
        what=f"is_error of the tool_result of the {case} call, then of the plain call",
    )
    tp.expect_outcome(
        "anthropic.error-results-flagged",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what=f"the run after the {case} call",
    )


@pytest.mark.checks("anthropic.empty-result-per-option")
@pytest.mark.capability("anthropic.messages")
def test_empty_results_are_sent_as_declared(tp: Scenario) -> None:
    """One empty text block and no content block: where the model gets empty text, the `tool_result`
    is what anthropic_empty_result declares (never `content: ""`, which the API refuses:
    upstream-anth-empty-result); under the JSON encodings the result is no empty text, and the
    model gets what tp-result-empty and tp-result-no-block say of those encodings."""
    tp.script(
        ToolCalls((echo(""), Call("alpha/multi_block", '{"blocks": []}'))),
        Text(FINAL_TEXT),
    )
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("Return nothing.", judged=True)
    encoding = tp.option("tool_result_encoding")
    if encoding in ("text", "json_texts"):
        declared = tp.option("anthropic_empty_result")
        content: Any = NO_CONTENT  # no_content
        if declared == "empty_array":
            content = []
        elif declared == "placeholder" and tp.option("tool_content") == "text_parts":
            content = [text_block(tp.option("anthropic_empty_placeholder"))]
        elif declared == "placeholder":
            content = tp.option("anthropic_empty_placeholder")
        empty = {"content": content, "is_error": False}
        tp.expect(
            "anthropic.empty-result-per-option",
            wire_results(tp, 0),
            [empty, empty],
            what=(
                "tool_results of one empty text block and of no content block (anthropic_empty_result "
                f"{tp.option('anthropic_empty_result')}, tool_result_encoding {encoding})"
            ),
        )
    elif encoding == "json_blocks":
        tp.expect(
            "anthropic.empty-result-per-option",
            [answers(tp, 0)[:1], [parsed(t) for t in answers(tp, 0, pointer="")[1:]]],
            [[""], [[]]],
            what="the empty block's text at the declared pointer, and the JSON of no block (json_blocks)",
        )
    else:
        tp.expect(
            "anthropic.empty-result-per-option",
            [answers(tp, 0)[:1], [as_call_tool_result(t) for t in answers(tp, 0, pointer="")[1:]]],
            [[""], [{"content": [], "isError": False}]],
            what="the empty block's text at the declared pointer, and the CallToolResult of no block",
        )
    tp.expect_outcome(
        "anthropic.empty-result-per-option",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what="the run after two empty results",
    )


def _offered_validly(names: list[str]) -> Any:
    """ONE_VALID_NAME when exactly one valid Messages tool name carries the marker; else those names."""
    return ONE_VALID_NAME if len(names) == 1 and MESSAGES_NAME.fullmatch(names[0]) else names


@pytest.mark.checks("anthropic.invalid-name-per-option")
@pytest.mark.capability("anthropic.messages")
@pytest.mark.parametrize("kind", list(MESSAGES_NAME_CASES))
def test_an_invalid_mcp_name_is_handled_as_declared(tp: Scenario, kind: str) -> None:
    """`balda.control.shutdown`, and a name of 130 characters, are outside ^[a-zA-Z0-9_-]{1,128}$
    (upstream-anth-tool-name: offered unchanged, every request was refused). alias: one valid name in
    every request of two runs and a second build, the call reaching the server under the MCP name;
    reject: invalid_config in duplicate_tool_phase, and no model request."""
    case = MESSAGES_NAME_CASES[kind]
    (marker,) = case.tools
    config = tp.config({server: tp.server(route) for server, route in case.servers.items()})
    if tp.option("invalid_tool_name") == "reject":
        tp.script(Text("never asked"))
        build = tp.build(config, judged=True)
        first = tp.run("Use the tool.", judged=True)
        in_build = tp.option("duplicate_tool_phase") == "build"
        tp.expect_outcome(
            "anthropic.invalid-name-per-option",
            first if not in_build else build,
            {"ok": False, "kind": "invalid_config"},
            what=f"{'build' if in_build else 'first run'} with a {kind} MCP name (invalid_tool_name reject)",
        )
        tp.expect(
            "anthropic.invalid-name-per-option",
            len(tp.model_requests()),
            0,
            what="model requests of the build",
        )
        return
    tp.script(Call(marker), Text("first done"), Text("second done"))
    tp.build(config)
    first = tp.run("Use the tool once.", judged=True)
    second = tp.run("Anything else?", judged=True)
    other = tp.sibling()
    other.script(Text("other done"))
    other.build(other.config({server: other.server(route) for server, route in case.servers.items()}))
    third = other.run("Anything?", judged=True)
    bodies = [r.view for r in tp.model_requests() + other.model_requests()]
    offered = [wire_name_for(b, marker) if isinstance(b, Mapping) else [] for b in bodies]
    tp.expect(
        "anthropic.invalid-name-per-option",
        [_offered_validly(names) for names in offered],
        [ONE_VALID_NAME] * 4,
        what=f"per request (two runs, then a second build), the offered tools carrying {marker}",
    )
    tp.expect(
        "anthropic.invalid-name-per-option",
        len({name for names in offered for name in names}),
        1,
        what="how many distinct wire names the tool had over both runs of one build and a second build",
    )
    tp.expect(
        "anthropic.invalid-name-per-option",
        {route: [r.rpc_params.get("name") for r in tp.tool_calls_received(route)] for route in case.received},
        case.received,
        what="per route, the tool names of the tools/call requests it received",
    )
    answered = tp.model_bodies()
    tp.expect(
        "anthropic.invalid-name-per-option",
        tool_texts(answered[1], tp.declared)[-1:] if len(answered) > 1 else "<no second request>",
        list(case.results),
        what="the result the model received for the call to the aliased tool",
    )
    tp.expect_outcome(
        "anthropic.invalid-name-per-option",
        first,
        {"ok": True, "stop_reason": "completed", "output": "first done"},
        what="first run (calls the aliased tool once)",
    )
    tp.expect_outcome(
        "anthropic.invalid-name-per-option",
        second,
        {"ok": True, "stop_reason": "completed", "output": "second done"},
        what="second run on the build",
    )
    tp.expect_outcome(
        "anthropic.invalid-name-per-option",
        third,
        {"ok": True, "stop_reason": "completed", "output": "other done"},
        what="run on the second build",
    )
