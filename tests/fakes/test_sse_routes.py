"""The legacy HTTP+SSE transport of the fake MCP routes (toolproof.fakes.mcp_sse): the official SSE
client lists and calls a route as over streamable HTTP, and every request is recorded exactly.

Non-ASCII header values: httpx (httpx2, what the SDK's clients use) encodes a `str` header
value as ASCII and raises UnicodeEncodeError on anything else; a `bytes` value is sent as
given. So a client built on it can send non-ASCII only as bytes it encoded itself (UTF-8
here), and the fakes record those bytes latin-1 decoded, never normalised.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx2
import mcp_types
import pytest
from mcp import Client
from mcp.client.sse import sse_client

from toolproof.fakes import McpServers
from toolproof.fakes.activity import ANSWERED, ENDED, STREAM_OPEN
from toolproof.fakes.mcp_servers import sse_config_entry
from toolproof.fakes.records import McpRequest

ALPHA_TOOLS = [
    "lookup",
    "echo_text",
    "multi_block",
    "structured",
    "report_error",
    "no_description_tool",
    "nested_args",
    "output_send__qq",
    "crash_http",
    "crash_close",
]
CALLS: list[tuple[str, dict[str, Any]]] = [("lookup", {"q": "x y"}), ("echo_text", {"text": "  Grüße\n"})]
TIMEOUT = 20.0
GRUSSE_UTF8 = "Grüße 世界".encode()
SESSION_PATH = re.compile(r"/(?P<token>[^/]+)/sse/alpha/messages/[0-9a-f]{32}")

Session = tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]


@pytest.fixture(scope="module")
def servers() -> Iterator[McpServers]:
    with McpServers() as fakes:
        yield fakes


@pytest.fixture
def token(servers: McpServers) -> Iterator[str]:
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name
    servers.forget(name)


async def session(client: Client) -> Session:
    listing = (await client.list_tools()).tools
    return listing, [await client.call_tool(name, args) for name, args in CALLS]


def over_sse(url: str, headers: dict[str, Any]) -> Session:
    async def connected() -> Session:
        async with Client(sse_client(url, headers=headers)) as client:
            return await session(client)

    return asyncio.run(asyncio.wait_for(connected(), TIMEOUT))


def over_http(url: str) -> Session:
    async def connected() -> Session:
        async with Client(url) as client:
            return await session(client)

    return asyncio.run(asyncio.wait_for(connected(), TIMEOUT))


def configured(record: McpRequest) -> list[tuple[str, str]]:
    """The record's `x-tp-*` headers: the configured ones (the client adds its own besides)."""
    return [(name, value) for name, value in record.headers if name.startswith("x-tp-")]


def test_sse_config_entry_is_the_placeholder_shape(servers: McpServers, token: str) -> None:
    entry = sse_config_entry(servers, token, "tenant", query="tenant=a%20b", headers={"X-Tp-A": "v w"})
    assert entry == {
        "type": "sse",
        "url": f"{servers.origin}/{token}/sse/tenant?tenant=a%20b",
        "headers": {"X-Tp-A": "v w"},
    }
    with pytest.raises(ValueError, match="unknown route"):
        servers.sse_url(token, "nope")
    with pytest.raises(ValueError, match="leading"):
        servers.sse_url(token, "alpha", "?a=1")


def test_sse_route_serves_and_records_as_http_does(servers: McpServers, token: str) -> None:
    http_token, other = f"{token}h", f"{token}o"
    query = "a=1&b=%20x&tenant=acme"
    mine = {"X-Tp-Tenant": "acme  corp x", "X-Tp-Utf8": GRUSSE_UTF8}
    try:
        sse_listing, sse_results = over_sse(servers.sse_url(token, "alpha", query), mine)
        # A second route, another token, its own headers: none of them reaches the first's records.
        over_sse(servers.sse_url(other, "alpha"), {"X-Tp-Tenant": "other", "X-Tp-Other": "1"})
        http_listing, http_results = over_http(servers.url(http_token, "alpha"))
        other_records = servers.requests(other)
    finally:
        servers.forget(http_token)
        servers.forget(other)

    # One route definition: the same listing and the same results whichever transport carried them.
    assert [tool.name for tool in sse_listing] == ALPHA_TOOLS
    assert [tool.model_dump() for tool in sse_listing] == [tool.model_dump() for tool in http_listing]
    assert [r.model_dump() for r in sse_results] == [r.model_dump() for r in http_results]
    texts = [[b.text for b in r.content if isinstance(b, mcp_types.TextContent)] for r in sse_results]
    assert texts == [["alpha:x y"], ["  Grüße\n"]]

    records = servers.requests(token)
    assert [(r.transport, r.method, r.rpc_method, r.status) for r in records] == [
        ("sse", "GET", None, 200),
        ("sse", "POST", "server/discover", 202),
        ("sse", "POST", "tools/list", 202),
        ("sse", "POST", "tools/call", 202),
        ("sse", "POST", "tools/call", 202),
    ]
    assert records[0].path == f"/{token}/sse/alpha"
    session_paths = {r.path for r in records[1:]}
    assert len(session_paths) == 1
    assert SESSION_PATH.fullmatch(session_paths.pop())
    # The route's query, exactly as configured, on the stream and on every POST.
    assert [r.query for r in records] == [query] * 5
    # The configured headers exactly (spaces kept; UTF-8 bytes recorded latin-1 decoded).
    utf8_as_recorded = GRUSSE_UTF8.decode("latin-1")
    assert [configured(r) for r in records] == [
        [("x-tp-tenant", "acme  corp x"), ("x-tp-utf8", utf8_as_recorded)]
    ] * 5
    assert [r.route for r in records] == ["alpha"] * 5
    assert [r.rpc_params for r in records[3:]] == [
        {"name": "lookup", "arguments": {"q": "x y"}, "_meta": records[3].rpc_params["_meta"]},
        {"name": "echo_text", "arguments": {"text": "  Grüße\n"}, "_meta": records[4].rpc_params["_meta"]},
    ]
    assert [json.loads(r.body)["id"] for r in records[1:]] == [r.rpc_id for r in records[1:]]
    assert {tuple(configured(r)) for r in other_records} == {(("x-tp-tenant", "other"), ("x-tp-other", "1"))}


