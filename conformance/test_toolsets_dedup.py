"""Explicit dedup by `dedup_key`: literal golden scenarios, one per rule (CONTRACT.md §5).

Observed only at the MCP servers (which route, raw query and headers every
request carried) and at the model endpoint (which tools were offered). Most
servers sit on the `tenant` route: its tool name comes from the query
(`tenant=<v>` -> `tenant_<v>_lookup`) or the Bearer token
(`auth_<x>_lookup`), so collapsed vs not collapsed shows on the wire without
a duplicate-tool error.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from toolproof.fakes import Call, Text
from toolproof.plugin.scenario import ABSENT, Scenario

from .toolsets_support import (
    build_and_run,
    expect_namespacing_outcome,
    first_body,
    offered_tenant_tools,
    tenant_server,
    unique_sorted,
)

DEDUP = "toolsets.dedup_key"
WIRE = "model.*"  # any model wire


def _endpoints(tp: Scenario, route: str, header_names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Distinct (raw query, configured-header values) of every request the route received."""
    return unique_sorted(
        {"query": r.query, **{name: r.header_values(name) for name in header_names}}
        for r in tp.mcp_requests(route)
    )


# -- tp-dedup-collapse-to-one -------------------------------------------------------


@pytest.mark.checks("dedup.collapse-contacts-survivor-only", "dedup.collapse-tools-offered-once")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_group_of_three_collapses_to_one(tp: Scenario) -> None:
    """Three servers sharing one key: one endpoint is ever contacted, and its tool is offered once."""
    tp.script(Text("done"))
    key = "shared-key"
    members = ("a", "b", "c")
    build, run = build_and_run(
        tp,
        {
            f"member-{m}": tenant_server(tp, m, headers={"X-Tp-Member": m}, dedup_key=key)
            for m in ("c", "a", "b")
        },
    )
    requests = tp.mcp_requests("tenant")
    offered = offered_tenant_tools(first_body(tp))
    # The members whose endpoint (their query, or their header) any request reached.
    reached = {
        m
        for r in requests
        for m in members
        if f"tenant={m}" == r.query or m in r.header_values("X-Tp-Member")
    }
    tp.expect(
        "dedup.collapse-contacts-survivor-only",
        len(reached),
        1,
        what=f"members whose endpoint was contacted: {sorted(reached)} (build {build.ok} {build.kind})",
    )
    tp.expect_outcome(
        "dedup.collapse-tools-offered-once", run, {"ok": True}, what="build and run of the group"
    )
    tp.expect(
        "dedup.collapse-tools-offered-once",
        sorted((m in reached, offered.count(f"tenant_{m}_lookup")) for m in members),
        [(False, 0), (False, 0), (True, 1)],
        what=f"per member (contacted, times its tool is offered); offered: {offered}",
    )


# -- tp-dedup-survivor-endpoint ------------------------------------------------------


@pytest.mark.checks("dedup.survivor-own-endpoint")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_survivor_is_reached_with_its_own_query_and_headers(tp: Scenario) -> None:
    """The preferred `scoped` member's query and headers, and nothing of `plain`, on every request."""
    tp.script(Call("tenant/tenant_scoped_lookup", '{"q": "where"}'), Text("done"))
    _, run = build_and_run(
        tp,
        {
            "plain": tenant_server(tp, "plain", headers={"X-Tp-Plain": "plain-secret"}, dedup_key="K"),
            "scoped": tenant_server(
                tp,
                "scoped",
                headers={"X-Tp-Scope": "scoped-secret", "Authorization": "Bearer scopedkey"},
                dedup_key="K",
                dedup_preferred=True,
            ),
        },
    )
    tp.expect_outcome("dedup.survivor-own-endpoint", run, {"ok": True}, what="build and run of the pair")
    tp.expect(
        "dedup.survivor-own-endpoint",
        _endpoints(tp, "tenant", ("X-Tp-Scope", "Authorization", "X-Tp-Plain")),
        [
            {
                "query": "tenant=scoped",
                "X-Tp-Scope": ["scoped-secret"],
                "Authorization": ["Bearer scopedkey"],
                "X-Tp-Plain": [],
            }
        ],
        what="query and configured headers of every request the tenant route received",
    )
    tp.expect(
        "dedup.survivor-own-endpoint",
        [(r.query, (r.rpc_params or {}).get("name")) for r in tp.tool_calls_received("tenant")],
        [("tenant=scoped", "tenant_scoped_lookup")],
        what="tools/call requests at the tenant route (query, tool)",
    )


