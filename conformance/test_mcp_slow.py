"""Slow tools and cancellation (CONTRACT.md §5e; contracts/requirements/slow.yaml).

The `slow` server's `stall` tool never answers in time: the server holds a call STALL_SECONDS (the
harness's own bound), or until the client cancels it; its `lookup` answers at once. A runtime
declares its tool timeout (`tool_timeout`): `config`, the server entry's `tool_timeout_s` (the
suite configures a short one, so the test stays cheap); a fixed number of seconds; or `none`, and
then every check here is not_testable. The abandoned call goes the declared `tool_failure` way
within the timeout and a margin, the runtime cancels it (a SHOULD, as in the MCP specification),
and the next call to the same server is answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.fakes import Call, McpRequest, Text
from toolproof.fakes.activity import CLIENT_LEFT
from toolproof.fakes.mcp_tools import SLOW_ROUTE, STALL_SECONDS, STALL_TOOL
from toolproof.plugin.scenario import Scenario, answers_in_call_order

from ._calls import FINAL_TEXT, answered, expect_not_called_path

ABANDONED: Final = "mcp.slow-call-abandoned-in-time"
CANCELLED: Final = "mcp.slow-call-cancelled"
NEXT_CALL: Final = "mcp.slow-next-call-answered"
CHECKS: Final = (ABANDONED, CANCELLED, NEXT_CALL)

CONFIG_TIMEOUT_S: Final = 1.0
"""The `tool_timeout_s` the suite configures (tool_timeout `config`): short, so the test is cheap."""
EARLY_S: Final = 0.5
"""How much earlier than its timeout the runtime's next step may come (its clock starts before the
call reaches the server)."""
MARGIN_S: Final = 5.0
"""How much later than its timeout the runtime's next step may come (cancelling, closing a session,
a busy machine)."""
MODERN_HTTP: Final = "2026-07-28"
"""The MCP revision at which streamable HTTP cancels a request by closing its response stream."""
LOOKUP_TEXT: Final = f"{SLOW_ROUTE}:after"
"""What the `lookup` called after the abandoned call answers."""


def waited_timeout(tp: Scenario) -> float | None:
    """The timeout the test waits out: the configured one (`config`) or the declared number; None,
    with every check recorded not_testable and why, for `none` or a number beyond the harness's
    own bound (a `stall` call answers after STALL_SECONDS)."""
    declared = tp.option("tool_timeout")
    if declared == "config":
        return CONFIG_TIMEOUT_S
    if declared == "none":
        reason = "declares tool_timeout none: the runtime waits as long as a tool takes"
    elif isinstance(declared, int | float) and declared + MARGIN_S < STALL_SECONDS:
        return float(declared)
    else:
        reason = (
            f"declares tool_timeout {declared!r}: beyond the harness's own bound (a stall call answers"
            f" after {STALL_SECONDS:g} s, and the margin is {MARGIN_S:g} s)"
        )
    for check_id in CHECKS:
        tp.not_testable(check_id, reason)
    return None


def in_window(moment: float | None, arrived: float, timeout: float) -> bool:
    """Whether `moment` falls within the window of `timeout` after the stall call `arrived`."""
    return moment is not None and timeout - EARLY_S <= moment - arrived <= timeout + MARGIN_S


def stall_calls(tp: Scenario) -> list[McpRequest]:
    """The tools/call requests of `stall` the `slow` server received."""
    return [
        r
        for r in tp.tool_calls_received(SLOW_ROUTE)
        if isinstance(r.rpc_params, Mapping) and r.rpc_params.get("name") == STALL_TOOL
    ]


def cancellation(tp: Scenario, stall: McpRequest, timeout: float) -> tuple[Any, Any, str]:
    """What shows that the runtime cancelled the abandoned `stall` call, and when; what it must be.

    Streamable HTTP at 2026-07-28 (the call's MCP-Protocol-Version): closing the call's response
    stream is the cancellation, and no notification is expected (the client's leaving is what the
    fake saw end that request). Every other transport and revision: one notifications/cancelled
    naming the call's id (on stdio the only way to cancel). Either within the timeout's window."""
    window = f"[{timeout - EARLY_S:g} s, {timeout + MARGIN_S:g} s] after the call arrived"
    if stall.transport == "http" and stall.header_values("mcp-protocol-version") == [MODERN_HTTP]:
        endings = [
            {"ending": e.ending, "within the window": in_window(e.ended_at, stall.arrived_at, timeout)}
            for e in tp.mcp.activity.exchanges()
            if e.token == tp.token and e.method == "POST" and e.arrived_at == stall.arrived_at
        ]
        return (
            endings,
            [{"ending": CLIENT_LEFT, "within the window": True}],
            f"the abandoned {STALL_TOOL} call over streamable HTTP at {MODERN_HTTP}: the client closes its"
            f" response stream before the server answered (the cancellation at that revision), {window}",
        )
    cancels = [
        {
            "requestId": r.rpc_params.get("requestId") if isinstance(r.rpc_params, Mapping) else None,
            "within the window": in_window(r.arrived_at, stall.arrived_at, timeout),
        }
        for r in tp.mcp_requests(SLOW_ROUTE)
        if r.rpc_method == "notifications/cancelled"
    ]
    return (
        cancels,
        [{"requestId": stall.rpc_id, "within the window": True}],
        f"each notifications/cancelled the {SLOW_ROUTE} server received over {stall.transport}: the"
        f" abandoned {STALL_TOOL} call's id ({stall.rpc_id!r}), {window}",
    )


def next_step_at(tp: Scenario, after: float) -> float | None:
    """When the runtime's next step after `after` came: the first model request that arrived
    later, or else the end of the run that was pending (None: neither)."""
    later = [r.arrived_at for r in tp.model_requests() if r.arrived_at > after]
    if later:
        return min(later)
    ends = [
        t.ended_at for token, t in tp.timings if token == tp.token and t.op == "run" and t.sent_at < after
    ]
    return ends[-1] if ends else None


@pytest.mark.checks(
    "mcp.slow-call-abandoned-in-time", "mcp.slow-call-cancelled", "mcp.slow-next-call-answered"
)
@pytest.mark.capability("model.*")
def test_a_tool_that_never_answers_is_abandoned_in_time(tp: Scenario) -> None:
    """The model calls `stall`, then `lookup` on the same server. `tool_error_message`: one run, the
    stall's tool message comes within the timeout and the lookup is answered in it. `run_error`: the
    first run fails with kind tool_error within the timeout; the second calls lookup."""
    timeout = waited_timeout(tp)
    if timeout is None:
        return
    failure = tp.option("tool_failure")
    tp.script(
        Call(f"{SLOW_ROUTE}/{STALL_TOOL}", "{}"),
        Call(f"{SLOW_ROUTE}/lookup", '{"q": "after"}'),
        Text(FINAL_TEXT),
    )
    server = tp.server(SLOW_ROUTE)
    if tp.option("tool_timeout") == "config":
        server["tool_timeout_s"] = CONFIG_TIMEOUT_S
    tp.build(tp.config({SLOW_ROUTE: server}))
    outcome = tp.run("Wait for the slow backend, then look it up.", judged=True)
    stalls = stall_calls(tp)
    tp.expect_needed(
        ABANDONED,
        len(stalls),
        1,
        what=f"tools/call requests of {STALL_TOOL} the {SLOW_ROUTE} server received",
    )
    arrived = stalls[0].arrived_at
    step = next_step_at(tp, arrived)  # before a second run's requests arrive
    expect_not_called_path(tp, ABANDONED, failure, outcome, what=f"the abandoned {STALL_TOOL} call")
    if failure == "run_error":
        tp.run("Now look it up.")
    turns = answered(tp)
    tp.expect(
        NEXT_CALL,
        {
            "calls": [r.rpc_params.get("name") for r in tp.tool_calls_received(SLOW_ROUTE)],
            "answer the model got": answers_in_call_order(turns[-1].view, tp.declared) if turns else [],
        },
        {"calls": [STALL_TOOL, "lookup"], "answer the model got": [LOOKUP_TEXT]},
        what=f"the tools/call requests the {SLOW_ROUTE} server received, and the lookup's answer in"
        " the last model request",
    )
    waited = None if step is None else round(step - arrived, 1)
    window = [round(timeout - EARLY_S, 1), round(timeout + MARGIN_S, 1)]
    # Needed: a call the runtime never abandoned in time is no abandoned call to cancel (one root
    # cause, one failure: the cancellation check is then undecided, blocked by this one).
    tp.expect_needed(
        ABANDONED,
        {"next step within the window": in_window(step, arrived, timeout)},
        {"next step within the window": True},
        what=f"seconds from the {STALL_TOOL} call to the runtime's next step (a model request, or the"
        f" run's end): {waited}; the window (timeout {timeout:g} s): {window}",
    )
    observed, expected, what = cancellation(tp, stalls[0], timeout)
    tp.expect(CANCELLED, observed, expected, what=what)
