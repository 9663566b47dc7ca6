"""The legacy HTTP+SSE transport (MCP 2024-11-05) of the fake MCP routes, with the `mcp` SDK's own
`SseServerTransport`, behind the recording wrapper of `toolproof.fakes.mcp_servers`.

`GET /<token>/sse/<route>[?query]` opens a session: the SDK runs the route's
server (`route_server(route)`, the same definition the other transports serve)
on it and sends the `endpoint` event first. The SDK announces
`<prefix>/messages?session_id=<hex>`; the stream is rewritten to announce
`<prefix>/messages/<hex>[?query]` instead, so that every POST carries the
route's own query, exactly as configured, and the records (and the tools that
read the query, `tenant` and `balda`) see it. A POST there is handed to the
SDK with the query it expects (`session_id=<hex>`).

Over SSE a POST is answered 202 at once; the JSON-RPC answer travels on the
GET stream. What the harness owes on the stream is kept as one exchange per
posted request (`toolproof.fakes.activity`), from the POST's arrival until its
answer left on the stream; the GET itself ends `stream open` once started.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any, Final

from mcp.server.lowlevel.server import Server
from mcp.server.sse import SseServerTransport
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import Message, Receive, Scope, Send

from toolproof.fakes.activity import ANSWERED, ENDED, Activity, Exchange

SSE: Final = "sse"
"""The path segment of the SSE routes, and `McpRequest.transport` of their records."""
MESSAGES: Final = "/messages"
"""Where, under `/<token>/sse/<route>`, the POST endpoint lives."""

# The endpoint event as sse_starlette writes what the SDK announces (a self-test pins it).
_ENDPOINT_RE: Final = re.compile(rb"^(event: endpoint\r\ndata: [^\r\n?]+)\?session_id=([0-9a-f]{32})(\r\n)")


class EndpointNotRewritten(RuntimeError):
    """The SDK's first event was not the endpoint event this module knows how to rewrite."""


def sse_path(token: str, route: str) -> str:
    """`/<token>/sse/<route>`: the GET stream of `route` (no checks; callers check token and route)."""
    return f"/{token}/{SSE}/{route}"


def parse_sse_path(parts: list[str]) -> tuple[str, str | None] | None:
    """(route, session) of a split SSE path: `/<t>/sse/<route>` gives (route, None), the POST
    endpoint `/<t>/sse/<route>/messages/<hex>` gives (route, hex); None when it is neither."""
    if len(parts) == 4:
        return parts[3], None
    if len(parts) == 6 and f"/{parts[4]}" == MESSAGES and re.fullmatch(r"[0-9a-f]{32}", parts[5]):
        return parts[3], parts[5]
    return None


class SseRoutes:
    """One SDK `SseServerTransport` per route, and the answers owed on their streams."""

    def __init__(
        self, routes: Iterable[str], server: Callable[[str], Server[Any]], activity: Activity
    ) -> None:
        """`server(route)` builds the route's SDK server; `activity` is the MCP fake's."""
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        self._transports = {
            route: SseServerTransport(MESSAGES, security_settings=security) for route in routes
        }
        self._server = server
        self._activity = activity
        self._lock = threading.Lock()
        # session hex -> JSON of a posted request's id -> the exchange of its answer on the stream
        self._owed: dict[str, dict[str, Exchange]] = {}

    def __contains__(self, route: object) -> bool:
        """Whether `route` is served over SSE."""
        return route in self._transports

    async def stream(self, route: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the GET stream of `route` until the client leaves or the servers stop."""
        token = str(scope["path"]).split("/")[1]
        query = scope.get("query_string", b"")
        session: list[str] = []

        async def rewriting_send(message: Message) -> None:
            if message["type"] == "http.response.body" and message.get("body"):
                body = bytes(message["body"])
                if not session:
                    body = self._announce(body, query if isinstance(query, bytes) else b"", session)
                else:
                    self._answered(session[0], body)
                message = dict(message, body=body)
            await send(message)

        inner = dict(scope, root_path=sse_path(token, route))
        try:
            async with self._transports[route].connect_sse(inner, receive, rewriting_send) as (read, write):
                server = self._server(route)
                await server.run(read, write, server.create_initialization_options())
        finally:
            for exchange in self._forget(session):
                self._activity.end(exchange, ENDED)

    async def post(self, route: str, session: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Hand a POST of the endpoint to the SDK, as the `session_id` query it announced."""
        inner = dict(
            scope,
            path=MESSAGES,
            raw_path=MESSAGES.encode("ascii"),
            query_string=f"session_id={session}".encode("ascii"),
        )
        await self._transports[route].handle_post_message(inner, receive, send)

    def owe(self, session: str, rpc_id: Any, exchange: Exchange) -> None:
        """The answer to the request `rpc_id`, posted to `session`, is owed on its stream."""
        with self._lock:
            self._owed.setdefault(session, {})[json.dumps(rpc_id)] = exchange

    def release(self, session: str, rpc_id: Any) -> Exchange | None:
        """Nothing is owed for `rpc_id` after all (the POST was refused); its exchange, if held."""
        with self._lock:
            return self._owed.get(session, {}).pop(json.dumps(rpc_id), None)

    def _announce(self, body: bytes, query: bytes, session: list[str]) -> bytes:
        match = _ENDPOINT_RE.match(body)
        if match is None:
            raise EndpointNotRewritten(f"toolproof: unexpected first SSE event {body[:200]!r}")
        session.append(match.group(2).decode("ascii"))
        suffix = b"?" + query if query else b""
        return match.group(1) + b"/" + match.group(2) + suffix + match.group(3) + body[match.end() :]

    def _answered(self, session: str, body: bytes) -> None:
        # One event per body chunk, as sse_starlette sends them: `event: message\r\ndata: {...}`.
        for line in body.split(b"\r\n"):
            if not line.startswith(b"data: "):
                continue
            try:
                data = json.loads(line[len(b"data: ") :])
            except ValueError:
                continue
            if isinstance(data, dict) and "id" in data and "method" not in data:
                exchange = self.release(session, data["id"])
                if exchange is not None:
                    self._activity.end(exchange, ANSWERED)

    def _forget(self, session: list[str]) -> list[Exchange]:
        with self._lock:
            return list(self._owed.pop(session[0], {}).values()) if session else []
