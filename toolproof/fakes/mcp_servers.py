"""Real `mcp` SDK low-level servers, one per route, behind one recording ASGI app on one port.

`/<token>/mcp/<route>[?query]` reaches the route's server. The wrapper records
every HTTP request first (GET/POST/DELETE, raw path and query, all headers,
body, JSON-RPC method/params/id), then stashes a `RequestView` in the scope
(`scope["toolproof"]`; handlers read it through `ctx.request.scope`, which
holds in both protocol modes), rewrites the path to `/mcp` and hands the
request to that route's SDK app. Both protocol modes are served: 2026-07-28
(stateless POSTs) and 2025-11-25 (initialize, session id, GET stream,
DELETE). DNS-rebinding protection is off: only 127.0.0.1 is bound.
`/<token>/sse/<route>[?query]` serves the same route over the legacy HTTP+SSE
transport, through the same recording (toolproof.fakes.mcp_sse).

The `shifting` route's list changes per build token: a `tools/call` of
`shift_tools` is noted when it is recorded (over any transport, a stdio
server's report included), and every later request of that token sees the
shifted list (`RequestView.shifted`; a stdio server gets it in the answer to
its report). Its server declares `tools.listChanged` (2025-11-25: the
initialize capabilities; 2026-07-28: it serves `subscriptions/listen`) and the
call sends `notifications/tools/list_changed`: on the session (stdio, the
legacy SSE stream, the streamable-HTTP GET stream) and on that token's listen
streams.

The `slow` route's `stall` call is held STALL_SECONDS, or until the client
cancels it (the SDK then cancels the handler); a client's own disconnect ends
an exchange `client left` (at 2026-07-28, how streamable HTTP cancels). Over
stdio the harness sees no answer, so a reported `stall` call is owed (an
activity exchange) until its process reports the cancellation, or
STALL_SECONDS.

Two tools on `alpha` never reach the SDK: a `tools/call` of `crash_http` is
answered HTTP 500 by the wrapper, and one of `crash_close` gets its
connection closed with no response at all (recorded with status 0).

`activity` keeps when each request arrived (before its body was read) and
how its answer ended (answered, dropped, client left; a GET stream once it
started): what the harness owed a candidate, and when (toolproof.fakes.activity).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from contextlib import AsyncExitStack
from types import TracebackType
from typing import Any, Final, Self

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import Message, Receive, Scope, Send

from toolproof.fakes._asgi import (
    DROP,
    BodyTooLarge,
    ClientGone,
    ClosingSignal,
    parse_json,
    raw_headers,
    raw_path,
    raw_query,
    read_body,
    replay_receive,
    send_bytes,
)
from toolproof.fakes.activity import (
    ANSWERED,
    CLIENT_LEFT,
    DROPPED,
    ENDED,
    STREAM_OPEN,
    Activity,
    Exchange,
)
from toolproof.fakes.http_thread import ThreadedServer
from toolproof.fakes.mcp_blocks import BLOCKS_ROUTE, read_link
from toolproof.fakes.mcp_sse import SSE, SseRoutes, parse_sse_path, sse_path
from toolproof.fakes.mcp_tools import (
    CRASH_CLOSE,
    CRASH_HTTP,
    CRASH_ROUTE,
    LIST_CHANGED_ROUTES,
    ROUTES,
    SHIFT_TOOL,
    STALL_SECONDS,
    RequestView,
    run,
    shifts,
    stalls,
    tool_pages,
    tools_for,
)
from toolproof.fakes.records import HTTP, NO_RESPONSE, STDIO, McpRequest, StdioProcess
from toolproof.fakes.tokens import check_token

_log = logging.getLogger(__name__)

SCOPE_KEY: Final = "toolproof"
NOTICE_LEAD_SECONDS: Final = 0.2
"""How long `shift_tools` holds its answer after sending notifications/tools/list_changed."""
SDK_PATH: Final = "/mcp"
STDIO_REPORT: Final = "stdio-report"
"""`POST /<token>/stdio-report/<route>`: where a stdio server reports each message it read
(toolproof.fakes.stdio_server); appended to the same records as the HTTP requests."""


def _rpc_summary(data: Any) -> tuple[str | None, Any, Any]:
    """(method, params, id) of a JSON-RPC message; a batch gives joined methods and lists."""
    if isinstance(data, dict):
        method = data.get("method")
        return (method if isinstance(method, str) else None), data.get("params"), data.get("id")
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        methods = [str(item.get("method")) for item in data]
        return ",".join(methods), [item.get("params") for item in data], [item.get("id") for item in data]
    return None, None, None


def _crash_kind(route: str, data: Any) -> str | None:
    """CRASH_HTTP / CRASH_CLOSE when the body calls that alpha tool, else None."""
    if route != CRASH_ROUTE:
        return None
    for message in data if isinstance(data, list) else [data]:
        if isinstance(message, dict) and message.get("method") == "tools/call":
            params = message.get("params")
            name = params.get("name") if isinstance(params, dict) else None
            if name in (CRASH_HTTP, CRASH_CLOSE):
                return str(name)
    return None


def _view(ctx: ServerRequestContext[Any, Any]) -> RequestView:
    # Over HTTP the view rides in the ASGI scope; over stdio the transport hands it over as the
    # message's request context itself (toolproof.fakes.stdio_server).
    request = ctx.request
    if isinstance(request, RequestView):
        return request
    view = request.scope.get(SCOPE_KEY) if isinstance(request, Request) else None
    if not isinstance(view, RequestView):
        raise MCPError(types.INTERNAL_ERROR, "toolproof: no HTTP request context reached the handler")
    return view


_CURSOR_PREFIX = "toolproof-page-"


def _page_index(cursor: str | None, pages: int) -> int:
    """The 0-based page a tools/list cursor names; an unknown cursor is the client's error."""
    if cursor is None:
        return 0
    number = cursor.removeprefix(_CURSOR_PREFIX)
    if cursor.startswith(_CURSOR_PREFIX) and number.isdigit() and 2 <= int(number) <= pages:
        return int(number) - 1
    raise MCPError(types.INVALID_PARAMS, f"toolproof: unknown tools/list cursor {cursor!r}")


