"""The suite's tenant-isolation views (conformance/toolsets_support.py) on literal records.

An `Endpoint` with a transport owns only the requests of that transport: an http and an sse
server of one route and query are told apart by it, and a request of a transport no endpoint
configured is nobody's.
"""

from __future__ import annotations

from toolproof.conformance.toolsets_support import Endpoint, expected_views, foreign_pairs, own_views

from toolproof.fakes import McpRequest
from toolproof.fakes.records import NO_RESPONSE

HTTP = Endpoint("tenant", "", {"Authorization": "Bearer h", "X-Tp-H": "h secret"}, "http")
SSE = Endpoint("tenant", "", {"Authorization": "Bearer s", "X-Tp-S": "s secret"}, "sse")


def request(
    transport: str, headers: tuple[tuple[str, str], ...], method: str = "POST", query: str = ""
) -> McpRequest:
    """One recorded request of the `tenant` route."""
    return McpRequest(
        token="t",
        route="tenant",
        index=0,
        method=method,
        path="/t/x/tenant",
        query=query,
        headers=headers,
        body=b"",
        rpc_method=None,
        rpc_params=None,
        rpc_id=None,
        status=NO_RESPONSE,
        transport=transport,
    )


def test_an_endpoint_without_transport_keeps_the_old_view() -> None:
    plain = Endpoint("tenant", "tenant=a", {"X-Tp-A": "a"})
    assert plain.view() == {"route": "tenant", "query": "tenant=a", "headers": {"X-Tp-A": ["a"]}}
    record = request("sse", (("x-tp-a", "a"),), query="tenant=a")
    assert own_views([record], [plain]) == [plain.view()]


def test_each_transport_is_judged_on_its_own_endpoints_headers() -> None:
    records = [
        request("http", (("authorization", "Bearer h"), ("x-tp-h", "h secret"))),
        request("sse", (("authorization", "Bearer s"), ("x-tp-s", "s secret")), method="GET"),
    ]
    assert own_views(records, [HTTP, SSE]) == expected_views(records, [HTTP, SSE])
    assert own_views(records, [HTTP, SSE]) == [
        {
            "route": "tenant",
            "query": "",
            "transport": "http",
            "headers": {"Authorization": ["Bearer h"], "X-Tp-H": ["h secret"]},
        },
        {
            "route": "tenant",
            "query": "",
            "transport": "sse",
            "headers": {"Authorization": ["Bearer s"], "X-Tp-S": ["s secret"]},
        },
    ]
    assert foreign_pairs(records, [HTTP, SSE]) == []


def test_another_servers_pair_and_a_missing_header_are_seen() -> None:
    records = [request("sse", (("authorization", "Bearer s"), ("x-tp-h", "h secret")), method="GET")]
    assert own_views(records, [HTTP, SSE]) == [
        {
            "route": "tenant",
            "query": "",
            "transport": "sse",
            "headers": {"Authorization": ["Bearer s"], "X-Tp-S": []},
        }
    ]
    assert foreign_pairs(records, [HTTP, SSE]) == [
        {"route": "tenant", "query": "", "transport": "sse", "header": ["X-Tp-H", "h secret"]}
    ]


def test_a_request_of_an_unconfigured_transport_is_nobodys() -> None:
    records = [request("stdio", ())]
    assert own_views(records, [HTTP, SSE]) == [
        {"route": "tenant", "query": "'' (no configured server has it)", "headers": {}}
    ]
    assert expected_views(records, [HTTP, SSE]) == []