# -- tp-dedup-preferred-survives / tp-dedup-smallest-id-survives -----------------------


@pytest.mark.checks("dedup.preferred-survives")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_preferred_member_survives(tp: Scenario) -> None:
    """The preferred member is neither first in config nor the smallest id, and still survives."""
    tp.script(Text("done"))
    _, run = build_and_run(
        tp,
        {
            "m-3": tenant_server(tp, "m3", dedup_key="K"),
            "m-1": tenant_server(tp, "m1", dedup_key="K"),
            "m-2": tenant_server(tp, "m2", dedup_key="K", dedup_preferred=True),
        },
    )
    tp.expect(
        "dedup.preferred-survives",
        offered_tenant_tools(first_body(tp)),
        ["tenant_m2_lookup"],
        what=f"tenant tools offered (the preferred m-2's only; run ok={run.ok}, kind={run.kind})",
    )


@pytest.mark.checks("dedup.smallest-id-survives")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_smallest_id_in_byte_order_survives(tp: Scenario) -> None:
    """Four groups, each listing its byte-wise smallest id last in the config.

    case: "B-upper" < "b-lower" (case-folded order says the opposite);
    utf16: U+FF61 < U+1F600 in UTF-8 (JavaScript's UTF-16 `<` says the opposite);
    space: " x" < "x"; accent: "z" < "é" (collation puts é first).
    """
    tp.script(Text("done"))
    _, run = build_and_run(
        tp,
        {
            "b-lower": tenant_server(tp, "caselower", dedup_key="case"),
            "B-upper": tenant_server(tp, "caseupper", dedup_key="case"),
            "\U0001f600": tenant_server(tp, "emoji", dedup_key="utf16"),
            "\uff61": tenant_server(tp, "halfwidth", dedup_key="utf16"),
            "x": tenant_server(tp, "bare", dedup_key="space"),
            " x": tenant_server(tp, "padded", dedup_key="space"),
            "é": tenant_server(tp, "accent", dedup_key="accent"),
            "z": tenant_server(tp, "zed", dedup_key="accent"),
        },
    )
    tp.expect(
        "dedup.smallest-id-survives",
        offered_tenant_tools(first_body(tp)),
        ["tenant_caseupper_lookup", "tenant_halfwidth_lookup", "tenant_padded_lookup", "tenant_zed_lookup"],
        what=f"tenant tools offered, one per group (run ok={run.ok}, kind={run.kind})",
    )


# -- tp-dedup-empty-key-is-no-key / tp-dedup-no-endpoint-identity ---------------------


def _identical_pair(tp: Scenario, check_id: str, key: Any) -> None:
    """Two servers with byte-identical URL and headers and no key: both count (a duplicate `lookup`)."""
    tp.script(Text("done"))
    build, run = build_and_run(
        tp,
        {
            "twin-1": tp.server("beta", headers={"X-Tp-Twin": "same"}, dedup_key=key),
            "twin-2": tp.server("beta", headers={"X-Tp-Twin": "same"}, dedup_key=key),
        },
    )
    expect_namespacing_outcome(tp, check_id, build, run, ["beta/lookup", "beta/lookup"])


@pytest.mark.checks("dedup.empty-key-no-collapse")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_empty_key_is_valid_alone(tp: Scenario) -> None:
    """`dedup_key: ""` on its own builds and runs: it is no key, not an invalid one."""
    tp.script(Text("done"))
    _, run = build_and_run(tp, {"lonely": tenant_server(tp, "e", dedup_key="")})
    tp.expect_outcome("dedup.empty-key-no-collapse", run, {"ok": True}, what='build and run with key ""')
    tp.expect(
        "dedup.empty-key-no-collapse",
        offered_tenant_tools(first_body(tp)),
        ["tenant_e_lookup"],
        what="tenant tools offered",
    )


