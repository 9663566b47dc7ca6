"""Error paths: unknown tools, failing MCP servers, failing model endpoint.

CONTRACT.md §10; contracts/requirements/calls.yaml. Failure messages are
never contract: only the declared path (a tool message and the run goes on,
or the run fails with its kind) is pinned.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from toolproof.fakes import AlwaysFail, Call, HttpError, Text
from toolproof.plugin.scenario import Scenario

from ._calls import (
    FINAL_TEXT,
    answered,
    answers_after_last_assistant,
    expect_not_called_path,
    expect_tool_failure_path,
    messages_of,
    sent_calls,
)

SERVER_ERROR: Final = HttpError(
    500,
    {"error": {"message": "toolproof: scripted 500", "type": "server_error", "param": None, "code": None}},
)


def _alpha(tp: Scenario, *replies: Any) -> None:
    tp.script(*replies)
    tp.build(tp.config({"alpha": tp.server("alpha")}))


def _tools_called(tp: Scenario) -> list[Any]:
    """(route, tool name) of every tools/call any server received for this build."""
    return [
        (r.route, r.rpc_params.get("name") if isinstance(r.rpc_params, dict) else None)
        for r in tp.tool_calls_received()
    ]


@pytest.mark.checks("err.unknown-tool-per-option")
@pytest.mark.capability("model.*")
def test_unknown_tool_goes_the_declared_way(tp: Scenario) -> None:
    _alpha(tp, Call(name="no_such_tool", arguments='{"q": "x"}'), Text(FINAL_TEXT))
    outcome = tp.run("Call a tool that does not exist.", judged=True)
    tp.expect(
        "err.unknown-tool-per-option",
        _tools_called(tp),
        [],
        what="tools/call requests any server received for a call to an unoffered name",
    )
    expect_not_called_path(
        tp, "err.unknown-tool-per-option", tp.option("unknown_tool"), outcome, what="unknown tool"
    )


@pytest.mark.checks("err.tool-failure-http-500")
@pytest.mark.capability("model.*")
def test_tool_failure_http_500_goes_the_declared_way(tp: Scenario) -> None:
    expect_tool_failure_path(tp, "err.tool-failure-http-500", "crash_http")


@pytest.mark.checks("err.tool-failure-connection-dropped")
@pytest.mark.capability("model.*")
def test_tool_failure_connection_dropped_goes_the_declared_way(tp: Scenario) -> None:
    expect_tool_failure_path(tp, "err.tool-failure-connection-dropped", "crash_close")


@pytest.mark.checks("err.is-error-not-a-failure")
@pytest.mark.capability("model.*")
def test_is_error_result_lets_the_run_go_on(tp: Scenario) -> None:
    """Whatever tool_failure declares: isError is a result, not a failure (its text: results area)."""
    _alpha(tp, Call("alpha/report_error", '{"text": "disk full"}'), Text(FINAL_TEXT))
    outcome = tp.run("Call the tool that reports an error.", judged=True)
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


RETRY_CAP: Final = 4
"""`max_tool_turns` of the retry test (loop.turn_cap claimed): two spare turns beyond its two batches."""


@pytest.mark.checks("err.model-retry-same-request", "err.model-error-kind")
@pytest.mark.capability("model.*")
def test_model_retry_repeats_the_request_and_is_not_a_turn(tp: Scenario) -> None:
    """A 500 before each of three model turns: two tool rounds, then the final text.

    With loop.turn_cap claimed the cap is set explicitly to RETRY_CAP (4) and the two
    batches stay well within it, so a cap defect that ends the run a batch early (or
    late) does not reach this check; a runtime that counted attempts against the cap
    (four by the end of the second batch) would stop before the final reply.
    """
    replies = (
        SERVER_ERROR,
        Call("alpha/lookup", '{"q": "retry"}'),
        SERVER_ERROR,
        Call("alpha/lookup", '{"q": "again"}'),
        SERVER_ERROR,
        Text(FINAL_TEXT),
    )
    tp.script(*replies)
    capped = "loop.turn_cap" in tp.declared.capabilities
    servers = {"alpha": tp.server("alpha")}
    tp.build(tp.config(servers, max_tool_turns=RETRY_CAP) if capped else tp.config(servers))
    outcome = tp.run("Look something up, even if the model endpoint hiccups.", judged=True)
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
        data = requests[index].view
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
    # The 500s are single failures of the same kind: a candidate that retries the first
    # retries the others too, so the run completes (retries are not turns: two batches, then text).
    tp.expect_outcome(
        "err.model-retry-same-request",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what="the run (retries are not turns: two batches, then the final text)",
    )


@pytest.mark.checks("err.model-error-kind")
@pytest.mark.capability("model.*")
def test_model_always_failing_is_a_model_error(tp: Scenario) -> None:
    """Every attempt is answered 500, without end: only the runtime's own bound can end the run.

    No finite script: a run of scripted 500s ends in the harness's "script exhausted" 400,
    which a client that would retry on forever treats as final (issue 12). Here such a
    client meets the harness's safety cap instead, and `expect_outcome` fails a run a
    safety net ended; one that never gives up before the run timeout fails by timeout.
    """
    _alpha(tp, AlwaysFail(SERVER_ERROR))
    outcome = tp.run("Anyone there?", judged=True)
    tp.expect_outcome(
        "err.model-error-kind",
        outcome,
        {"ok": False, "kind": "model_error"},
        what="a run whose every model request is answered HTTP 500 (every attempt, without end)",
    )
    tp.expect("err.model-error-kind", _tools_called(tp), [], what="tools/call requests during that run")
