"""Self-tests of the uvicorn thread runner: loopback only, clear errors, bounded start and stop."""

from __future__ import annotations

import socket
import time
from typing import Any

import httpx2
import pytest
from starlette.types import Receive, Scope, Send

from toolproof.fakes import ServerThreadError, ThreadedServer
from toolproof.fakes._asgi import send_bytes, serve_lifespan


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await serve_lifespan(receive, send)
    else:
        await send_bytes(send, 200, b"hello", "text/plain")


async def broken_startup(scope: Scope, receive: Receive, send: Send) -> None:
    message: Any = await receive()
    assert message["type"] == "lifespan.startup"
    await send({"type": "lifespan.startup.failed", "message": "nope"})


def test_serves_on_loopback_and_stops_quickly() -> None:
    server = ThreadedServer(hello, "hello")
    with pytest.raises(ServerThreadError, match="hello: not started"):
        _ = server.port
    with server:
        port = server.port
        assert server.origin == f"http://127.0.0.1:{server.port}"
        assert server.running
        assert httpx2.get(server.origin).text == "hello"
        with pytest.raises(ServerThreadError, match="hello: already started"):
            server.start()
        began = time.monotonic()
    assert time.monotonic() - began < 1.0
    assert not server.running
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    server.stop()  # idempotent


def test_failed_startup_names_the_server() -> None:
    with pytest.raises(
        ServerThreadError,
        match=r"^broken: uvicorn exited during startup: uvicorn exited with code 3 \(see log\)$",
    ):
        ThreadedServer(broken_startup, "broken").start()
