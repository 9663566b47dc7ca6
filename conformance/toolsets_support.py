"""Observation helpers shared by the toolsets tests (test_toolsets*.py).

Each helper reads the fakes' records and turns them into plain data that a
test pins with one `tp.expect`; none of them decides a verdict on its own
except the two `expect_*` outcome helpers, which assert exactly the
declared `tool_namespacing` branch.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, McpRequest, Text, ToolCalls
from toolproof.plugin.scenario import Scenario, offered_tools, wire_name_for

TENANT_MARKER = re.compile(r"\[tp:tenant/([^\]]+)\]")
DEFAULT_INPUT = "Use the tools."


def tenant_server(tp: Scenario, value: str, **fields: Any) -> dict[str, Any]:
    """A `tenant`-route server with query `tenant=<value>`: it offers `tenant_<value>_lookup`."""
    return tp.server("tenant", query=f"tenant={value}", **fields)


def build_and_run(
    tp: Scenario, servers: Mapping[str, dict[str, Any]], text: str = DEFAULT_INPUT
) -> tuple[Outcome, Outcome]:
    """Build `servers`, then run once if the build succeeded (else the run outcome is the build's).

    Both outcomes are judged by the caller's checks (a declared duplicate_tool, say).
    """
    build = tp.build(tp.config(servers), judged=True)
    return build, tp.run(text, judged=True) if build.ok else build


def first_body(tp: Scenario) -> Mapping[str, Any]:
    """The first answered model request of this build ({} when there was none)."""
    bodies = tp.model_bodies()
    return bodies[0] if bodies and isinstance(bodies[0], Mapping) else {}


def offered_tenant_tools(body: Mapping[str, Any]) -> list[str]:
    """MCP names of the offered `tenant`-route tools (found by marker), sorted, repeats kept."""
    names: list[str] = []
    for tool in offered_tools(body):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        description = function.get("description") if isinstance(function, Mapping) else None
        names += TENANT_MARKER.findall(description if isinstance(description, str) else "")
    return sorted(names)


def tool_calls_by_route(tp: Scenario, routes: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """The `tools/call` requests each route received: MCP name and arguments, in arrival order."""
    calls: dict[str, list[dict[str, Any]]] = {}
    for route in routes:
        params = [
            r.rpc_params if isinstance(r.rpc_params, dict) else {} for r in tp.tool_calls_received(route)
        ]
        calls[route] = [{"name": p.get("name"), "arguments": p.get("arguments")} for p in params]
    return calls


def unique_sorted(items: Iterable[Any]) -> list[Any]:
    """Distinct JSON-able items, in a stable order (sorted by their JSON text)."""
    by_text = {json.dumps(item, sort_keys=True, ensure_ascii=False): item for item in items}
    return [by_text[text] for text in sorted(by_text)]


# -- the declared namespacing outcome ---------------------------------------------


def expect_duplicate_reported(tp: Scenario, check_id: str, build: Outcome, run: Outcome) -> None:
    """`tool_namespacing: error`: kind duplicate_tool in the declared phase, and no model request."""
    if tp.option("duplicate_tool_phase") == "build":
        tp.expect_outcome(
            check_id,
            build,
            {"ok": False, "kind": "duplicate_tool"},
            what="build with a tool name on two servers (duplicate_tool_phase build)",
        )
    else:
        tp.expect_outcome(
            check_id, build, {"ok": True}, what="build with a duplicate tool name (duplicate_tool_phase run)"
        )
        tp.expect_outcome(
            check_id,
            run,
            {"ok": False, "kind": "duplicate_tool"},
            what="first run with a tool name on two servers (duplicate_tool_phase run)",
        )
    tp.expect(check_id, len(tp.model_requests()), 0, what="model requests made for this build")


def expect_offered_apart(tp: Scenario, check_id: str, run: Outcome, markers: list[str]) -> None:
    """`tool_namespacing: prefix`: every tool is offered once, all under distinct wire names."""
    tp.expect_outcome(check_id, run, {"ok": True}, what="build and run with a tool name on several servers")
    body = first_body(tp)
    names = [name for marker in sorted(set(markers)) for name in wire_name_for(body, marker)]
    tp.expect(
        check_id,
        {
            "offered per marker": {
                marker: len(wire_name_for(body, marker)) for marker in sorted(set(markers))
            },
            "distinct wire names": len(set(names)),
        },
        {"offered per marker": dict(sorted(Counter(markers).items())), "distinct wire names": len(markers)},
        what=f"tools offered in the first model request (wire names {names})",
    )


def lookup_calls(routes: Iterable[str]) -> ToolCalls:
    """One batch calling `lookup` on every route, by marker, each with its own argument."""
    return ToolCalls(tuple(Call(f"{route}/lookup", f'{{"q": "{route}-q"}}') for route in routes))


@dataclass(frozen=True)
class DuplicateChecks:
    """The checks a duplicate-`lookup` scenario records: the `error` outcome, the `prefix` offer and
    the `prefix` calls (one ID may judge more than one of them)."""

    error: str
    offered: str
    calls: str


def duplicate_lookup_case(
    tp: Scenario,
    routes: tuple[str, ...],
    checks: DuplicateChecks,
    transports: Mapping[str, str] | None = None,
) -> None:
    """One server per route (server id = route, over `transports[route]`, else the run's transport),
    every one exposing `lookup`: exactly the outcome the declared `tool_namespacing` obliges. The
    checks of the branch not declared are not_testable (unless the same ID judges this branch)."""
    where = transports or {}
    servers = {route: tp.server(route, transport=where.get(route)) for route in routes}
    prefix = (checks.offered, checks.calls)
    if tp.option("tool_namespacing") == "error":
        tp.script(Text("done"))
        build, run = build_and_run(tp, servers, "Look it up everywhere.")
        for check_id in sorted(set(prefix) - {checks.error}):
            tp.not_testable(check_id, "the candidate declares tool_namespacing error")
        expect_duplicate_reported(tp, checks.error, build, run)
        return
    tp.script(lookup_calls(routes), Text("done"))
    build, run = build_and_run(tp, servers, "Look it up everywhere.")
    if checks.error not in prefix:
        tp.not_testable(checks.error, "the candidate declares tool_namespacing prefix")
    expect_offered_apart(tp, checks.offered, run, [f"{route}/lookup" for route in routes])
    tp.expect(
        checks.calls,
        tool_calls_by_route(tp, routes),
        {route: [{"name": "lookup", "arguments": {"q": f"{route}-q"}}] for route in routes},
        what="tools/call requests per route after one batch calling each server's lookup",
    )


def expect_namespacing_outcome(
    tp: Scenario, check_id: str, build: Outcome, run: Outcome, markers: list[str]
) -> None:
    """Servers sharing an MCP name: exactly the outcome the declared `tool_namespacing` obliges."""
    if tp.option("tool_namespacing") == "error":
        expect_duplicate_reported(tp, check_id, build, run)
    else:
        expect_offered_apart(tp, check_id, run, markers)


# -- tenant isolation -------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """A configured server as the MCP recorder can tell it apart: route, raw query, headers, and
    (when servers of one route and query differ only by it) the transport its records carry."""

    route: str
    query: str
    headers: Mapping[str, str] = field(default_factory=dict)
    #: "http", "sse" or "stdio" (`McpRequest.transport`); None: any transport.
    transport: str | None = None

    def view(self) -> dict[str, Any]:
        """What every request to this server must carry: its query, each header once."""
        headers = {name: [value] for name, value in sorted(self.headers.items())}
        where = {} if self.transport is None else {"transport": self.transport}
        return {"route": self.route, "query": self.query, **where, "headers": headers}


def _owner(request: McpRequest, endpoints: Iterable[Endpoint]) -> Endpoint | None:
    for endpoint in endpoints:
        if (endpoint.route, endpoint.query) == (request.route, request.query) and (
            endpoint.transport is None or endpoint.transport == request.transport
        ):
            return endpoint
    return None


def own_views(requests: Iterable[McpRequest], endpoints: list[Endpoint]) -> list[dict[str, Any]]:
    """Per request (distinct): its route, raw query, and the values of its server's configured headers."""
    views = []
    for request in requests:
        owner = _owner(request, endpoints)
        names = sorted(owner.headers) if owner else []
        where = {} if owner is None or owner.transport is None else {"transport": request.transport}
        views.append(
            {
                "route": request.route,
                "query": request.query if owner else f"{request.query!r} (no configured server has it)",
                **where,
                "headers": {name: request.header_values(name) for name in names},
            }
        )
    return unique_sorted(views)


def expected_views(requests: Iterable[McpRequest], endpoints: list[Endpoint]) -> list[dict[str, Any]]:
    """The view each request's own server obliges (the servers that were contacted)."""
    owners = [_owner(request, endpoints) for request in requests]
    return unique_sorted(owner.view() for owner in owners if owner is not None)


def foreign_pairs(requests: Iterable[McpRequest], endpoints: list[Endpoint]) -> list[dict[str, Any]]:
    """Header name-value pairs configured only for other servers that reached a request (distinct)."""
    found = []
    for request in requests:
        owner = _owner(request, endpoints)
        own = {(name.lower(), value) for name, value in (owner.headers.items() if owner else ())}
        where = {} if owner is None or owner.transport is None else {"transport": request.transport}
        for endpoint in endpoints:
            for name, value in endpoint.headers.items():
                if (name.lower(), value) not in own and value in request.header_values(name):
                    found.append(
                        {"route": request.route, "query": request.query, **where, "header": [name, value]}
                    )
    return unique_sorted(found)
