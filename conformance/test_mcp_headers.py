"""Headers per server (CONTRACT.md §5b, "Headers per server"): across transports, across a dedup
group, and values with inner spaces or non-ASCII characters.

Observed only at the MCP servers: the values of every configured header name on every request a
server received (the SSE GET stream and its message POSTs as much as streamable HTTP's requests).
The fakes keep a header value as ASGI hands it over, its bytes decoded as latin-1; an expected
value is therefore the configured literal's UTF-8 bytes read the same way, never what arrived
normalised. Leading or trailing whitespace cannot travel in an HTTP field value (RFC 9110 §5.5),
so no test configures it.
"""

from __future__ import annotations

from typing import Final

import pytest

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.plugin.scenario import ABSENT, Scenario

from .toolsets_support import Endpoint, build_and_run, foreign_pairs, own_views, unique_sorted

pytestmark = pytest.mark.mcp_transport

SSE = "mcp.sse"
DEDUP = "toolsets.dedup_key"
WIRE = "model.*"  # any model wire
OWN = "hdr.sse-own-headers"
FOREIGN = "hdr.sse-no-foreign-headers"

# -- tp-hdr-sse-per-server ------------------------------------------------------------------

ACROSS: Final = {
    "over-http": Endpoint(
        "tenant", "", {"Authorization": "Bearer httptoken", "X-Tp-Http-Secret": "http secret"}, "http"
    ),
    "over-sse": Endpoint(
        "tenant", "", {"Authorization": "Bearer ssetoken", "X-Tp-Sse-Secret": "sse secret"}, "sse"
    ),
}
"""One route and no query: only the transport tells the two servers' requests apart, and only their
headers tell the runtime's two clients apart (the `tenant` route names its tool by the Bearer token)."""


@pytest.mark.checks(OWN, FOREIGN)
@pytest.mark.capability(SSE)
@pytest.mark.capability(WIRE)
def test_http_and_sse_servers_of_one_route_get_only_their_own_headers(tp: Scenario) -> None:
    """An http and an sse server of the `tenant` route, each with its own Authorization and a secret
    header of its own; one call to each."""
    tp.script(
        ToolCalls(
            (
                Call("tenant/auth_httptoken_lookup", '{"q": "h"}'),
                Call("tenant/auth_ssetoken_lookup", '{"q": "s"}'),
            )
        ),
        Text("done"),
    )
    servers = {sid: tp.server(e.route, headers=e.headers, transport=e.transport) for sid, e in ACROSS.items()}
    _, run = build_and_run(tp, servers, "Ask both.")
    tp.expect_outcome(OWN, run, {"ok": True}, what="build and run of an http and an sse server")
    tp.expect(
        OWN,
        sorted(r.transport for r in tp.tool_calls_received("tenant")),
        ["http", "sse"],
        what="transport of each tools/call the tenant route received",
    )
    requests = tp.mcp_requests()
    endpoints = list(ACROSS.values())
    tp.expect(
        OWN,
        own_views(requests, endpoints),
        unique_sorted(
            [
                {
                    "route": "tenant",
                    "query": "",
                    "transport": "http",
                    "headers": {"Authorization": ["Bearer httptoken"], "X-Tp-Http-Secret": ["http secret"]},
                },
                {
                    "route": "tenant",
                    "query": "",
                    "transport": "sse",
                    "headers": {"Authorization": ["Bearer ssetoken"], "X-Tp-Sse-Secret": ["sse secret"]},
                },
            ]
        ),
        what="configured-header values of every MCP request, per transport (distinct)",
    )
    tp.expect(
        FOREIGN,
        foreign_pairs(requests, endpoints),
        [],
        what="header pairs configured only for the other server that reached a request",
    )


GROUP: Final = {
    "a-plain": Endpoint(
        "tenant", "tenant=plain", {"Authorization": "Bearer plainkey", "X-Tp-Plain": "plain secret"}, "http"
    ),
    "b-scoped": Endpoint(
        "tenant", "tenant=scoped", {"Authorization": "Bearer scopedkey", "X-Tp-Scope": "scoped secret"}, "sse"
    ),
}


