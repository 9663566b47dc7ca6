"""MCP transports beyond streamable HTTP (CONTRACT.md §5b): what only SSE shows, and dedup and
namespacing across transports.

Every other toolsets, arguments and results check runs over SSE or stdio unchanged under
`--toolproof-mcp-transport`; the tests here configure their transports themselves, so they judge
in every run (a candidate that does not claim a transport reads `not_claimed`).

- SSE: a message POST that fails (alpha's `crash_http`: HTTP 500 on the POST; `crash_close`: the
  POST's connection dropped) is a tool failure like any other, although its answer was owed on the
  GET stream: the declared `tool_failure` path, and no wait on an answer that will never come (the
  test's `proto.answers-when-idle` judges that wait).
- dedup: a key group whose members use different transports collapses exactly as a group of http
  servers does; the other members are never contacted (a stdio member never spawned: no record of
  its route at all). Observed per transport on the `tenant` route, whose tool is named by the query.
- namespacing: `lookup` on an http server and on a server of another transport, no key: the
  declared `tool_namespacing` outcome.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.fakes import Call, Text
from toolproof.plugin.scenario import Scenario

from ._calls import expect_tool_failure_path
from .toolsets_support import (
    DuplicateChecks,
    build_and_run,
    duplicate_lookup_case,
    first_body,
    offered_tenant_tools,
)

pytestmark = pytest.mark.mcp_transport

SSE = "mcp.sse"
STDIO = "mcp.stdio"
DEDUP = "toolsets.dedup_key"
NAMESPACE = "toolsets.namespace"
WIRE = "model.*"  # any model wire

# -- tp-mcp-sse-post-failure ------------------------------------------------------------------


@pytest.mark.checks("mcp.sse-post-500-tool-failure")
@pytest.mark.capability(SSE)
@pytest.mark.capability(WIRE)
def test_sse_message_post_answered_500_goes_the_declared_way(tp: Scenario) -> None:
    """The tools/call POST of an SSE session is answered HTTP 500 (its answer never comes on the stream)."""
    expect_tool_failure_path(tp, "mcp.sse-post-500-tool-failure", "crash_http", transport="sse")


@pytest.mark.checks("mcp.sse-post-dropped-tool-failure")
@pytest.mark.capability(SSE)
@pytest.mark.capability(WIRE)
def test_sse_message_post_dropped_goes_the_declared_way(tp: Scenario) -> None:
    """The tools/call POST of an SSE session has its connection closed with no response."""
    expect_tool_failure_path(tp, "mcp.sse-post-dropped-tool-failure", "crash_close", transport="sse")


# -- tp-mcp-sse-dedup / tp-mcp-stdio-dedup ----------------------------------------------------------


def _member(tp: Scenario, name: str, transport: str, **fields: Any) -> dict[str, Any]:
    """A `tenant`-route server over `transport` with query `tenant=<name>` (tool `tenant_<name>_lookup`)."""
    return tp.server("tenant", query=f"tenant={name}", transport=transport, **fields)


def _contacts(tp: Scenario) -> dict[str, Any]:
    """Which tenant tools were offered, which (transport, raw query) any request reached, and the
    (transport, tool) of each tools/call."""
    return {
        "offered": offered_tenant_tools(first_body(tp)),
        "contacted": sorted({(r.transport, r.query) for r in tp.mcp_requests("tenant")}),
        "calls": [(r.transport, (r.rpc_params or {}).get("name")) for r in tp.tool_calls_received("tenant")],
    }


def _preferred_across(tp: Scenario, check: str, other: str) -> None:
    """Key K on `a-http` (http, the smaller id) and on `b-<other>` (preferred): only b, over `other`."""
    tp.script(Call(f"tenant/tenant_b{other}_lookup", '{"q": "x"}'), Text("done"))
    _, run = build_and_run(
        tp,
        {
            "a-http": _member(tp, "ahttp", "http", dedup_key="K"),
            f"b-{other}": _member(tp, f"b{other}", other, dedup_key="K", dedup_preferred=True),
        },
    )
    tp.expect_outcome(
        check, run, {"ok": True}, what=f"build and run of an http and a preferred {other} member"
    )
    tp.expect(
        check,
        _contacts(tp),
        {
            "offered": [f"tenant_b{other}_lookup"],
            "contacted": [(other, f"tenant=b{other}")],
            "calls": [(other, f"tenant_b{other}_lookup")],
        },
        what="tenant tools offered, (transport, query) contacted, and (transport, tool) called",
    )


def _smallest_across(tp: Scenario, check: str, other: str) -> None:
    """Key K1 on `a-<other>` and `b-http`, key K2 on `c-http` and `d-<other>`, none preferred: the
    smallest id of each group survives, whatever its transport."""
    tp.script(Text("done"))
    _, run = build_and_run(
        tp,
        {
            "b-http": _member(tp, "bhttp", "http", dedup_key="K1"),
            "a-" + other: _member(tp, f"a{other}", other, dedup_key="K1"),
            "d-" + other: _member(tp, f"d{other}", other, dedup_key="K2"),
            "c-http": _member(tp, "chttp", "http", dedup_key="K2"),
        },
    )
    tp.expect_outcome(check, run, {"ok": True}, what=f"build and run of two http/{other} key groups")
    tp.expect(
        check,
        _contacts(tp),
        {
            "offered": [f"tenant_a{other}_lookup", "tenant_chttp_lookup"],
            "contacted": [("http", "tenant=chttp"), (other, f"tenant=a{other}")],
            "calls": [],
        },
        what="tenant tools offered, (transport, query) contacted, and (transport, tool) called",
    )


@pytest.mark.checks("mcp.sse-dedup-preferred-survives")
@pytest.mark.capability(SSE)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_preferred_sse_member_survives_an_http_member(tp: Scenario) -> None:
    _preferred_across(tp, "mcp.sse-dedup-preferred-survives", "sse")


@pytest.mark.checks("mcp.stdio-dedup-preferred-survives")
@pytest.mark.capability(STDIO)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_preferred_stdio_member_survives_an_http_member(tp: Scenario) -> None:
    _preferred_across(tp, "mcp.stdio-dedup-preferred-survives", "stdio")


@pytest.mark.checks("mcp.sse-dedup-smallest-id-survives")
@pytest.mark.capability(SSE)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_smallest_id_survives_across_sse_and_http(tp: Scenario) -> None:
    _smallest_across(tp, "mcp.sse-dedup-smallest-id-survives", "sse")


@pytest.mark.checks("mcp.stdio-dedup-smallest-id-survives")
@pytest.mark.capability(STDIO)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_smallest_id_survives_across_stdio_and_http(tp: Scenario) -> None:
    _smallest_across(tp, "mcp.stdio-dedup-smallest-id-survives", "stdio")


# -- tp-mcp-sse-namespace / tp-mcp-stdio-namespace -------------------------------------------------


@pytest.mark.checks("mcp.sse-duplicate-tools-per-option")
@pytest.mark.capability(SSE)
@pytest.mark.capability(NAMESPACE)
@pytest.mark.capability(WIRE)
def test_same_tool_name_on_an_http_and_an_sse_server(tp: Scenario) -> None:
    """alpha over streamable HTTP and beta over SSE both expose `lookup`, no dedup_key."""
    check = "mcp.sse-duplicate-tools-per-option"
    duplicate_lookup_case(
        tp, ("alpha", "beta"), DuplicateChecks(check, check, check), {"alpha": "http", "beta": "sse"}
    )


@pytest.mark.checks("mcp.stdio-duplicate-tools-per-option")
@pytest.mark.capability(STDIO)
@pytest.mark.capability(NAMESPACE)
@pytest.mark.capability(WIRE)
def test_same_tool_name_on_an_http_and_a_stdio_server(tp: Scenario) -> None:
    """alpha over streamable HTTP and beta over stdio both expose `lookup`, no dedup_key."""
    check = "mcp.stdio-duplicate-tools-per-option"
    duplicate_lookup_case(
        tp, ("alpha", "beta"), DuplicateChecks(check, check, check), {"alpha": "http", "beta": "stdio"}
    )
