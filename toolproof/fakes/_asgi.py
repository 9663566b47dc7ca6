"""Small raw-ASGI helpers shared by the fakes: exact request capture and plain replies.

Everything here works on the ASGI scope as uvicorn hands it over, so what the
fakes record is what arrived on the wire: the raw path and query string are
never decoded or normalised, header values are decoded as latin-1 (lossless:
every byte maps to one code point), and duplicate headers stay in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import anyio
from starlette.types import Message, Receive, Scope, Send

MAX_BODY_BYTES: Final = 16 * 1024 * 1024
"""Bodies larger than this are refused with 413 instead of being buffered."""

Headers = tuple[tuple[str, str], ...]

App = Callable[[Scope, Receive, Send], Awaitable[object]]
"""An ASGI app as the fakes write them: it may return DROP to close the connection unanswered."""


class BodyTooLarge(Exception):
    """The request body exceeded MAX_BODY_BYTES."""


class ClientGone(Exception):
    """The client disconnected before its request body was complete."""


def raw_path(scope: Scope) -> str:
    """Return the request path exactly as sent (latin-1 of the raw bytes, no query)."""
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and raw:
        return raw.decode("latin-1")
    path = scope.get("path", "")
    return str(path)


def raw_query(scope: Scope) -> str:
    """Return the query string exactly as sent, without the leading `?`."""
    query = scope.get("query_string", b"")
    return query.decode("latin-1") if isinstance(query, bytes) else str(query)


def raw_headers(scope: Scope) -> Headers:
    """Return every header as (name, value), in arrival order, duplicates included."""
    return tuple((name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"])


async def read_body(receive: Receive, limit: int = MAX_BODY_BYTES) -> bytes:
    """Read the whole request body; raise BodyTooLarge or ClientGone instead of hanging on bad input."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay_receive(body: bytes, receive: Receive) -> Receive:
    """Return a receive callable that yields `body` once, then defers to the real receive."""
    pending = [body]

    async def replay() -> Message:
        if pending:
            return {"type": "http.request", "body": pending.pop(), "more_body": False}
        return await receive()

    return replay


def parse_json(body: bytes) -> Any | None:
    """Parse a JSON body; None when it is empty or not valid JSON (the raw bytes are kept anyway)."""
    if not body:
        return None
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None


async def send_bytes(send: Send, status: int, body: bytes, content_type: str) -> None:
    """Send one complete response."""
    headers = [
        (b"content-type", content_type.encode("latin-1")),
        (b"content-length", str(len(body)).encode("ascii")),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def send_json(send: Send, status: int, payload: Any) -> None:
    """Send one complete JSON response."""
    await send_bytes(send, status, json.dumps(payload).encode("utf-8"), "application/json")


async def serve_lifespan(receive: Receive, send: Send) -> None:
    """Answer the ASGI lifespan protocol for an app that needs no startup work."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


class ClosingSignal:
    """Lets another thread end every pending and future `receive()` with `http.disconnect`.

    uvicorn waits for open responses (SSE streams) before running the lifespan
    shutdown, then cancels them noisily after its graceful timeout. Firing this
    signal first makes streaming handlers see their client leave and finish.
    """

    def __init__(self) -> None:
        """Create an unbound signal (bind() it from the server's event loop)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def bind(self) -> None:
        """Attach to the running event loop (call from the lifespan startup)."""
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def fire(self) -> None:
        """Signal closing; safe from any thread; no-op when unbound or the loop is gone."""
        loop, event = self._loop, self._event
        if loop is not None and event is not None and not loop.is_closed():
            loop.call_soon_threadsafe(event.set)

    def wrap(self, receive: Receive) -> Receive:
        """A receive that returns `http.disconnect` as soon as the signal fires."""
        event = self._event
        if event is None:
            return receive

        async def receive_or_closing() -> Message:
            message: Message = {"type": "http.disconnect"}
            if event.is_set():
                return message
            async with anyio.create_task_group() as group:

                async def take() -> None:
                    nonlocal message
                    message = await receive()
                    group.cancel_scope.cancel()

                async def closing() -> None:
                    await event.wait()
                    group.cancel_scope.cancel()

                group.start_soon(take)
                group.start_soon(closing)
            return message

        return receive_or_closing


class DropConnection:
    """Returned (not raised) by an ASGI app to make uvicorn close the socket without any response.

    uvicorn answers 500 when an app raises before `http.response.start`, so
    raising cannot simulate a dropped connection. When an app *returns* a
    non-None value, uvicorn (h11 and httptools implementations alike) logs
    an error and closes the transport without writing a byte: the client sees
    the connection closed with no response. The log line for this sentinel is
    filtered out (see `install_drop_log_filter`).
    """

    def __repr__(self) -> str:
        return "toolproof.DropConnection"


DROP: Final = DropConnection()


class _DropLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return not (isinstance(args, tuple) and any(isinstance(arg, DropConnection) for arg in args))


_DROP_FILTER: Final = _DropLogFilter()


def install_drop_log_filter() -> None:
    """Silence uvicorn's error line for deliberate DropConnection returns (idempotent)."""
    logger = logging.getLogger("uvicorn.error")
    if _DROP_FILTER not in logger.filters:
        logger.addFilter(_DROP_FILTER)
