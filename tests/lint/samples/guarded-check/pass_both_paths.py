# ruff: noqa
"""Branching on declared options or the transport; an observation choosing between two judged paths."""

from toolproof.plugin.scenario import Scenario


def test_declared_branch(tp: Scenario) -> None:
    outcome = tp.run("x")
    if tp.option("turn_cap_end") == "graceful":
        tp.expect_outcome(
            "loop.cap-end-text", outcome, {"ok": True, "stop_reason": "max_tool_turns"}, what="w"
        )
    else:
        tp.expect_outcome("loop.cap-end-text", outcome, {"ok": False, "kind": "max_tool_turns"}, what="w")


def test_transport_branch(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable("proto.unknown-op", "no wire in-process")
        return
    tp.expect("proto.unknown-op", tp.send_raw({"op": "x"}).get("ok"), False, what="w")


def test_may_retry(tp: Scenario) -> None:
    """The contract lets the candidate retry: each path judges what it did."""
    outcome = tp.run("x")
    failed = [r for r in tp.model_requests() if r.status != 200]
    if not failed:
        tp.expect_outcome("err.model-error-kind", outcome, {"ok": False, "kind": "model_error"}, what="w")
        tp.not_testable("err.model-retry-same-request", "the candidate does not retry")
        return
    tp.expect("err.model-error-kind", outcome.kind, None, what="w")
    tp.expect("err.model-retry-same-request", len(failed), 1, what="w")
