# ruff: noqa
"""Index guards, violation filters and early `<...>` notes steer; they decide no verdict."""

from typing import Any

from toolproof.plugin.scenario import Scenario


def answer(tp: Scenario, k: int) -> list[Any]:
    served = [r for r in tp.model_requests() if r.status == 200]
    if k + 1 >= len(served):
        return [f"<no model request {k + 1}>"]
    return [served[k + 1].json]


def test_guarded_index(tp: Scenario) -> None:
    bodies = tp.model_bodies()
    firsts = [bodies[k] if k < len(bodies) else {} for k in (0, 2)]
    late = [i for i, b in enumerate(bodies) if i + 1 < len(bodies)]
    tp.expect("cont.none-in-first-request", [firsts, late, answer(tp, 0)], [[{}, {}], [], []], what="w")


def test_violations_collected(tp: Scenario) -> None:
    violations = []
    for k, body in enumerate(tp.model_bodies()):
        found = [m for m in body["messages"] if m.get("role") == "user"]
        if len(found) > 1 or any(m.get("content") == "" for m in found):
            violations.append({"request": k, "users": len(found)})
    tp.expect("cont.at-most-one", violations, [], what="w")


def test_parameters_compare(tp: Scenario, cap: int = 3) -> None:
    reached = cap >= 2
    tp.expect("loop.cap-exact", len(tp.tool_calls_received()), 2 if reached else cap, what="w")
