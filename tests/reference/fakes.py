"""Small loopback fakes for the reference runtime's own tests.

A real low-level `mcp` server (one Server, routes `/<token>/mcp/<route>`) and
a scripted OpenAI chat-completions endpoint, each served by uvicorn in a
thread on a socket pre-bound to 127.0.0.1:0. The conformance suite has its
own, richer fakes (conformance/fakes); these only cover what the smoke tests
need and never import the harness.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
import uvicorn
from mcp.server.lowlevel.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

Q_SCHEMA = {"type": "object", "properties": {"q": {"type": "STRING"}}, "required": ["q"]}
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def tool(name: str, route: str, schema: dict[str, Any] | None = None) -> types.Tool:
    """A tool whose description carries the `[tp:<route>/<name>]` marker."""
    return types.Tool(name=name, description=f"[tp:{route}/{name}]", input_schema=schema or Q_SCHEMA)


ROUTE_TOOLS: dict[str, list[types.Tool]] = {
    "alpha": [
        tool("lookup", "alpha"),
        tool("echo_text", "alpha", {"type": "object", "properties": {"text": {"type": "string"}}}),
        tool("multi_block", "alpha", {"type": "object", "properties": {"blocks": {"type": "array"}}}),
        tool("report_error", "alpha", {"type": "object", "properties": {"text": {"type": "string"}}}),
        tool("rpc_error", "alpha", EMPTY_SCHEMA),
        tool("crash_http", "alpha", EMPTY_SCHEMA),
        tool("crash_close", "alpha", EMPTY_SCHEMA),
        types.Tool(name="no_description_tool", input_schema=EMPTY_SCHEMA),
    ],
    "beta": [tool("lookup", "beta")],
    "gamma": [tool("lookup", "gamma")],
    "cased": [tool("Lookup", "cased")],
    "names": [tool("balda.control.shutdown", "names", EMPTY_SCHEMA)],
}


def text_result(*texts: str, is_error: bool = False) -> types.CallToolResult:
    """A result of text blocks."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text) for text in texts], is_error=is_error
    )


def route_of(ctx: Any) -> str:
    """The route recorded on the request scope by the recording middleware."""
    return str(ctx.request.scope["tp_route"])


async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=ROUTE_TOOLS.get(route_of(ctx), []))


async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    route, name, args = route_of(ctx), params.name, params.arguments or {}
    if name in ("lookup", "Lookup"):
        return text_result(f"{route}:{args.get('q')}")
    if name == "echo_text":
        return text_result(str(args.get("text", "")))
    if name == "multi_block":
        return text_result(*[str(block) for block in args.get("blocks", [])])
    if name == "report_error":
        return text_result(str(args.get("text", "")), is_error=True)
    if name == "rpc_error":
        raise MCPError(code=-32000, message="rpc boom")
    if name == "no_description_tool":
        return text_result("nodesc")
    if name == "balda.control.shutdown":
        return text_result("shutdown refused")
    return text_result(f"unexpected {name} {json.dumps(args)}")


@dataclass
class McpHit:
    """One HTTP request that reached the MCP fake."""

    route: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any


@dataclass
class McpServers:
    """The MCP fake: `url(token, route, query)` and the recorded hits."""

    port: int = 0
    hits: list[McpHit] = field(default_factory=list)

    def url(self, token: str, route: str, query: str = "") -> str:
        base = f"http://127.0.0.1:{self.port}/{token}/mcp/{route}"
        return f"{base}?{query}" if query else base

    def token_hits(self, token: str) -> list[McpHit]:
        return [hit for hit in self.hits if hit.path.startswith(f"/{token}/")]

    def app(self) -> Any:
        server = Server("toolproof-reference-tests", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
        inner = server.streamable_http_app(
            streamable_http_path="/mcp",
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )

        async def recording(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await inner(scope, receive, send)
                return
            body = b""
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            try:
                decoded = json.loads(body) if body else None
            except ValueError:
                decoded = None
            path = scope["path"]
            route = path.rsplit("/mcp/", 1)[-1]
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            self.hits.append(McpHit(route, path, scope["query_string"].decode(), headers, decoded))
            params = decoded.get("params") if isinstance(decoded, dict) else None
            if isinstance(params, dict) and params.get("name") == "crash_http":
                await send({"type": "http.response.start", "status": 500, "headers": []})
                await send({"type": "http.response.body", "body": b"boom"})
                return
            if isinstance(params, dict) and params.get("name") == "crash_close":
                # Promise a body, send part of it, stop: uvicorn drops the connection.
                promised = [(b"content-type", b"application/json"), (b"content-length", b"1000")]
                await send({"type": "http.response.start", "status": 200, "headers": promised})
                await send({"type": "http.response.body", "body": b"{", "more_body": True})
                return
            scope = dict(scope, tp_route=route, path="/mcp", raw_path=b"/mcp")
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if replayed:
                    return await receive()
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}

            await inner(scope, replay, send)

        return recording


Reply = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class ModelEndpoint:
    """Scripted chat completions: each request pops the next scripted message."""

    port: int = 0
    script: list[Reply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def base_url(self, token: str) -> str:
        return f"http://127.0.0.1:{self.port}/{token}/v1"

    def token_requests(self, token: str) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["token"] == token]

    def app(self) -> Any:
        async def completions(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append({"token": request.path_params["token"], "body": body})
            reply = self.script.pop(0) if self.script else {"content": "done"}
            message = reply(body) if callable(reply) else reply
            message = {"role": "assistant", "content": None, **message}
            finish = "tool_calls" if message.get("tool_calls") else "stop"
            return JSONResponse(
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", ""),
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                }
            )

        return Starlette(routes=[Route("/{token}/v1/chat/completions", completions, methods=["POST"])])


def tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One scripted function call."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


class Served:
    """An ASGI app served by uvicorn in a daemon thread on a pre-bound loopback socket."""

    def __init__(self, app: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fake server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