async def _list_tools(
    ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    pages = tool_pages(_view(ctx))
    index = _page_index(params.cursor if params is not None else None, len(pages))
    more = index + 1 < len(pages)
    return types.ListToolsResult(
        tools=[spec.listing() for spec in pages[index]],
        next_cursor=f"{_CURSOR_PREFIX}{index + 2}" if more else None,
    )


class TokenListen:
    """`subscriptions/listen` (2026-07-28) per build token: one bus and handler per token, so a
    build's list change reaches that build's listen streams only, never another build's."""

    def __init__(self) -> None:
        """No token seen yet."""
        self._buses: dict[str, tuple[InMemorySubscriptionBus, ListenHandler]] = {}

    def _of(self, token: str) -> tuple[InMemorySubscriptionBus, ListenHandler]:
        if token not in self._buses:
            bus = InMemorySubscriptionBus()
            self._buses[token] = (bus, ListenHandler(bus))
        return self._buses[token]

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        """Serve one listen stream of the requesting token."""
        return await self._of(_view(ctx).token)[1](ctx, params)

    async def tools_changed(self, token: str) -> None:
        """Publish a tools list change to `token`'s listen streams."""
        await self._of(token)[0].publish(ToolsListChanged())


async def _read_resource(
    _ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    """resources/read on the `blocks` route (recorded like every request; tp-result-link-not-fetched)."""
    result = read_link(str(params.uri))
    if result is None:
        raise MCPError(types.INVALID_PARAMS, f"toolproof: no resource {params.uri!r}")
    return result


class RouteServer(Server[Any]):
    """A route's SDK server; `listen` set: it declares tools.listChanged in both protocol eras."""

    def __init__(self, route: str, listen: TokenListen | None) -> None:
        """The server of `route`, serving listen streams through `listen` (None: no listChanged)."""

        async def call_tool(
            ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
        ) -> types.CallToolResult:
            view = _view(ctx)
            for spec in tools_for(view):
                if spec.name == params.name:
                    if stalls(view.route, spec.name):
                        # Never answered in time: the SDK cancels this sleep when the client cancels
                        # the request (notifications/cancelled, or a closed 2026-07-28 HTTP stream).
                        await anyio.sleep(STALL_SECONDS)
                    result = run(spec, params.arguments, view)
                    if listen is not None and spec.name == SHIFT_TOOL:
                        # Both eras: the session copy reaches a 2025-11-25 client (the SDK drops it
                        # at 2026-07-28), the listen streams a 2026-07-28 one.
                        await ctx.session.send_tool_list_changed()
                        await listen.tools_changed(view.token)
                        # Over HTTP the notice and the answer travel on two streams (the GET or
                        # listen stream, the POST's): a head start makes "the notice came first"
                        # hold for the client too, so on_notification is judged deterministically.
                        await anyio.sleep(NOTICE_LEAD_SECONDS)
                    return result
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")

        super().__init__(
            f"toolproof-{route}",
            version="1.0.0",
            on_list_tools=_list_tools,
            on_call_tool=call_tool,
            on_subscriptions_listen=listen,
            # Only `blocks` serves a resource: the one its resource_link names, so a runtime that
            # fetches it on its own gets an answer and only the fetch is judged.
            on_read_resource=_read_resource if route == BLOCKS_ROUTE else None,
        )
        self.list_changed = listen is not None

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        """The SDK's options; tools.listChanged as this route declares it (2025-11-25 handshake)."""
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=self.list_changed),
            experimental_capabilities,
            extensions,
        )


