"""MCP toolsets: list a server's tools, call one of them.

Each server is reached through the official `mcp` client over its configured
transport: streamable HTTP (negotiation mode "auto") or legacy HTTP+SSE at its
exact configured URL (query string kept) with its configured headers, or stdio:
its command spawned with its args, in its cwd, with the runtime's whole
environment under its configured env (config values win). Header values go out
as their UTF-8 bytes (RFC 9110 obs-text), never re-encoded or refused.

Every operation opens its own short session and closes it before returning.
Why: the MCP client's anyio task groups enclose whatever runs inside the
session; a dropped connection in the middle of one tool call cancels that
whole scope. A session per operation keeps such a failure to that one call
(reported to the model as a tool error) and never lets an anyio cancel scope
outlive an adapter call.
"""

from __future__ import annotations

import functools
import os
import ssl
import sys
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

import anyio
import httpx2
import mcp_types
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
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


def header_bytes(server: ServerConfig) -> dict[str, Any]:
    """The server's configured headers, each value as its UTF-8 bytes (httpx refuses non-ASCII text)."""
    return {name: value.encode("utf-8") for name, value in server.headers.items()}


def server_http_client(server: ServerConfig) -> httpx2.AsyncClient:
    """The HTTP client for one server: its configured headers on every request."""
    return httpx2.AsyncClient(
        headers=httpx2.Headers(header_bytes(server)), timeout=MCP_TIMEOUT_SECONDS, verify=shared_tls_context()
    )


class PostFailures(httpx2.AsyncBaseTransport):
    """The legacy SSE transport's HTTP, watching its message POSTs.

    The SDK's SSE client logs and swallows a POST that fails (an error status, a dropped
    connection) and leaves the request waiting for an answer on the stream that will never come
    (modelcontextprotocol/python-sdk#2110). This transport notes the failure, so that the
    operation waiting on it ends at once with the reason (`raced`).
    """

    def __init__(self) -> None:
        self.inner = httpx2.AsyncHTTPTransport(verify=shared_tls_context())
        self.failed = anyio.Event()
        self.reason = ""

    def fail(self, reason: str) -> None:
        """Note the first failed POST."""
        if not self.failed.is_set():
            self.reason = reason
            self.failed.set()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send `request`; a failed POST is noted before it reaches the SDK."""
        try:
            response = await self.inner.handle_async_request(request)
        except httpx2.TransportError as exc:
            if request.method == "POST":
                self.fail(f"message POST failed: {describe_exception(exc)}")
            raise
        if request.method == "POST" and response.status_code >= 400:
            self.fail(f"message POST failed: HTTP {response.status_code}")
        return response

    async def aclose(self) -> None:
        """Close the underlying transport."""
        await self.inner.aclose()


def sse_client_factory(failures: PostFailures) -> Callable[..., httpx2.AsyncClient]:
    """The SSE transport's HTTP client factory: the SDK's headers and timeouts, over `failures`."""

    def factory(
        headers: dict[str, Any] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(headers=headers, timeout=timeout, auth=auth, transport=failures)

    return factory


def stdio_parameters(server: ServerConfig) -> StdioServerParameters:
    """How to spawn a stdio server: its command and args as configured, in its cwd, with the
    runtime's whole environment and the configured env over it (the seed runtime's rule)."""
    return StdioServerParameters(
        command=server.command,
        args=list(server.args),
        env={**os.environ, **server.env},
        cwd=server.cwd,
    )


def server_transport(
    server: ServerConfig, http_client: httpx2.AsyncClient, failures: PostFailures
) -> AbstractAsyncContextManager[Any]:
    """The MCP transport of `server`'s configured type."""
    if server.type == "stdio":
        # The server's stderr is its log, never protocol: it goes to this process's stderr.
        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)
    if server.type == "sse":
        return sse_client(
            server.url,
            headers=header_bytes(server),
            timeout=MCP_TIMEOUT_SECONDS,
            httpx_client_factory=sse_client_factory(failures),
        )
    return streamable_http_client(server.url, http_client=http_client)


T = TypeVar("T")


async def raced(operation: Awaitable[T], failures: PostFailures) -> T:
    """`operation`'s result, or ToolError as soon as a message POST failed (SSE only)."""
    outcome: list[T] = []

    async def watch(scope: anyio.CancelScope) -> None:
        await failures.failed.wait()
        scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch, group.cancel_scope)
        outcome.append(await operation)
        group.cancel_scope.cancel()
    if not outcome:
        raise ToolError(failures.reason)
    return outcome[0]


async def on_server(server: ServerConfig, operation: Callable[[Client], Awaitable[T]]) -> T:
    """Run `operation` in an initialised MCP client session to `server`, over its configured transport."""
    failures = PostFailures()
    async with server_http_client(server) as http_client:
        transport = server_transport(server, http_client, failures)
        client = Client(transport, mode=MCP_MODE, read_timeout_seconds=MCP_TIMEOUT_SECONDS, cache=None)
        async with client:
            return await raced(operation(client), failures)


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

    async def listing(client: Client) -> list[McpTool]:
        tools: list[McpTool] = []
        cursor: str | None = None
        for _ in range(MAX_LIST_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools += [mcp_tool(server.id, tool) for tool in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                break
        return tools

    return await on_server(server, listing)


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
    """Call tool `name` (its original MCP name) on `server` with `arguments`, waiting at most the
    server's configured tool_timeout_s (else MCP_TIMEOUT_SECONDS). On expiry the SDK sends
    notifications/cancelled for the call (on 2026-07-28 streamable HTTP it closes the call's
    response stream instead) and raises: a tool failure, reported as tool_failure declares."""
    timeout = server.tool_timeout_s
    return await on_server(
        server, lambda client: client.call_tool(name, arguments, read_timeout_seconds=timeout)
    )