def test_sse_activity_owes_each_answer_until_it_left_on_the_stream(servers: McpServers, token: str) -> None:
    over_sse(servers.sse_url(token, "alpha"), {})
    mine = [e for e in servers.activity.exchanges() if e.token == token]
    stream = f"/{token}/sse/alpha"
    summary = [(e.method, e.path == stream, e.what, e.ending) for e in mine]
    # The stream once started; each POST answered 202; each request's answer owed on the stream.
    assert summary == [
        ("GET", True, "", STREAM_OPEN),
        ("POST", False, "server/discover", ANSWERED),
        ("GET", True, "server/discover", ANSWERED),
        ("POST", False, "tools/list", ANSWERED),
        ("GET", True, "tools/list", ANSWERED),
        ("POST", False, "tools/call lookup", ANSWERED),
        ("GET", True, "tools/call lookup", ANSWERED),
        ("POST", False, "tools/call echo_text", ANSWERED),
        ("GET", True, "tools/call echo_text", ANSWERED),
    ]
    posts = [e for e in mine if e.method == "POST"]
    owed = [e for e in mine if e.method == "GET" and e.what]
    for post, answer in zip(posts, owed, strict=True):
        assert answer.ended_at is not None and post.ended_at is not None
        assert post.arrived_at <= answer.arrived_at <= answer.ended_at


def test_sse_query_reaches_the_tools(servers: McpServers, token: str) -> None:
    async def names() -> list[str]:
        async with Client(sse_client(servers.sse_url(token, "tenant", "x=1&tenant=b2"))) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    assert asyncio.run(asyncio.wait_for(names(), TIMEOUT)) == ["tenant_b2_lookup"]


def test_str_non_ascii_header_is_refused_by_httpx() -> None:
    # What a runtime on httpx meets: a str value must be ASCII; it must encode it itself.
    with pytest.raises(UnicodeEncodeError):
        httpx2.Headers({"X-Tp-Utf8": "Grüße"})
    assert httpx2.Headers({"X-Tp-Utf8": GRUSSE_UTF8}).raw == [(b"X-Tp-Utf8", GRUSSE_UTF8)]


def test_bad_session_post_is_recorded_and_refused(servers: McpServers, token: str) -> None:
    path = f"/{token}/sse/alpha/messages/{'0' * 32}"
    body = b'{"jsonrpc":"2.0","id":7,"method":"ping"}'
    response = httpx2.post(
        f"{servers.origin}{path}?q=1", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 404
    [record] = servers.requests(token)
    assert (record.transport, record.path, record.query, record.status, record.rpc_id) == (
        "sse",
        path,
        "q=1",
        404,
        7,
    )
    [exchange] = [e for e in servers.activity.exchanges() if e.token == token and e.method == "GET"]
    # Nothing is owed on a stream for a refused POST.
    assert (exchange.what, exchange.ending, exchange.ended_at is not None) == ("ping", ENDED, True)


def test_stop_ends_an_open_sse_stream() -> None:
    fakes = McpServers().start()
    try:
        with httpx2.stream("GET", fakes.sse_url("tstop", "alpha", "k=v"), timeout=TIMEOUT) as response:
            lines = response.iter_lines()
            first, endpoint = next(lines), next(lines)
            started = time.monotonic()
            fakes.stop()
            rest = list(lines)  # ends: the server closed the stream
            assert time.monotonic() - started < 5.0
    finally:
        fakes.stop()
    assert first == "event: endpoint"
    assert re.fullmatch(r"data: /tstop/sse/alpha/messages/[0-9a-f]{32}\?k=v", endpoint)
    assert "event: message" not in rest
    [stream] = fakes.activity.exchanges()
    assert (stream.method, stream.ending, stream.status) == ("GET", STREAM_OPEN, 200)
