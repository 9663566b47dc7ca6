"""Error paths: unknown tools, failing MCP servers, failing model endpoint.

CONTRACT.md §10; contracts/requirements/calls.yaml. Failure messages are
never contract: only the declared path (a tool message and the run goes on,
or the run fails with its kind) is pinned.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from toolproof.fakes import Call, HttpError, Text
from toolproof.plugin.scenario import Scenario

from ._calls import (
    FINAL_TEXT,
    answered,
    answers_after_last_assistant,
    expect_not_called_path,
    messages_of,
    roomy_config,
    sent_calls,
)

SERVER_ERROR: Final = HttpError(
    500,
    {"error": {"message": "toolproof: scripted 500", "type": "server_error", "param": None, "code": None}},
)
ALWAYS_FAILING: Final = 10
"""500 answers scripted for "every attempt": more than any sane client retries."""


def _alpha(tp: Scenario, *replies: Any) -> None:
    tp.script(*replies)
    tp.build(roomy_config(tp, {"alpha": tp.server("alpha")}))


def _tools_called(tp: Scenario) -> list[Any]:
    """(route, tool name) of every tools/call any server received for this build."""
    return [
        (r.route, r.rpc_params.get("name") if isinstance(r.rpc_params, dict) else None)
        for r in tp.tool_calls_received()
    ]


@pytest.mark.checks("err.unknown-tool-per-option")
@pytest.mark.capability("openai.chat")
def test_unknown_tool_goes_the_declared_way(tp: Scenario) -> None:
    _alpha(tp, Call(name="no_such_tool", arguments='{"q": "x"}'), Text(FINAL_TEXT))
    outcome = tp.run("Call a tool that does not exist.")
    tp.expect(
        "err.unknown-tool-per-option",
        _tools_called(tp),
        [],
        what="tools/call requests any server received for a call to an unoffered name",
    )
    expect_not_called_path(
        tp, "err.unknown-tool-per-option", tp.option("unknown_tool"), outcome, what="unknown tool"
    )


def _expect_tool_failure_path(tp: Scenario, check_id: str, crash: str) -> None:
    _alpha(tp, Call(f"alpha/{crash}", "{}"), Text(FINAL_TEXT))
    outcome = tp.run("Call the failing tool.")
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


@pytest.mark.checks("err.tool-failure-http-500")
@pytest.mark.capability("openai.chat")
def test_tool_failure_http_500_goes_the_declared_way(tp: Scenario) -> None:
    _expect_tool_failure_path(tp, "err.tool-failure-http-500", "crash_http")


@pytest.mark.checks("err.tool-failure-connection-dropped")
@pytest.mark.capability("openai.chat")
def test_tool_failure_connection_dropped_goes_the_declared_way(tp: Scenario) -> None:
    _expect_tool_failure_path(tp, "err.tool-failure-connection-dropped", "crash_close")


@pytest.mark.checks("err.is-error-not-a-failure")
@pytest.mark.capability("openai.chat")
def test_is_error_result_lets_the_run_go_on(tp: Scenario) -> None:
    """Whatever tool_failure declares: isError is a result, not a failure (its text: results area)."""
    _alpha(tp, Call("alpha/report_error", '{"text": "disk full"}'), Text(FINAL_TEXT))
    outcome = tp.run("Call the tool that reports an error.")
    tp.expect_outcome(
        "err.is-error-not-a-failure",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what="a run whose one tool call answered isError",
    )
    turns = answered(tp)
    tp.expect(
        "err.is-error-not-a-failure",
        answers_after_last_assistant(messages_of(turns[1])),
        sorted(call["id"] for call in sent_calls(turns[0])),
        what="tool_call_ids of the tool messages in the next model request",
    )


@pytest.mark.checks("err.model-retry-same-request", "err.model-error-kind")
@pytest.mark.capability("openai.chat")
def test_model_retry_repeats_the_request_and_is_not_a_turn(tp: Scenario) -> None:
    """A 500 on the first request and on the request after a tool round.

    With loop.turn_cap claimed the cap is 2 and only one batch runs: a
    runtime that counted attempts (two before the second turn) against the
    cap would stop before the final reply.
    """
    replies = (SERVER_ERROR, Call("alpha/lookup", '{"q": "retry"}'), SERVER_ERROR, Text(FINAL_TEXT))
    tp.script(*replies)
    capped = "loop.turn_cap" in tp.declared.capabilities
    servers = {"alpha": tp.server("alpha")}
    tp.build(tp.config(servers, max_tool_turns=2) if capped else tp.config(servers))
    outcome = tp.run("Look something up, even if the model endpoint hiccups.")
    requests = tp.model_requests()
    failed = [i for i, r in enumerate(requests) if r.status != 200]
    if not failed or failed[0] == len(requests) - 1:
        # No retry at all: the one attempt of that request failed, so every attempt did.
        tp.expect_outcome(
            "err.model-error-kind",
            outcome,
            {"ok": False, "kind": "model_error"},
            what="the candidate did not retry the failed first request",
        )
        tp.not_testable("err.model-retry-same-request", "the candidate does not retry model requests")
        return

    def request_view(index: int) -> dict[str, Any]:
        data = requests[index].json
        body: dict[str, Any] = data if isinstance(data, dict) else {}
        return {"messages": body.get("messages"), "tools": body.get("tools", "<no tools key>")}

    tp.not_testable(
        "err.model-error-kind",
        "the candidate retries: model_error is judged here only for a candidate that does not",
    )
    retried = [i for i in failed if i + 1 < len(requests)]
    tp.expect(
        "err.model-retry-same-request",
        [request_view(i + 1) for i in retried],
        [request_view(i) for i in retried],
        what="each request sent after a 500 (messages, tools) against the request that failed",
    )
    # Both 500s are single failures of the same kind: a candidate that retries the first
    # retries the second too, so the run completes (retries are not turns: one batch, then text).
    tp.expect_outcome(
        "err.model-retry-same-request",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what="the run (retries are not turns: one batch, then the final text)",
    )


@pytest.mark.checks("err.model-error-kind")
@pytest.mark.capability("openai.chat")
def test_model_always_failing_is_a_model_error(tp: Scenario) -> None:
    _alpha(tp, *([SERVER_ERROR] * ALWAYS_FAILING))
    outcome = tp.run("Anyone there?")
    tp.expect_outcome(
        "err.model-error-kind",
        outcome,
        {"ok": False, "kind": "model_error"},
        what=f"a run whose every model request is answered HTTP 500 ({ALWAYS_FAILING} scripted)",
    )
    tp.expect("err.model-error-kind", _tools_called(tp), [], what="tools/call requests during that run")