@pytest.mark.checks("dedup.empty-key-no-collapse")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_empty_key_never_collapses_identical_servers(tp: Scenario) -> None:
    """Key "" on two byte-identical servers: no collapse, so the declared namespacing outcome."""
    _identical_pair(tp, "dedup.empty-key-no-collapse", "")


@pytest.mark.checks("dedup.no-key-identical-endpoints-stay-two")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_absent_key_never_collapses_identical_servers(tp: Scenario) -> None:
    """No key on two byte-identical servers: no collapse, so the declared namespacing outcome."""
    _identical_pair(tp, "dedup.no-key-identical-endpoints-stay-two", ABSENT)


@pytest.mark.checks("dedup.no-key-tenants-stay-separate")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_distinct_queries_stay_two_servers(tp: Scenario) -> None:
    """?tenant=a and ?tenant=b on one path, no keys: two servers, both contacted, both offered."""
    tp.script(Text("done"))
    _, run = build_and_run(tp, {"tenant-a": tenant_server(tp, "a"), "tenant-b": tenant_server(tp, "b")})
    tp.expect_outcome("dedup.no-key-tenants-stay-separate", run, {"ok": True}, what="build and run")
    tp.expect(
        "dedup.no-key-tenants-stay-separate",
        {
            "offered": offered_tenant_tools(first_body(tp)),
            "queries seen": sorted({r.query for r in tp.mcp_requests("tenant")}),
        },
        {"offered": ["tenant_a_lookup", "tenant_b_lookup"], "queries seen": ["tenant=a", "tenant=b"]},
        what="tenant tools offered and raw queries the tenant route received",
    )


@pytest.mark.checks("dedup.no-key-tenants-stay-separate")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_distinct_authorization_stays_two_servers(tp: Scenario) -> None:
    """One URL with two Authorization values, no keys: two servers; each call carries its own token."""
    tp.script(
        Call("tenant/auth_a_lookup", '{"q": "1"}'), Call("tenant/auth_b_lookup", '{"q": "2"}'), Text("done")
    )
    _, run = build_and_run(
        tp,
        {
            "auth-a": tp.server("tenant", headers={"Authorization": "Bearer a"}),
            "auth-b": tp.server("tenant", headers={"Authorization": "Bearer b"}),
        },
    )
    tp.expect_outcome("dedup.no-key-tenants-stay-separate", run, {"ok": True}, what="build and run")
    tp.expect(
        "dedup.no-key-tenants-stay-separate",
        {
            "offered": offered_tenant_tools(first_body(tp)),
            "calls": sorted(
                ((r.rpc_params or {}).get("name"), r.header_values("Authorization"))
                for r in tp.tool_calls_received("tenant")
            ),
        },
        {
            "offered": ["auth_a_lookup", "auth_b_lookup"],
            "calls": [("auth_a_lookup", ["Bearer a"]), ("auth_b_lookup", ["Bearer b"])],
        },
        what="tenant tools offered, and each tools/call with the Authorization values it carried",
    )


# -- tp-dedup-key-opaque -----------------------------------------------------------------


@pytest.mark.checks("dedup.keys-opaque")
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_keys_are_compared_byte_for_byte(tp: Scenario) -> None:
    """Five keys that differ only by whitespace, case or normal form: five groups of one."""
    tp.script(Text("done"))
    keys = {
        "k1": "tenant-a",
        "k2": " tenant-a ",
        "k3": "Tenant-A",
        "k4": unicodedata.normalize("NFC", "café"),
        "k5": unicodedata.normalize("NFD", "café"),
    }
    _, run = build_and_run(tp, {sid: tenant_server(tp, sid, dedup_key=key) for sid, key in keys.items()})
    tp.expect_outcome("dedup.keys-opaque", run, {"ok": True}, what="build and run")
    tp.expect(
        "dedup.keys-opaque",
        offered_tenant_tools(first_body(tp)),
        ["tenant_k1_lookup", "tenant_k2_lookup", "tenant_k3_lookup", "tenant_k4_lookup", "tenant_k5_lookup"],
        what="tenant tools offered (one per key)",
    )
