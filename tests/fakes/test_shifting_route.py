"""The `shifting` route (issue 24 §3): its list changes per build token when `shift_tools` is called,
over every transport and in both protocol eras, paginated before and after, and its server declares
tools.listChanged and sends notifications/tools/list_changed; no other route declares it."""

from __future__ import annotations

import http.server
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import mcp_types
import pytest
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from toolproof.fakes import McpServers
from toolproof.fakes.activity import STREAM_OPEN
from toolproof.fakes.stdio_server import Reporter, config_entry

BEFORE = ["shift_tools", "stale_tool", "steady_tool"]
AFTER = ["shift_tools", "steady_tool", "fresh_tool"]
TRANSPORTS = ["http", "sse", "stdio"]
WAIT = 10.0


@pytest.fixture(scope="module")
def servers() -> Iterator[McpServers]:
    with McpServers() as fakes:
        yield fakes


def _token() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@asynccontextmanager
async def _client(
    servers: McpServers, transport: str, token: str, route: str, mode: str, seen: list[str]
) -> AsyncIterator[Client]:
    async def handler(message: Any) -> None:
        root = getattr(message, "root", message)
        method = getattr(root, "method", None)
        if isinstance(method, str):
            seen.append(method)

    async with httpx2.AsyncClient() as http:
        if transport == "http":
            wire: Any = streamable_http_client(servers.url(token, route), http_client=http)
        elif transport == "sse":
            wire = sse_client(servers.sse_url(token, route))
        else:
            entry = config_entry(servers, token, route)
            wire = stdio_client(StdioServerParameters(command=entry["command"], args=entry["args"]))
        async with Client(wire, mode=mode, cache=None, message_handler=handler) as client:
            yield client


async def _pages(client: Client) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        pages.append([tool.name for tool in page.tools])
        cursor = page.next_cursor
        if cursor is None:
            return pages


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_list_shifts_for_its_token_only_and_stays_paginated(servers: McpServers, transport: str) -> None:
    token, other = _token(), _token()

    async def main() -> tuple[Any, ...]:
        seen: list[str] = []
        async with _client(servers, transport, token, "shifting", "auto", seen) as client:
            before = await _pages(client)
            result = await client.call_tool("shift_tools", {})
        async with _client(servers, transport, token, "shifting", "auto", []) as client:
            after = await _pages(client)
            fresh = await client.call_tool("fresh_tool", {"q": "x"})
            try:
                await client.call_tool("stale_tool", {"q": "x"})
                stale = "answered"
            except MCPError as error:
                stale = error.message
        async with _client(servers, transport, other, "shifting", "auto", []) as client:
            untouched = await _pages(client)
        return before, result, after, fresh, stale, untouched

    before, result, after, fresh, stale, untouched = anyio.run(main)
    assert before == [BEFORE[:2], BEFORE[2:]]
    assert result.content == [mcp_types.TextContent(type="text", text="tools shifted")]
    assert after == [AFTER[:2], AFTER[2:]]
    assert fresh.content == [mcp_types.TextContent(type="text", text="fresh:x")]
    assert stale == "Unknown tool: stale_tool"
    assert untouched == [BEFORE[:2], BEFORE[2:]]
    assert servers.shifted(token, "shifting") is True
    assert servers.shifted(other, "shifting") is False
    servers.forget(token)
    assert servers.shifted(token, "shifting") is False
    servers.forget(other)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_legacy_session_gets_the_notification(servers: McpServers, transport: str) -> None:
    token = _token()
    seen: list[str] = []

    async def main() -> tuple[bool | None, bool | None]:
        async with _client(servers, transport, token, "shifting", "legacy", seen) as client:
            declared = client.server_capabilities.tools.list_changed  # type: ignore[union-attr]
            await client.call_tool("shift_tools", {})
            with anyio.fail_after(WAIT):
                while "notifications/tools/list_changed" not in seen:
                    if transport == "http":  # the standalone GET stream carries it: give it a turn
                        await client.send_ping()
                    await anyio.sleep(0.05)
        async with _client(servers, transport, token, "alpha", "legacy", []) as client:
            plain = client.server_capabilities.tools.list_changed  # type: ignore[union-attr]
        return declared, plain

    declared, plain = anyio.run(main)
    assert (declared, plain) == (True, False)
    assert seen.count("notifications/tools/list_changed") == 1
    servers.forget(token)


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_a_listen_stream_gets_the_change_of_its_own_token(servers: McpServers, transport: str) -> None:
    token, other = _token(), _token()

    async def main() -> tuple[Any, ...]:
        events: list[Any] = []
        async with (
            _client(servers, transport, token, "shifting", "auto", []) as listener,
            _client(servers, transport, other, "shifting", "auto", []) as stranger,
        ):
            declared = listener.server_capabilities.tools.list_changed  # type: ignore[union-attr]
            async with (
                listener.listen(tools_list_changed=True) as sub,
                stranger.listen(tools_list_changed=True) as foreign,
            ):
                if transport == "stdio":  # one process per session: the change reaches its own streams
                    await listener.call_tool("shift_tools", {})
                else:  # one server for every session of the token
                    async with _client(servers, transport, token, "shifting", "auto", []) as caller:
                        await caller.call_tool("shift_tools", {})
                with anyio.fail_after(WAIT):
                    async for event in sub:
                        events.append(type(event).__name__)
                        break
                with anyio.move_on_after(0.5):
                    async for event in foreign:
                        events.append(f"foreign {type(event).__name__}")
                # An open listen stream is owed nothing more once it started (toolproof.judge.idle).
                listens = [
                    (e.ending, e.ended_at is None)
                    for e in servers.activity.exchanges()
                    if e.token == token and e.what == "subscriptions/listen"
                ]
        return declared, events, listens

    declared, events, listens = anyio.run(main)
    assert declared is True
    assert events == ["ToolsListChanged"]
    assert listens == ([(STREAM_OPEN, False)] if transport == "http" else [])
    servers.forget(token)
    servers.forget(other)


@pytest.mark.parametrize(("body", "shifted"), [(b'{"shifted": false}', False), (b'{"shifted": true}', True)])
def test_a_report_answer_gives_the_list_state(body: bytes, shifted: bool) -> None:
    assert _report_against(body) == shifted


@pytest.mark.parametrize("body", [b"recorded", b'{"shifted": 1}', b"{}", b"[]"])
def test_a_report_answer_without_the_list_state_fails_the_report(body: bytes) -> None:
    # The server then exits REPORT_FAILED: a list it cannot know is never served.
    with pytest.raises(OSError, match="toolproof: the harness answered a report with"):
        _report_against(body)


def _report_against(body: bytes) -> bool:
    """What Reporter.report returns against a harness stand-in answering `body` (HTTP 200)."""

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer) as stand_in:
        thread = threading.Thread(target=stand_in.serve_forever, daemon=True)
        thread.start()
        try:
            return Reporter(
                f"http://127.0.0.1:{stand_in.server_address[1]}/t/stdio-report/shifting", ()
            ).report("{}")
        finally:
            stand_in.shutdown()
