"""MCP toolset composition and explicit dedup: the balda golden, tenant isolation, and properties.

Literal rule-by-rule scenarios live in test_toolsets_dedup.py,
test_toolsets_namespace.py and test_toolsets_validation.py. The properties
here draw server ids and keys with non-ASCII, case variants and
leading/trailing whitespace (toolproof/strategies/toolsets.py); each
server sits on the `tenant` route with its own `tenant=t<i>` query, so every
server offers its own tool and collapse shows on the wire. Each example is a
whole build and run: few examples, and no shrinking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, Text, ToolCalls
from toolproof.plugin.scenario import ABSENT, Scenario, tool_texts
from toolproof.strategies.toolsets import Layout, Member, opaque_layout, survivor_layout

from .toolsets_support import (
    Endpoint,
    build_and_run,
    expected_views,
    first_body,
    foreign_pairs,
    offered_tenant_tools,
    own_views,
    unique_sorted,
)

DEDUP = "toolsets.dedup_key"
WIRE = "model.*"  # any model wire
PROPERTY = settings(
    max_examples=5,
    deadline=None,
    database=None,
    # Each example is a whole build and run (two for the order property): shrinking would cost minutes.
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.checks("dedup.balda-scoped-only", "dedup.balda-call-carries-token")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_balda_session_memory_golden(tp: Scenario) -> None:
    """Seed ru §3-§5a: the scoped binding must win, through the public build path."""
    key = "balda-bundled-mcp"
    tp.script(Call("balda/session_memory_read", "{}"), Text("remembered"))
    config = tp.config(
        {
            "balda": tp.server("balda", dedup_key=key),
            "balda-session-memory-abc123": tp.server(
                "balda", query="balda_context=abc123", dedup_key=key, dedup_preferred=True
            ),
        }
    )
    build = tp.build(config, judged=True)
    run = tp.run("What do you remember?", judged=True) if build.ok else build
    tp.expect_outcome("dedup.balda-scoped-only", run, {"ok": True}, what="build and run of the balda pair")
    calls = [(r.query, r.rpc_params.get("name")) for r in tp.tool_calls_received("balda")]
    tp.expect(
        "dedup.balda-call-carries-token",
        calls,
        [("balda_context=abc123", "session_memory_read")],
        what="tools/call requests at the balda route (query, tool)",
    )
    tp.expect(
        "dedup.balda-call-carries-token",
        tool_texts(tp.model_bodies()[-1], tp.declared),
        ["context=abc123"],
        what="what the session-memory tool returned to the model",
    )
    tp.expect(
        "dedup.balda-scoped-only",
        sorted({r.query for r in tp.mcp_requests("balda")}),
        ["balda_context=abc123"],
        what="raw query strings of every request the balda route received",
    )


# -- tp-dedup-tenant-isolation -----------------------------------------------------------

ISOLATED = {
    "alpha": Endpoint(
        "alpha",
        "tenant=alpha-q",
        {"Authorization": "Bearer alpha-token", "X-Tp-Alpha-Secret": "alpha-secret"},
    ),
    "balda": Endpoint(
        "balda",
        "tenant=balda-q",
        {"Authorization": "Bearer balda-token", "X-Tp-Balda-Secret": "balda-secret"},
    ),
    "tenant": Endpoint(
        "tenant", "tenant=t1", {"Authorization": "Bearer tenanttoken", "X-Tp-Tenant-Secret": "tenant-secret"}
    ),
}


@pytest.mark.checks("dedup.isolation-own-query-and-headers", "dedup.isolation-no-foreign-headers")
@pytest.mark.capability(WIRE)
def test_each_server_gets_only_its_own_query_and_headers(tp: Scenario) -> None:
    """Three servers, each with its own query, Authorization and secret header; one call to each."""
    tp.script(
        ToolCalls(
            (
                Call("alpha/lookup", '{"q": "1"}'),
                Call("balda/balda_status", "{}"),
                Call("tenant/tenant_t1_lookup", '{"q": "3"}'),
            )
        ),
        Text("done"),
    )
    servers = {sid: tp.server(e.route, query=e.query, headers=e.headers) for sid, e in ISOLATED.items()}
    _, run = build_and_run(tp, servers, "Ask everyone.")
    check = "dedup.isolation-own-query-and-headers"
    tp.expect_outcome(check, run, {"ok": True}, what="build and run of three servers with headers")
    tp.expect(
        check,
        {route: len(tp.tool_calls_received(route)) for route in ISOLATED},
        {"alpha": 1, "balda": 1, "tenant": 1},
        what="tools/call requests per route",
    )
    requests = tp.mcp_requests()
    endpoints = list(ISOLATED.values())
    tp.expect(
        check,
        own_views(requests, endpoints),
        unique_sorted(
            [
                {
                    "route": "alpha",
                    "query": "tenant=alpha-q",
                    "headers": {
                        "Authorization": ["Bearer alpha-token"],
                        "X-Tp-Alpha-Secret": ["alpha-secret"],
                    },
                },
                {
                    "route": "balda",
                    "query": "tenant=balda-q",
                    "headers": {
                        "Authorization": ["Bearer balda-token"],
                        "X-Tp-Balda-Secret": ["balda-secret"],
                    },
                },
                {
                    "route": "tenant",
                    "query": "tenant=t1",
                    "headers": {
                        "Authorization": ["Bearer tenanttoken"],
                        "X-Tp-Tenant-Secret": ["tenant-secret"],
                    },
                },
            ]
        ),
        what="raw query and configured-header values of every MCP request (distinct)",
    )
    tp.expect(
        "dedup.isolation-no-foreign-headers",
        foreign_pairs(requests, endpoints),
        [],
        what="header pairs configured only for another server that reached a request",
    )


# -- properties ------------------------------------------------------------------------------


def _tool(member: Member) -> str:
    """The MCP name of the one tool member i's endpoint offers."""
    return f"tenant_{member.tenant}_lookup"