def route_server(route: str) -> Server[Any]:
    """The SDK server of one route: the one definition every transport (HTTP, SSE, stdio) serves."""
    return RouteServer(route, TokenListen() if route in LIST_CHANGED_ROUTES else None)


class McpServers:
    """Every fake MCP route on one 127.0.0.1 port (start() / stop() or `with`)."""

    def __init__(self) -> None:
        """Create stopped servers."""
        self._lock = threading.Lock()
        self._records: dict[str, list[McpRequest]] = {}
        self._shifted: set[tuple[str, str]] = set()
        #: stdio `stall` calls still owed, by (token, route, pid, JSON of the request id).
        self._stdio_stalls: dict[tuple[str, str, int, str], Exchange] = {}
        self._apps: dict[str, Starlette] = {}
        self._sse: SseRoutes | None = None
        self._closing = ClosingSignal()
        #: When each request arrived and when it was answered (toolproof.judge.idle).
        self.activity = Activity("MCP")
        self._server = ThreadedServer(self._app, "mcp servers")

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        """Build fresh SDK servers and start serving; raise ServerThreadError if uvicorn does not come up."""
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        self._apps = {
            route: route_server(route).streamable_http_app(
                streamable_http_path=SDK_PATH, transport_security=security
            )
            for route in ROUTES
        }
        self._sse = SseRoutes(ROUTES, route_server, self.activity)
        self._server.start()
        return self

    def stop(self) -> None:
        """End open streams, then stop serving (bounded wait)."""
        self._closing.fire()
        self._server.stop()

    def __enter__(self) -> Self:
        """Start serving."""
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Stop serving."""
        self.stop()

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return self._server.origin

    # -- test-facing API ---------------------------------------------------

    def url(self, token: str, route: str, query: str = "") -> str:
        """`http://127.0.0.1:PORT/<token>/mcp/<route>[?query]`; `query` is used raw, as given."""
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; routes: {', '.join(ROUTES)}")
        if query.startswith("?"):
            raise ValueError("pass the query without its leading '?'")
        suffix = f"?{query}" if query else ""
        return f"{self.origin}/{check_token(token)}/mcp/{route}{suffix}"

    def sse_url(self, token: str, route: str, query: str = "") -> str:
        """`http://127.0.0.1:PORT/<token>/sse/<route>[?query]`: the legacy HTTP+SSE stream of `route`
        (its POST endpoint is announced on the stream and carries the same query); `query` is raw."""
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; routes: {', '.join(ROUTES)}")
        if query.startswith("?"):
            raise ValueError("pass the query without its leading '?'")
        suffix = f"?{query}" if query else ""
        return f"{self.origin}{sse_path(check_token(token), route)}{suffix}"

    def stdio_report_url(self, token: str, route: str) -> str:
        """`http://127.0.0.1:PORT/<token>/stdio-report/<route>`: where a stdio server of `route` reports."""
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r}; routes: {', '.join(ROUTES)}")
        return f"{self.origin}/{check_token(token)}/{STDIO_REPORT}/{route}"

    def requests(self, token: str) -> list[McpRequest]:
        """Every request recorded for `token` (HTTP requests and stdio messages), in arrival order."""
        with self._lock:
            return list(self._records.get(token, ()))

    def shifted(self, token: str, route: str) -> bool:
        """Whether `token`'s list on `route` has shifted (a tools/call of `shift_tools` was recorded)."""
        with self._lock:
            return (token, route) in self._shifted

    def forget(self, token: str) -> None:
        """Drop the records, the shifted lists and the ended exchanges of `token`."""
        with self._lock:
            self._records.pop(token, None)
            self._shifted = {key for key in self._shifted if key[0] != token}
            self._stdio_stalls = {key: e for key, e in self._stdio_stalls.items() if key[0] != token}
        self.activity.forget(token)

    # -- serving -----------------------------------------------------------

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        async with AsyncExitStack() as stack:
            message = await receive()
            if message["type"] != "lifespan.startup":
                return
            self._closing.bind()
            try:
                for app in self._apps.values():
                    await stack.enter_async_context(app.router.lifespan_context(app))
            except Exception as exc:
                await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                return
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
        await send({"type": "lifespan.shutdown.complete"})

    def _record(
        self, scope: Scope, token: str, route: str, body: bytes, data: Any, transport: str, arrived_at: float
    ) -> tuple[list[McpRequest], int]:
        rpc_method, rpc_params, rpc_id = _rpc_summary(data)
        with self._lock:
            records = self._records.setdefault(token, [])
            index = len(records)
            records.append(
                McpRequest(
                    token=token,
                    route=route,
                    index=index,
                    method=str(scope["method"]),
                    path=raw_path(scope),
                    query=raw_query(scope),
                    headers=raw_headers(scope),
                    body=body,
                    rpc_method=rpc_method,
                    rpc_params=rpc_params,
                    rpc_id=rpc_id,
                    status=NO_RESPONSE,
                    transport=transport,
                    arrived_at=arrived_at,
                )
            )
            if shifts(route, data):
                self._shifted.add((token, route))
        return records, index

    async def _stdio_report(self, scope: Scope, receive: Receive, send: Send, token: str, route: str) -> None:
        # A report is the harness's own plumbing, not traffic of the candidate: it is never recorded
        # as an HTTP request, and a malformed one is refused loudly (the server then fails closed).
        try:
            body = await read_body(receive)
        except (ClientGone, BodyTooLarge):
            await send_bytes(send, 400, b"toolproof: unreadable stdio report", "text/plain")
            return
        report = parse_json(body)
        process = _stdio_process(report) if isinstance(report, dict) else None
        line = report.get("message") if isinstance(report, dict) else None
        query = report.get("query", "") if isinstance(report, dict) else None
        if (
            scope["method"] != "POST"
            or route not in ROUTES
            or process is None
            or not isinstance(line, str)
            or not isinstance(query, str)
        ):
            await send_bytes(send, 400, b"toolproof: malformed stdio report", "text/plain")
            return
        data = parse_json(line.encode("utf-8"))
        rpc_method, rpc_params, rpc_id = _rpc_summary(data)
        arrived_at = time.monotonic()
        with self._lock:
            records = self._records.setdefault(token, [])
            records.append(
                McpRequest(
                    token=token,
                    route=route,
                    index=len(records),
                    method="",
                    path="",
                    query=query,
                    headers=(),
                    body=line.encode("utf-8"),
                    rpc_method=rpc_method,
                    rpc_params=rpc_params,
                    rpc_id=rpc_id,
                    status=NO_RESPONSE,
                    transport=STDIO,
                    process=process,
                    arrived_at=arrived_at,
                )
            )
            if shifts(route, data):
                self._shifted.add((token, route))
            shifted = (token, route) in self._shifted
        self._owe_stdio_stall(token, route, process.pid, data)
        # The answer tells the server the token's list state for this message (RequestView.shifted).
        await send_bytes(send, 200, json.dumps({"shifted": shifted}).encode("ascii"), "application/json")

    def _owe_stdio_stall(self, token: str, route: str, pid: int, data: Any) -> None:
        """A stdio `stall` call is owed until its process reports the call cancelled, or until
        STALL_SECONDS, when the server answers it: the harness sees no stdio answer, so without this
        a runtime waiting on it would look idle to `proto.answers-when-idle`."""
        if not isinstance(data, dict):
            return
        raw = data.get("params")
        params: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if data.get("method") == "tools/call" and stalls(route, params.get("name")):
            exchange = self.activity.arrive(token, "STDIO", f"/{token}/{STDIO_REPORT}/{route}")
            self.activity.describe(exchange, f"tools/call {params.get('name')}")
            with self._lock:
                self._stdio_stalls[(token, route, pid, json.dumps(data.get("id")))] = exchange
            timer = threading.Timer(STALL_SECONDS, self.activity.end, (exchange, ANSWERED))
            timer.daemon = True
            timer.start()
        elif data.get("method") == "notifications/cancelled":
            key = (token, route, pid, json.dumps(params.get("requestId")))
            with self._lock:
                cancelled = self._stdio_stalls.pop(key, None)
            if cancelled is not None:
                self.activity.end(cancelled, CLIENT_LEFT)

    def _set_status(self, records: list[McpRequest], index: int, status: int) -> None:
        with self._lock:
            records[index] = dataclasses.replace(records[index], status=status)

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> object:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return None
        if scope["type"] != "http":
            return None
        parts = raw_path(scope).split("/")
        token = parts[1] if len(parts) > 1 else ""
        if len(parts) == 4 and parts[2] == STDIO_REPORT:
            await self._stdio_report(scope, receive, send, token, parts[3])
            return None
        exchange = self.activity.arrive(token, str(scope["method"]), raw_path(scope))
        try:
            return await self._serve(scope, receive, send, exchange)
        finally:
            self.activity.end(exchange, ENDED)  # a no-op when _serve ended it

    async def _serve(self, scope: Scope, receive: Receive, send: Send, exchange: Exchange) -> object:
        try:
            body = await read_body(receive)
        except ClientGone:
            self.activity.end(exchange, CLIENT_LEFT)
            return None
        except BodyTooLarge:
            self.activity.status(exchange, 413)
            await send_bytes(send, 413, b"toolproof: request body too large", "text/plain")
            self.activity.end(exchange, ANSWERED)
            return None
        parts = raw_path(scope).split("/")
        token = parts[1] if len(parts) > 1 else ""
        route = parts[3] if len(parts) == 4 and parts[0] == "" and parts[2] == "mcp" else ""
        sse = parse_sse_path(parts) if len(parts) > 3 and parts[0] == "" and parts[2] == SSE else None
        if sse is not None:
            route = sse[0]
        data = parse_json(body)
        transport = SSE if sse is not None else HTTP
        records, index = self._record(scope, token, route, body, data, transport, exchange.arrived_at)
        self.activity.describe(exchange, _asked(records[index]))
        # The SDK's GET stream, and a 2026-07-28 listen stream, carry only messages of the server's
        # own (a list change at most): once it has started, nothing more is owed on it.
        listen = records[index].rpc_method == "subscriptions/listen"
        opened = STREAM_OPEN if scope["method"] == "GET" or listen else None

        started = completed = False

        async def recording_send(message: Message) -> None:
            nonlocal started, completed
            if message["type"] == "http.response.start":
                started = True
                self._set_status(records, index, int(message["status"]))
                self.activity.status(exchange, int(message["status"]))
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                completed = True
            await send(message)
            if completed:
                self.activity.end(exchange, ANSWERED)
            elif started and opened is not None:
                self.activity.end(exchange, opened)

        if route not in self._apps or (sse is not None and self._sse is None):
            await send_bytes(recording_send, 404, b"toolproof: no such MCP route", "text/plain")
            return None
        crash = _crash_kind(route, data) if scope["method"] == "POST" else None
        if crash == CRASH_CLOSE:
            self.activity.end(exchange, DROPPED)
            return DROP
        if crash == CRASH_HTTP:
            await send_bytes(recording_send, 500, b"toolproof: crash_http", "text/plain")
            return None
        view = RequestView(token, route, raw_query(scope), raw_headers(scope), self.shifted(token, route))
        inner = dict(scope, path=SDK_PATH, raw_path=SDK_PATH.encode("ascii"))
        inner[SCOPE_KEY] = view
        left = False

        async def noting_receive() -> Message:
            # The client's own disconnect (not stop()'s): on 2026-07-28 streamable HTTP, closing a
            # request's response stream is how a client cancels it.
            nonlocal left
            message = await receive()
            left = left or message["type"] == "http.disconnect"
            return message

        receiving = replay_receive(body, self._closing.wrap(noting_receive))
        try:
            if sse is not None and self._sse is not None:
                await self._serve_sse(scope, receiving, recording_send, sse, records[index], view)
            else:
                await self._apps[route](inner, receiving, recording_send)
        except Exception:
            _log.exception("toolproof: MCP route %s failed on %s %s", route, scope["method"], raw_path(scope))
            if started:
                self.activity.end(exchange, DROPPED)
                return DROP  # mid-response: close the connection
            await send_bytes(recording_send, 500, b"toolproof: MCP app failure", "text/plain")
        if left and not completed:
            self.activity.end(exchange, CLIENT_LEFT)
        if started and not completed:  # a stream ended by stop(): finish it cleanly
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        return None

    async def _serve_sse(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        where: tuple[str, str | None],
        record: McpRequest,
        view: RequestView,
    ) -> None:
        """The GET stream or a POST of the legacy SSE transport (toolproof.fakes.mcp_sse)."""
        assert self._sse is not None
        route, session = where
        if session is None:
            await self._sse.stream(route, scope, receive, send)
            return
        # A request's answer travels on the stream: it is owed there from the POST's arrival on.
        owed = isinstance(record.body, bytes) and record.rpc_method is not None and record.rpc_id is not None
        if owed and isinstance(parse_json(record.body), dict):
            exchange = self.activity.arrive(record.token, "GET", sse_path(record.token, route))
            self.activity.describe(exchange, _asked(record))
            self._sse.owe(session, record.rpc_id, exchange)
        sse_routes = self._sse

        async def refusing_send(message: Message) -> None:
            # A refused POST (no session, unparsable) owes nothing on the stream: said before the
            # client can see the refusal.
            if owed and message["type"] == "http.response.start" and message["status"] != 202:
                refused = sse_routes.release(session, record.rpc_id)
                if refused is not None:
                    self.activity.end(refused, ENDED)
            await send(message)

        inner = dict(scope)
        inner[SCOPE_KEY] = view
        await sse_routes.post(route, session, inner, receive, refusing_send)


