# ruff: noqa
"""Literal expectations, one-line property rules, declared branches, and views of records."""

from typing import Any

from toolproof.plugin.scenario import Scenario


def cap_end(tp: Scenario, output: str) -> dict[str, Any]:
    """Declared branch: both written, each one expression."""
    if tp.option("turn_cap_end") == "graceful":
        return {"ok": True, "stop_reason": "max_tool_turns", "output": output}
    return {"ok": False, "kind": "max_tool_turns"}


def notice_for(tp: Scenario, cap: int, last_text: str) -> str:
    notice = tp.option("turn_cap_notice")
    return last_text if notice is None else str(notice).replace("{n}", str(cap))


def endpoint(tenant: str) -> dict[str, Any]:
    headers = {"X-Tp-Secret": f"secret-{tenant}"}
    return {"query": f"tenant={tenant}", "headers": headers}


def carried(previous: list[Any], current: list[Any]) -> list[Any]:
    """A view of two observed requests (called with observations): not an oracle."""
    kept = list(previous)
    if kept and kept[-1].get("role") == "user" and len(current) <= len(kept):
        kept.pop()
    return kept


def test_rules(tp: Scenario, cap: int = 2, stops_after: int = 1) -> None:
    outcome = tp.run("x")
    done = min(stops_after, cap)
    expected = {"calls": done, "end": cap_end(tp, notice_for(tp, cap, "")), "endpoint": endpoint("t1")}
    tp.expect(
        "loop.cap-property", {"calls": len(tp.tool_calls_received()), "end": outcome.ok}, expected, what="w"
    )


def test_view_as_expected(tp: Scenario) -> None:
    bodies = [b["messages"] for b in tp.model_bodies()]
    observed, expected = [], []
    for previous, current in zip(bodies, bodies[1:]):
        kept = carried(previous, current)
        observed.append(current[: len(kept)])
        expected.append(kept)
    tp.expect("hist.append-only", observed, expected, what="w")


def test_per_request_expectation(tp: Scenario) -> None:
    requests = tp.model_requests()
    tp.expect(
        "wire.tools-offered",
        [sorted(r.json or {}) for r in requests],
        [[] if i >= 3 else ["alpha"] for i in range(len(requests))],
        what="w",
    )