def _endpoint(member: Member) -> Endpoint:
    """Member i: query tenant=t<i>; a shared header name with its own value, and a header of its own."""
    headers = {
        "X-Tp-Secret": f"secret-{member.tenant}",
        f"X-Tp-Only-{member.tenant}": f"only-{member.tenant}",
    }
    return Endpoint("tenant", f"tenant={member.tenant}", headers)


def _build_members(tp: Scenario, members: Sequence[Member]) -> tuple[Scenario, Outcome]:
    """A fresh build of `members` in this config order, run once; (its scenario, the run outcome)."""
    scenario = tp.sibling()
    scenario.script(Text("done"))
    servers: dict[str, dict[str, Any]] = {}
    for member in members:
        endpoint = _endpoint(member)
        servers[member.id] = scenario.server(
            "tenant",
            query=endpoint.query,
            headers=endpoint.headers,
            dedup_key=ABSENT if member.key is None else member.key,
            dedup_preferred=True if member.preferred else ABSENT,
        )
    return scenario, build_and_run(scenario, servers)[1]


def _offered_of(offered: list[str], members: Sequence[Member]) -> list[str]:
    """The offered tenant tools that belong to `members` (repeats kept)."""
    mine = {_tool(m) for m in members}
    return [name for name in offered if name in mine]


def _expect_isolation(tp: Scenario, scenario: Scenario, members: Sequence[Member]) -> None:
    """Every request carried its own server's query and headers, and no other server's header pair."""
    requests = scenario.mcp_requests()
    endpoints = [_endpoint(m) for m in members]
    tp.expect(
        "dedup.isolation-own-query-and-headers",
        own_views(requests, endpoints),
        expected_views(requests, endpoints),
        what="raw query and configured-header values of every MCP request (distinct)",
    )
    tp.expect(
        "dedup.isolation-no-foreign-headers",
        foreign_pairs(requests, endpoints),
        [],
        what="header pairs configured only for another server that reached a request",
    )


@PROPERTY
@given(layout=survivor_layout())
@pytest.mark.checks(
    "dedup.order-independent",
    "dedup.preferred-survives-any-ids",
    "dedup.smallest-id-survives-any-ids",
    "dedup.isolation-own-query-and-headers",
    "dedup.isolation-no-foreign-headers",
)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_survivor_rule_for_any_ids_and_order(tp: Scenario, layout: Layout) -> None:
    """A group with one preferred member and one without, built in a drawn order and reversed.

    Both orders offer the same tools; the preferred member wins its group; the
    other group's survivor is min(ids) in UTF-8 byte order; every request
    carries its own server's query and headers only.
    """
    scenario, run = _build_members(tp, layout.members)
    reversed_order, _ = _build_members(tp, layout.members[::-1])
    offered = offered_tenant_tools(first_body(scenario))
    what = f"run {run.ok} {run.kind}; config order {[m.id for m in layout.members]}"
    tp.expect(
        "dedup.order-independent",
        offered_tenant_tools(first_body(reversed_order)),
        offered,
        what=f"offered tools with the servers reversed vs in the drawn order ({what})",
    )
    preferred_group, plain_group = layout.groups.values()
    (preferred,) = [m for m in preferred_group if m.preferred]
    tp.expect(
        "dedup.preferred-survives-any-ids",
        _offered_of(offered, preferred_group),
        [_tool(preferred)],
        what=f"offered tools of the group with preferred {preferred.id!r} ({what})",
    )
    ids = {m.id: m for m in plain_group}
    smallest = ids[min(ids, key=lambda s: s.encode())]
    tp.expect(
        "dedup.smallest-id-survives-any-ids",
        _offered_of(offered, plain_group),
        [_tool(smallest)],
        what=f"offered tools of the group {sorted(ids)} without preference ({what})",
    )
    _expect_isolation(tp, scenario, layout.members)


@settings(PROPERTY, max_examples=4)  # six servers per example
@given(layout=opaque_layout())
@pytest.mark.checks("dedup.distinct-keys-never-collapse", "dedup.key-variants-never-collapse")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_distinct_keys_never_collapse(tp: Scenario, layout: tuple[list[Member], list[Member]]) -> None:
    """Keys distinct in every sense, and keys differing only bytewise: every server is offered."""
    distinct, similar = layout
    scenario, run = _build_members(tp, [*distinct, *similar])
    offered = offered_tenant_tools(first_body(scenario))
    tp.expect(
        "dedup.distinct-keys-never-collapse",
        _offered_of(offered, distinct),
        sorted(_tool(m) for m in distinct),
        what=f"offered tools of servers with keys {[m.key for m in distinct]} (run {run.ok} {run.kind})",
    )
    tp.expect(
        "dedup.key-variants-never-collapse",
        _offered_of(offered, similar),
        sorted(_tool(m) for m in similar),
        what=f"offered tools of servers with keys {[m.key for m in similar]} (run {run.ok} {run.kind})",
    )