def sse_config_entry(
    servers: McpServers, token: str, route: str, *, query: str = "", headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """The CONFIG entry of `route`'s legacy HTTP+SSE server for `token`.

    The shape is contracts/config.json's `type: sse` entry (the stdio one is
    `toolproof.fakes.stdio_server.config_entry`). `headers` are
    passed as given, values included (spaces, non-ASCII), for the runtime to send.
    """
    return {"type": SSE, "url": servers.sse_url(token, route, query), "headers": dict(headers or {})}


def _stdio_process(report: dict[str, Any]) -> StdioProcess | None:
    """The process part of a stdio report; None when it is not the shape stdio_server sends."""
    pid, argv, cwd, env = (report.get(key) for key in ("pid", "argv", "cwd", "env"))
    if not (
        isinstance(pid, int) and isinstance(cwd, str) and isinstance(argv, list) and isinstance(env, list)
    ):
        return None
    if not all(isinstance(arg, str) for arg in argv):
        return None
    pairs: list[tuple[str, str | None]] = []
    for pair in env:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            return None
        if not (pair[1] is None or isinstance(pair[1], str)):
            return None
        pairs.append((pair[0], pair[1]))
    start, ppid, parent_start = (report.get(key) for key in ("start", "ppid", "parent_start"))
    if not all(
        value is None or (isinstance(value, int) and not isinstance(value, bool))
        for value in (start, ppid, parent_start)
    ):
        return None
    return StdioProcess(
        pid=pid,
        argv=tuple(argv),
        cwd=cwd,
        env=tuple(pairs),
        start=start,
        ppid=ppid,
        parent_start=parent_start,
    )


def _asked(record: McpRequest) -> str:
    """What an MCP request asked, for messages: its JSON-RPC method, and the tool a tools/call names."""
    params = record.rpc_params
    tool = params.get("name") if record.rpc_method == "tools/call" and isinstance(params, dict) else None
    return " ".join(str(part) for part in (record.rpc_method, tool) if part is not None)
