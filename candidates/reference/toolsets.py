"""MCP toolsets: list a server's tools, call one of them.

Each server is reached at its exact configured URL (query string kept) with
its configured headers, through the official `mcp` client over streamable
HTTP (negotiation mode "auto").

Every operation opens its own short session and closes it before returning.
Why: the MCP client's anyio task groups enclose whatever runs inside the
session; a dropped connection in the middle of one tool call cancels that
whole scope. A session per operation keeps such a failure to that one call
(reported to the model as a tool error) and never lets an anyio cancel scope
outlive an adapter call.
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import mcp_types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .errors import ToolError, go_quote
from .hydrate import ServerConfig
from .packing import McpTool

MCP_MODE = "auto"
MCP_TIMEOUT_SECONDS = 30.0
MAX_LIST_PAGES = 100


def describe_exception(exc: BaseException) -> str:
    """A short reason for `exc`, looking inside anyio's exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return text if text else type(exc).__name__


@functools.cache
def shared_tls_context() -> ssl.SSLContext:
    """One TLS context for every MCP client: building one costs ~35 ms, per session otherwise."""
    return ssl.create_default_context()


def server_http_client(server: ServerConfig) -> httpx2.AsyncClient:
    """The HTTP client for one server: its configured headers on every request."""
    return httpx2.AsyncClient(
        headers=dict(server.headers), timeout=MCP_TIMEOUT_SECONDS, verify=shared_tls_context()
    )


@asynccontextmanager
async def open_server_session(server: ServerConfig) -> AsyncIterator[Client]:
    """An initialised MCP client session to `server` (its URL exactly as configured)."""
    async with server_http_client(server) as http_client:
        transport = streamable_http_client(server.url, http_client=http_client)
        client = Client(transport, mode=MCP_MODE, read_timeout_seconds=MCP_TIMEOUT_SECONDS, cache=None)
        async with client:
            yield client


def mcp_tool(server_id: str, tool: mcp_types.Tool) -> McpTool:
    """The runtime's view of one listed tool."""
    return McpTool(
        server_id=server_id,
        name=tool.name,
        description=tool.description,
        input_schema=dict(tool.input_schema),
    )


async def list_server_tools(server: ServerConfig) -> list[McpTool]:
    """Every tool of one server, following pagination cursors."""
    tools: list[McpTool] = []
    async with open_server_session(server) as client:
        cursor: str | None = None
        for _ in range(MAX_LIST_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools += [mcp_tool(server.id, tool) for tool in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                break
    return tools


async def list_all_tools(servers: list[ServerConfig]) -> list[McpTool]:
    """The tools of all servers, server by server in order; ToolError when one fails."""
    tools: list[McpTool] = []
    for server in servers:
        try:
            tools += await list_server_tools(server)
        except Exception as exc:
            raise ToolError(
                f"mcp server {go_quote(server.id)}: list tools failed: {describe_exception(exc)}"
            ) from exc
    return tools


async def call_server_tool(
    server: ServerConfig, name: str, arguments: dict[str, Any]
) -> mcp_types.CallToolResult:
    """Call tool `name` (its original MCP name) on `server` with `arguments`."""
    async with open_server_session(server) as client:
        return await client.call_tool(name, arguments)
