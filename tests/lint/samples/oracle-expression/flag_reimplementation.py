# ruff: noqa
"""The seed's selectScopedOnly: the test copies the production loop and computes the winner itself."""

from typing import Any

from toolproof.plugin.scenario import Scenario


def select_scoped_only(servers: dict[str, dict[str, Any]]) -> list[str]:  # flag: oracle-expression
    winners: dict[str, str] = {}
    for name, server in sorted(servers.items()):
        key = server.get("dedup_key")
        if key and (key not in winners or server.get("dedup_preferred")):
            winners[key] = name
    return sorted(winners.values())


def test_copied_loop(tp: Scenario) -> None:
    servers = {"balda": tp.server("balda", dedup_key="k"), "scoped": tp.server("balda", dedup_key="k")}
    tp.build(tp.config(servers))
    tp.run("x")
    routes = sorted({r.query for r in tp.mcp_requests("balda")})
    tp.expect("dedup.balda-scoped-only", routes, select_scoped_only(servers), what="w")


def test_expected_assembled_in_a_loop(tp: Scenario) -> None:
    servers = {"a": {"preferred": True}, "b": {"preferred": False}}
    expected = []
    for name, server in servers.items():
        if server["preferred"]:
            expected.append(name)  # flag: oracle-expression
    tp.expect("dedup.balda-scoped-only", sorted(r.route for r in tp.mcp_requests()), expected, what="w")


def test_expected_picked_by_the_observation(tp: Scenario) -> None:
    outcome = tp.run("x")
    tp.expect_outcome(
        "loop.cap-end-text",
        outcome,
        {"ok": True} if outcome.ok else {"ok": False, "kind": "max_tool_turns"},  # flag: oracle-expression
        what="w",
    )
