"""Self-tests of the fake MCP servers, driven by the official `mcp` client in both protocol modes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import httpx2
import mcp_types
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from toolproof.fakes import NAMES_LONG_TOOL, NAMES_LONG_TWIN, ROUTES, McpServers
from toolproof.fakes.mcp_tools import NESTED_SCHEMA

MODES = ["auto", "legacy"]
T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def servers() -> Iterator[McpServers]:
    with McpServers() as fakes:
        yield fakes


@pytest.fixture
def token(servers: McpServers) -> Iterator[str]:
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name
    servers.forget(name)


@asynccontextmanager
async def connect(url: str, mode: str, headers: Sequence[tuple[str, str]] = ()) -> AsyncIterator[Client]:
    """An official client session; with headers, through an httpx2 client that carries them."""
    if not headers:
        async with Client(url, mode=mode) as client:
            yield client
        return
    async with (
        httpx2.AsyncClient(headers=list(headers)) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        yield client


async def tool_names(url: str, mode: str, headers: Sequence[tuple[str, str]] = ()) -> list[str]:
    async with connect(url, mode, headers) as client:
        return [tool.name for tool in (await client.list_tools()).tools]


def texts(result: mcp_types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, mcp_types.TextContent)]


def leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


@pytest.mark.parametrize("mode", MODES)
def test_alpha_listing_and_results(servers: McpServers, token: str, mode: str) -> None:
    async def session() -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
        async with connect(servers.url(token, "alpha"), mode) as client:
            listing = (await client.list_tools()).tools
            calls: list[tuple[str, dict[str, Any]]] = [
                ("lookup", {"q": "x y"}),
                ("echo_text", {"text": "  verbatim\n"}),
                ("echo_text", {"text": ""}),
                ("multi_block", {"blocks": ["a", "", "c"]}),
                ("structured", {"text": "s"}),
                ("report_error", {"text": "it broke"}),
                ("no_description_tool", {}),
                ("nested_args", {"order": {"id": 7, "priority": "high", "items": [{"sku": "a", "qty": 1}]}}),
                ("nested_args", {"order": {"id": "x", "items": [{"sku": "a"}]}}),
                ("output_send__qq", {"channel": "qq", "text": "hi"}),
                ("lookup", {}),
            ]
            return listing, [await client.call_tool(name, args) for name, args in calls]

    listing, results = run(session())
    assert [tool.name for tool in listing] == list(ROUTES["alpha"])
    described = {tool.name: tool.description for tool in listing}
    assert described["lookup"] == "Look something up. [tp:alpha/lookup]"
    assert described["no_description_tool"] is None
    for name, description in described.items():
        if name != "no_description_tool":
            assert description is not None
            assert description.endswith(f" [tp:alpha/{name}]")
    schemas = {tool.name: tool.input_schema for tool in listing}
    assert schemas["lookup"] == {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    assert schemas["nested_args"] == NESTED_SCHEMA
    assert [(texts(r), r.is_error) for r in results] == [
        (["alpha:x y"], False),
        (["  verbatim\n"], False),
        ([""], False),
        (["a", "", "c"], False),
        (["s"], False),
        (["it broke"], True),
        (["nodesc"], False),
        (["nested ok"], False),
        (["invalid arguments for nested_args: 'qty' is a required property"], True),
        (["ok"], False),
        (["invalid arguments for lookup: 'q' is a required property"], True),
    ]
    assert results[4].structured_content == {"text": "s"}


def test_auto_mode_records_stateless_posts_exactly(servers: McpServers, token: str) -> None:
    query = "a=1&b=%2F%20x&flag&a=2"
    headers = [("X-Trace", "one,  two"), ("X-Trace", "three"), ("Authorization", "Bearer abc")]

    async def session() -> None:
        async with connect(servers.url(token, "beta", query), "auto", headers) as client:
            await client.list_tools()
            await client.call_tool("lookup", {"q": "z"})

    run(session())
    records = servers.requests(token)
    assert [(r.method, r.rpc_method) for r in records] == [
        ("POST", "server/discover"),
        ("POST", "tools/list"),
        ("POST", "tools/call"),
    ]
    for index, record in enumerate(records):
        assert (record.index, record.token, record.route) == (index, token, "beta")
        assert (record.path, record.query, record.status) == (f"/{token}/mcp/beta", query, 200)
        assert record.header_values("x-trace") == ["one,  two", "three"]
        assert record.header_values("AUTHORIZATION") == ["Bearer abc"]
        assert record.header_values("mcp-session-id") == []
    call = records[2]
    assert call.rpc_params["name"] == "lookup"
    assert call.rpc_params["arguments"] == {"q": "z"}
    assert call.rpc_id == records[1].rpc_id + 1


def test_legacy_mode_records_session_lifecycle(servers: McpServers, token: str) -> None:
    query = "x=%41&y="

    async def session() -> list[str]:
        async with connect(servers.url(token, "gamma", query), "legacy") as client:
            await client.call_tool("lookup", {"q": "z"})
            return texts(await client.call_tool("lookup", {"q": "w"}))

    assert run(session()) == ["gamma:w"]
    records = servers.requests(token)
    # The GET stream is opened by a concurrent task: its place among the POSTs may vary.
    assert [(r.method, r.rpc_method, r.status) for r in records if r.method == "GET"] == [("GET", None, 200)]
    assert [(r.method, r.rpc_method, r.status) for r in records if r.method != "GET"] == [
        ("POST", "initialize", 200),
        ("POST", "notifications/initialized", 202),
        ("POST", "tools/call", 200),
        ("POST", "tools/list", 200),  # the client lists tools once it calls an unlisted one
        ("POST", "tools/call", 200),
        ("DELETE", None, 200),
    ]
    assert {r.query for r in records} == {query}
    assert records[0].header_values("mcp-session-id") == []
    (session_id,) = records[1].header_values("mcp-session-id")
    assert all(r.header_values("mcp-session-id") == [session_id] for r in records[1:])


@pytest.mark.parametrize("mode", MODES)
def test_crash_http_answers_500(servers: McpServers, token: str, mode: str) -> None:
    async def session() -> tuple[MCPError, list[str]]:
        async with connect(servers.url(token, "alpha"), mode) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("crash_http", {})
            return caught.value, texts(await client.call_tool("lookup", {"q": "after"}))

    error, after = run(session())
    assert (error.code, error.message) == (mcp_types.INTERNAL_ERROR, "Server returned an error response")
    assert after == ["alpha:after"]
    crash = next(r for r in servers.requests(token) if r.rpc_method == "tools/call")
    assert (crash.rpc_params["name"], crash.status) == ("crash_http", 500)


@pytest.mark.parametrize("mode", MODES)
def test_crash_close_drops_the_connection(servers: McpServers, token: str, mode: str) -> None:
    async def session() -> None:
        async with connect(servers.url(token, "alpha"), mode) as client:
            await client.call_tool("crash_close", {})

    with pytest.raises(BaseExceptionGroup) as caught:
        run(session())
    assert [(type(e), str(e)) for e in leaves(caught.value)] == [
        (httpx2.RemoteProtocolError, "Server disconnected without sending a response.")
    ]
    crash = servers.requests(token)[-1]
    assert (crash.rpc_method, crash.rpc_params["name"], crash.status) == ("tools/call", "crash_close", 0)


@pytest.mark.parametrize("mode", MODES)
def test_tenant_tools_follow_query_and_authorization(servers: McpServers, token: str, mode: str) -> None:
    async def listings() -> list[list[str]]:
        return [
            await tool_names(servers.url(token, "tenant"), mode),
            await tool_names(servers.url(token, "tenant", "tenant=acme"), mode),
            await tool_names(servers.url(token, "tenant"), mode, [("Authorization", "Bearer k9")]),
            await tool_names(
                servers.url(token, "tenant", "x=1&tenant=b2"), mode, [("Authorization", "Bearer k9")]
            ),
        ]

    assert run(listings()) == [
        ["tenant_none_lookup"],
        ["tenant_acme_lookup"],
        ["auth_k9_lookup"],
        ["tenant_b2_lookup", "auth_k9_lookup"],
    ]


@pytest.mark.parametrize("mode", MODES)
def test_tenant_call_and_balda_context(servers: McpServers, token: str, mode: str) -> None:
    async def session() -> list[list[str]]:
        async with connect(servers.url(token, "tenant", "tenant=acme"), mode) as client:
            hit = texts(await client.call_tool("tenant_acme_lookup", {"q": "q1"}))
            with pytest.raises(MCPError, match="Unknown tool: tenant_none_lookup"):
                await client.call_tool("tenant_none_lookup", {"q": "q1"})
        async with connect(servers.url(token, "balda", "balda_context=ctx%2042&z=1"), mode) as client:
            memory = texts(await client.call_tool("session_memory_read", {}))
            status = texts(await client.call_tool("balda_status", {}))
        async with connect(servers.url(token, "balda"), mode) as client:
            empty = texts(await client.call_tool("session_memory_read", {}))
        return [hit, memory, status, empty]

    assert run(session()) == [
        ["tenant_acme_lookup:q1"],
        ["context=ctx 42"],
        ["status ok"],
        ["context="],
    ]


def test_other_routes_list_their_tools(servers: McpServers, token: str) -> None:
    async def session() -> dict[str, Any]:
        found: dict[str, Any] = {}
        for route in ("beta", "gamma", "cased", "balda", "names_dotted", "names_pair", "collide_one"):
            async with connect(servers.url(token, route), "auto") as client:
                listing = (await client.list_tools()).tools
                found[route] = [(tool.name, tool.description) for tool in listing]
        async with connect(servers.url(token, "cased"), "auto") as client:
            found["cased-call"] = texts(await client.call_tool("Lookup", {"q": "Q"}))
        return found

    found = run(session())
    assert found["beta"] == [("lookup", "Look something up on beta. [tp:beta/lookup]")]
    assert found["gamma"] == [("lookup", "Look something up on gamma. [tp:gamma/lookup]")]
    assert found["cased"] == [("Lookup", "Look something up (cased name). [tp:cased/Lookup]")]
    assert [name for name, _ in found["balda"]] == ["balda_status", "session_memory_read"]
    assert found["names_dotted"] == [
        ("balda.control.shutdown", "Ask the host to shut down. [tp:names_dotted/balda.control.shutdown]"),
    ]
    assert found["names_pair"] == [
        (NAMES_LONG_TOOL, f"A tool with a very long name. [tp:names_pair/{NAMES_LONG_TOOL}]"),
        (NAMES_LONG_TWIN, f"Another tool with a very long name. [tp:names_pair/{NAMES_LONG_TWIN}]"),
    ]
    assert (len(NAMES_LONG_TOOL), len(NAMES_LONG_TWIN)) == (70, 70)
    assert NAMES_LONG_TOOL[:64] == NAMES_LONG_TWIN[:64]
    assert [name for name, _ in found["collide_one"]] == ["c", "b_c", "b__c", "b-c"]
    assert found["cased-call"] == ["cased:Q"]


def test_unknown_route_is_404_and_recorded(servers: McpServers, token: str) -> None:
    async def post(path: str) -> int:
        async with httpx2.AsyncClient() as http:
            response = await http.post(
                f"{servers.origin}{path}", content=b'{"jsonrpc":"2.0","id":9,"method":"x"}'
            )
            return response.status_code

    assert run(post(f"/{token}/mcp/nowhere?q=1")) == 404
    assert run(post(f"/{token}/mcp/alpha/extra")) == 404
    records = servers.requests(token)
    assert [(r.route, r.path, r.query, r.status, r.rpc_method, r.rpc_id) for r in records] == [
        ("nowhere", f"/{token}/mcp/nowhere", "q=1", 404, "x", 9),
        ("", f"/{token}/mcp/alpha/extra", "", 404, "x", 9),
    ]


def test_url_validation(servers: McpServers, token: str) -> None:
    assert servers.url(token, "alpha", "a=%20") == f"{servers.origin}/{token}/mcp/alpha?a=%20"
    with pytest.raises(ValueError, match="unknown route"):
        servers.url(token, "nowhere")
    with pytest.raises(ValueError, match="leading"):
        servers.url(token, "alpha", "?a=1")
    with pytest.raises(ValueError, match="invalid token"):
        servers.url("../x", "alpha")
