"""The `slow` route (issue 24 §4): a `stall` call stays unanswered until the client cancels it, the
cancellation is recorded (notifications/cancelled with the call's id; at 2026-07-28 streamable HTTP,
the call's exchange ended `client left`), a stdio stall is owed until its cancellation, and the
route's `lookup` answers at once on the same server afterwards, over every transport and era."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from toolproof.fakes import McpServers
from toolproof.fakes.activity import CLIENT_LEFT
from toolproof.fakes.mcp_tools import STALL_SECONDS
from toolproof.fakes.stdio_server import config_entry

TIMEOUT = 0.5
CASES = [("http", "auto"), ("http", "legacy"), ("sse", "auto"), ("stdio", "auto"), ("stdio", "legacy")]


@pytest.fixture(scope="module")
def servers() -> Iterator[McpServers]:
    with McpServers() as fakes:
        yield fakes


def _token() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@asynccontextmanager
async def _client(servers: McpServers, transport: str, token: str, mode: str) -> AsyncIterator[Client]:
    async with httpx2.AsyncClient() as http:
        if transport == "http":
            wire: Any = streamable_http_client(servers.url(token, "slow"), http_client=http)
        elif transport == "sse":
            wire = sse_client(servers.sse_url(token, "slow"))
        else:
            entry = config_entry(servers, token, "slow")
            wire = stdio_client(StdioServerParameters(command=entry["command"], args=entry["args"]))
        async with Client(wire, mode=mode, cache=None) as client:
            yield client


async def _stall_then_lookup(servers: McpServers, transport: str, token: str, mode: str) -> list[str]:
    """Call stall with a short timeout (the SDK cancels it), then lookup on the same session."""
    async with _client(servers, transport, token, mode) as client:
        with pytest.raises(MCPError, match="timed out"):
            await client.call_tool("stall", {}, read_timeout_seconds=TIMEOUT)
        result = await client.call_tool("lookup", {"q": "after"})
        texts = [getattr(block, "text", None) for block in result.content]
        await anyio.sleep(0.3)  # the cancellation's record (a stdio report) lands
        return [str(text) for text in texts]


@pytest.mark.parametrize(("transport", "mode"), CASES)
def test_a_stall_waits_for_its_cancellation_and_the_next_call_is_answered(
    servers: McpServers, transport: str, mode: str
) -> None:
    token = _token()
    texts = anyio.run(_stall_then_lookup, servers, transport, token, mode)
    assert texts == ["slow:after"]
    records = [r for r in servers.requests(token) if r.rpc_method is not None]
    calls = [r for r in records if r.rpc_method == "tools/call"]
    assert [r.rpc_params["name"] for r in calls] == ["stall", "lookup"]
    stall = calls[0]
    cancels = [r.rpc_params["requestId"] for r in records if r.rpc_method == "notifications/cancelled"]
    exchanges = [
        e for e in servers.activity.exchanges() if e.token == token and e.arrived_at == stall.arrived_at
    ]
    modern_http = transport == "http" and stall.header_values("mcp-protocol-version") == ["2026-07-28"]
    assert modern_http == (transport == "http" and mode == "auto")
    if modern_http:  # the response stream closed is the cancellation: no notification
        assert (cancels, [e.ending for e in exchanges]) == ([], [CLIENT_LEFT])
    else:
        assert cancels == [stall.rpc_id]
    if transport == "stdio":  # owed from the report until the cancellation's report
        owed = [e for e in servers.activity.exchanges() if e.token == token and e.method == "STDIO"]
        assert [(e.what, e.ending) for e in owed] == [("tools/call stall", CLIENT_LEFT)]
        assert owed[0].ended_at is not None and owed[0].ended_at - owed[0].arrived_at < STALL_SECONDS / 2


def test_records_carry_their_arrival_on_the_activity_clock(servers: McpServers) -> None:
    token = _token()
    anyio.run(_stall_then_lookup, servers, "http", token, "auto")
    arrivals = [r.arrived_at for r in servers.requests(token)]
    assert all(a > 0 for a in arrivals) and arrivals == sorted(arrivals)
