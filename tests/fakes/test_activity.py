"""What the fakes owe, in time (toolproof.fakes.activity): each exchange's arrival and how it ended.

Driven by the official `mcp` client (in the protocol mode that opens a GET stream) and by raw
sockets for the model endpoint: every ending the hang verdicts rest on (answered, dropped, stream
open, client left) and a request still in flight.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from mcp import Client, MCPError

from toolproof.fakes import McpServers, ModelEndpoint, Text
from toolproof.fakes.activity import ANSWERED, CLIENT_LEFT, DROPPED, STREAM_OPEN, Exchange


@pytest.fixture(scope="module")
def fakes() -> Iterator[tuple[ModelEndpoint, McpServers]]:
    with ModelEndpoint() as model, McpServers() as mcp:
        yield model, mcp


@pytest.fixture
def token(fakes: tuple[ModelEndpoint, McpServers]) -> Iterator[str]:
    name = uuid.uuid4().hex[:12]
    yield name
    for fake in fakes:
        fake.forget(name)


def ended(exchanges: list[Exchange]) -> list[tuple[str, str, int, str]]:
    """(method, what, status, ending) of each exchange, in arrival order; "in flight" when not ended."""
    return [
        (e.method, e.what, e.status, e.ending if e.ended_at is not None else "in flight") for e in exchanges
    ]


def test_mcp_exchanges_end_answered_dropped_or_once_a_get_stream_opened(
    fakes: tuple[ModelEndpoint, McpServers], token: str
) -> None:
    _model, mcp = fakes

    async def session() -> None:
        async with Client(mcp.url(token, "alpha"), mode="legacy") as client:
            with pytest.raises(MCPError):
                await client.call_tool("crash_http", {})
        with pytest.raises(BaseExceptionGroup):
            async with Client(mcp.url(token, "alpha"), mode="auto") as client:
                await client.call_tool("crash_close", {})

    asyncio.run(session())
    exchanges = [e for e in mcp.activity.exchanges() if e.token == token]
    gets = [e for e in exchanges if e.method == "GET"]
    assert ended(gets) == [("GET", "", 200, STREAM_OPEN)]  # owed nothing once started, however long open
    posts = [e for e in exchanges if e.method != "GET"]
    assert ended(posts) == [
        ("POST", "initialize", 200, ANSWERED),
        ("POST", "notifications/initialized", 202, ANSWERED),
        ("POST", "tools/call crash_http", 500, ANSWERED),
        ("DELETE", "", 200, ANSWERED),
        ("POST", "server/discover", 200, ANSWERED),  # the stateless mode's first request
        ("POST", "tools/call crash_close", 0, DROPPED),
    ]
    assert all(e.arrived_at <= (e.ended_at or 0.0) for e in exchanges)


def test_a_model_request_is_in_flight_until_answered_or_left(
    fakes: tuple[ModelEndpoint, McpServers], token: str
) -> None:
    model, _mcp = fakes
    model.script(token, [Text("done")])
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "q"}]}).encode()
    request = urllib.request.Request(
        model.base_url(token) + "/chat/completions", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    origin = urlsplit(model.origin)
    half = socket.create_connection((origin.hostname, origin.port), timeout=10)
    half.sendall(
        f"POST /{token}/v1/chat/completions HTTP/1.1\r\nHost: {origin.netloc}\r\n"
        "Content-Length: 100\r\n\r\n{".encode()
    )
    deadline = time.monotonic() + 5
    while len(model.activity.exchanges()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ended([e for e in model.activity.exchanges() if e.token == token]) == [
        ("POST", "", 200, ANSWERED),
        ("POST", "", 0, "in flight"),  # its body is still being read
    ]
    half.close()
    while model.activity.exchanges()[-1].ended_at is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ended([e for e in model.activity.exchanges() if e.token == token])[1] == (
        "POST",
        "",
        0,
        CLIENT_LEFT,
    )