@pytest.mark.checks(OWN, FOREIGN)
@pytest.mark.capability(SSE)
@pytest.mark.capability(DEDUP)
@pytest.mark.capability(WIRE)
def test_dedup_survivor_over_sse_gets_only_its_own_headers(tp: Scenario) -> None:
    """A key group of an http member (`a-plain`, the smaller id) and a preferred sse member
    (`b-scoped`), each with its own Authorization and secret: only the sse survivor is ever
    contacted, with its own headers, and nothing of the http member's."""
    tp.script(Call("tenant/auth_scopedkey_lookup", '{"q": "where"}'), Text("done"))
    servers = {
        sid: tp.server(
            e.route,
            query=e.query,
            headers=e.headers,
            transport=e.transport,
            dedup_key="K",
            dedup_preferred=True if sid == "b-scoped" else ABSENT,
        )
        for sid, e in GROUP.items()
    }
    _, run = build_and_run(tp, servers)
    tp.expect_outcome(OWN, run, {"ok": True}, what="build and run of the key group")
    requests = tp.mcp_requests()
    endpoints = list(GROUP.values())
    tp.expect(
        OWN,
        own_views(requests, endpoints),
        [
            {
                "route": "tenant",
                "query": "tenant=scoped",
                "transport": "sse",
                "headers": {"Authorization": ["Bearer scopedkey"], "X-Tp-Scope": ["scoped secret"]},
            }
        ],
        what="query, transport and configured-header values of every MCP request (distinct)",
    )
    tp.expect(
        OWN,
        [(r.transport, (r.rpc_params or {}).get("name")) for r in tp.tool_calls_received("tenant")],
        [("sse", "auth_scopedkey_lookup")],
        what="tools/call requests at the tenant route (transport, tool)",
    )
    tp.expect(
        FOREIGN,
        foreign_pairs(requests, endpoints),
        [],
        what="header pairs configured only for the displaced member that reached a request",
    )


# -- tp-hdr-value-exact ---------------------------------------------------------------------------

SPACED: Final = {"X-Tp-Spaced": "two  spaces\tand a tab", "Authorization": "Bearer spaced"}
"""Inner runs of spaces and a tab: field values may hold them (RFC 9110 §5.5), byte for byte."""
UNICODE: Final = "café ✓ 日本 Ω"
"""A value outside ASCII (2-, 3- byte UTF-8 sequences) with inner spaces."""


def _transport_params() -> list[object]:
    """The header-value tests run on streamable HTTP, and on SSE for a candidate that claims it."""
    return ["http", pytest.param("sse", marks=pytest.mark.capability(SSE))]


@pytest.mark.checks("hdr.inner-whitespace-exact")
@pytest.mark.capability(WIRE)
@pytest.mark.parametrize("transport", _transport_params())
def test_header_values_with_inner_whitespace_arrive_exactly(tp: Scenario, transport: str) -> None:
    """One server whose headers hold runs of spaces and a tab inside their values."""
    check = "hdr.inner-whitespace-exact"
    tp.script(Call("tenant/auth_spaced_lookup", '{"q": "x"}'), Text("done"))
    _, run = build_and_run(tp, {"spaced": tp.server("tenant", headers=SPACED, transport=transport)})
    tp.expect_outcome(check, run, {"ok": True}, what="build and run of a server with spaced header values")
    tp.expect(
        check,
        unique_sorted(
            {name: r.header_values(name) for name in sorted(SPACED)} for r in tp.mcp_requests("tenant")
        ),
        [{"Authorization": ["Bearer spaced"], "X-Tp-Spaced": ["two  spaces\tand a tab"]}],
        what=f"configured-header values of every request the {transport} server received (distinct)",
    )
    tp.expect(
        check,
        len(tp.tool_calls_received("tenant")),
        1,
        what="tools/call requests the server received",
    )


@pytest.mark.checks("hdr.non-ascii-per-option")
@pytest.mark.capability(WIRE)
@pytest.mark.parametrize("transport", _transport_params())
def test_non_ascii_header_value_goes_the_declared_way(tp: Scenario, transport: str) -> None:
    """One server with a header value outside ASCII: its UTF-8 bytes arrive unchanged (`utf8`), or
    the build (or the first run) fails before anything is contacted (`refused`; any error kind)."""
    check = "hdr.non-ascii-per-option"
    headers = {"X-Tp-Unicode": UNICODE}
    tp.script(Call("tenant/tenant_u_lookup", '{"q": "x"}'), Text("done"))
    server = tp.server("tenant", query="tenant=u", headers=headers, transport=transport)
    if tp.option("header_non_ascii") == "refused":
        build, run = build_and_run(tp, {"unicode": server})
        tp.expect(
            check,
            {
                "build and first run ok": build.ok and run.ok,
                "MCP requests": len(tp.mcp_requests()),
                "model requests": len(tp.model_requests()),
            },
            {"build and first run ok": False, "MCP requests": 0, "model requests": 0},
            what="a non-ASCII header value under header_non_ascii refused: the build or the run fails,"
            " nothing contacted",
        )
        return
    _, run = build_and_run(tp, {"unicode": server})
    tp.expect_outcome(check, run, {"ok": True}, what="build and run (header_non_ascii utf8)")
    # As the fakes hold it: the value's UTF-8 bytes, each read as one latin-1 character.
    sent = UNICODE.encode("utf-8").decode("latin-1")
    tp.expect(
        check,
        unique_sorted({"X-Tp-Unicode": r.header_values("X-Tp-Unicode")} for r in tp.mcp_requests("tenant")),
        [{"X-Tp-Unicode": [sent]}],
        what=f"X-Tp-Unicode values of every request the {transport} server received (distinct, as latin-1)",
    )
    tp.expect(
        check,
        len(tp.tool_calls_received("tenant")),
        1,
        what="tools/call requests the server received",
    )
