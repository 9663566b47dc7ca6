"""Protocol v1 adapter for strands-agents: CONFIG -> `Agent` with `MCPClient.load_servers`, nothing more.

Run it in an environment that has `candidates/strands_agents/requirements.txt` installed, as
`python -m candidates.strands_agents.adapter` from the checkout or as a script
(`python <path>/adapter.py`; tox runs the wheel's copy this way, because strands-agents pins
`mcp` and `openai` below toolproof's floors and so lives in a venv of its own). It maps CONFIG onto
what a strands user writes (`Agent(model=OpenAIModel(client_args={...}, model_id=...),
system_prompt=..., tools=MCPClient.load_servers({"mcpServers": {...}}))`, then
`await agent.invoke_async(input, limits=...)`) and reports what the runtime does; it never
validates, dedups, renames or retries on its own. Standalone on purpose: it imports nothing from
toolproof.

The runtime is the top-level package `strands`; this directory is `strands_agents`, so neither
`-m` (sys.path[0] is the working directory) nor script mode (sys.path[0] is this directory) can
shadow it (`main` checks it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

PROTOCOL_VERSION = 1
MAX_ID_LENGTH = 200
MAX_LINE_BYTES = 16 * 1024 * 1024

Response = dict[str, Any]


def declared_options() -> dict[str, Any]:
    """What the runtime does, as `hello.options` (contracts/options.yaml); measured, not wished.

    Line numbers cite strands-agents 1.62.0 as installed (site-packages/strands/...).
    """
    return {
        # Agent(tools=[MCPClient]) starts each client and lists its tools in the constructor
        # (tools/registry.py:130-141 run_async(tool.load_tools)), and registering a second tool of one
        # name raises ValueError (tools/registry.py:249-253): at build.
        "duplicate_tool_phase": "build",
        # MCP tool names pass through unchanged (tools/mcp/mcp_agent_tool.py tool_spec "name"; no
        # prefix unless configured): neither aliased nor rejected. The default is declared and the
        # suite shows the difference (baseline).
        "invalid_tool_name": "reject",
        # A tool message's content is one string when every block is text (models/openai.py:263-271).
        "tool_content": "string",
        # Adjacent text blocks are merged with "\n" (models/openai.py:252-256).
        "multi_block_join": "\n",
        # structuredContent is kept beside the blocks (tools/mcp/mcp_client.py:1455-1457) but the
        # OpenAI tool message is built from the text blocks only (models/openai.py:237-271).
        "structured_content": "text",
        # A string-encoded object decodes (event_loop/streaming.py:308) to a str that reaches
        # MCPClient.call_tool_async unchanged; the mcp client's CallToolRequestParams refuses a
        # non-dict and strands returns "Tool execution failed: ..." as the tool's result
        # (tools/mcp/mcp_client.py:1385-1424): the tool is not called, the model gets a tool message.
        "string_encoded_arguments": "reject",
        # Per-run cap: invoke_async(limits={"turns": N}) (types/agent.py:150-182). One turn is one model
        # call and the tools it asked for; the cap is checked at the top of the next turn
        # (event_loop/event_loop.py:238-251), so batch N runs and the run stops gracefully with
        # stop_reason "limit_turns" and no further request.
        "turn_cap_end": "graceful",
        "cap_stop_reason": "reported",
        "turn_cap_output": "last_reply",
        # The cap is taken per run (PROTOCOL.md §3), so an invalid value reaches the runtime at the
        # first run: Agent._validate_limits raises TypeError for 0, negative, bool and non-int values
        # before any model request (agent/agent.py:1466, 2057-2083).
        "invalid_cap_phase": "run",
        "zero_max_tool_turns": "invalid_config",
        # Agent keeps self.messages across invocations (agent/agent.py _append_messages).
        "runs_per_build": "conversation",
        # OpenAIModel sends the system prompt as role "system" (models/openai.py:384-389).
        "instruction_role": "system",
        # OpenAIModel streams unless config stream=False: `stream` defaults to True
        # (models/openai.py:61, 547), with stream_options include_usage (models/openai.py:548).
        "model_stream": "always",
    }


class AdapterError(Exception):
    """A failure the adapter reports with a protocol kind of its own choosing (rare by design)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def error_response(kind: str, message: str) -> Response:
    """`{"ok": false, "error": {...}}`."""
    return {"ok": False, "error": {"kind": kind, "message": message}}


def classify(exc: BaseException) -> Response:
    """The protocol error for an exception, by its type (PROTOCOL.md §4).

    - A model failure: strands wraps what the model provider raised in `EventLoopException`
      (`original_exception`, event_loop/event_loop.py:419-425, 729-733); the OpenAI provider
      re-raises `openai.APIError` (models/openai.py:811-819), or raises `ModelThrottledException` /
      `ContextWindowOverflowException`. An HTTP transport error of the model's stream (the openai
      client does not wrap a connection dropped mid-stream) is a model failure too.
    - A `TypeError` raised by `Agent._validate_limits` (agent/agent.py:2057-2083, documented
      "Raises: TypeError: If any key is not a recognized cap or any value is not a positive int"):
      the per-run cap was rejected before any model request. Told apart by the raising function,
      never by the message; any other TypeError stays `internal`.
    - Anything else (a duplicate tool name is a plain ValueError, tools/registry.py:249-253):
      `internal`, untyped.
    """
    import httpx  # type: ignore[import-not-found, unused-ignore]
    import openai  # type: ignore[import-not-found, unused-ignore]
    from strands.types.exceptions import (  # type: ignore[import-not-found, unused-ignore]
        ContextWindowOverflowException,
        EventLoopException,
        ModelThrottledException,
    )

    if isinstance(exc, AdapterError):
        return error_response(exc.kind, str(exc))
    cause: BaseException = exc
    if isinstance(exc, EventLoopException):
        cause = exc.original_exception
    model_errors = (
        openai.APIError,
        httpx.TransportError,
        ModelThrottledException,
        ContextWindowOverflowException,
    )
    if isinstance(cause, model_errors):
        return error_response("model_error", f"{type(cause).__name__}: {cause}")
    if isinstance(exc, TypeError) and _raised_in(exc, "_validate_limits"):
        return error_response("invalid_config", f"TypeError: {exc}")
    return error_response("internal", f"{type(exc).__name__}: {exc}")


def _raised_in(exc: BaseException, function: str) -> bool:
    """Whether the innermost frame of `exc`'s traceback is the runtime function named `function`."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name == function


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys strands has no place for: a build must fail on them (PROTOCOL.md §7).

    `dedup_key` / `dedup_preferred`: strands has no deduplication of MCP servers.
    """
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
        if entry.get("type") != "http":
            found.append(f"mcp_servers[{json.dumps(server_id)}].type {json.dumps(entry.get('type'))}")
    return found


def _reply_text(message: dict[str, Any]) -> str:
    """The text of one assistant message: its text blocks, as the model sent them.

    `str(AgentResult)` appends "\\n" after every text block (agent/agent_result.py:81-94), so the
    adapter reads the message's blocks instead.
    """
    return "".join(block["text"] for block in message.get("content", []) if "text" in block)


class Build:
    """One built agent and the MCP clients the adapter created for it."""

    def __init__(self, agent: Any, clients: list[Any], max_tool_turns: Any) -> None:
        self.agent = agent
        self.clients = clients
        self.max_tool_turns = max_tool_turns

    async def run(self, text: str) -> Response:
        """One `agent.invoke_async`, with CONFIG's cap passed on unchanged as `limits["turns"]`."""
        limits = None if self.max_tool_turns is None else {"turns": self.max_tool_turns}
        result = await self.agent.invoke_async(text, limits=limits)
        # At the cap, AgentResult.message is agent.messages[-1], the tool results
        # (event_loop/event_loop.py:244-249): the last reply is the last assistant message.
        last: dict[str, Any] = next(
            (m for m in reversed(self.agent.messages) if m.get("role") == "assistant"), {}
        )
        if result.stop_reason == "limit_turns":
            return {"ok": True, "output": _reply_text(last), "stop_reason": "max_tool_turns"}
        return {"ok": True, "output": _reply_text(result.message), "stop_reason": "completed"}

    def close(self) -> None:
        """Release the agent's MCP clients (Agent.cleanup removes its consumer: the client stops)."""
        self.agent.cleanup()


class Adapter:
    """One protocol connection: builds by id."""

    def __init__(self) -> None:
        self.builds: dict[str, Build] = {}

    async def hello(self) -> Response:
        """Identify the runtime, its capabilities and declared options."""
        from importlib.metadata import version

        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": "strands-agents",
                "version": version("strands-agents"),
                "language": "python",
                "homepage": "https://github.com/strands-agents/sdk-python",
            },
            # toolsets.namespace: a second tool of one name fails the build (tools/registry.py:249-253),
            # never silent shadowing. loop.turn_cap: limits={"turns": N} per run (types/agent.py:150).
            "capabilities": ["openai.chat", "toolsets.namespace", "loop.turn_cap"],
            "options": declared_options(),
        }

    async def build(self, id: str, config: dict[str, Any]) -> Response:
        """Construct the agent the way a user would (strands connects and lists tools here)."""
        try:
            build = self._build(config)
        except Exception as exc:
            return classify(exc)
        previous = self.builds.pop(id, None)
        if previous is not None:
            previous.close()
        self.builds[id] = build
        return {"ok": True}

    def _build(self, config: dict[str, Any]) -> Build:
        from strands import Agent  # type: ignore[import-not-found, unused-ignore]
        from strands.models.openai import OpenAIModel  # type: ignore[import-not-found, unused-ignore]
        from strands.tools.mcp import MCPClient  # type: ignore[import-not-found, unused-ignore]

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise AdapterError("invalid_config", "strands has no place for " + ", ".join(unsupported))
        servers: dict[str, Any] = {}
        for server_id, entry in config["mcp_servers"].items():
            server: dict[str, Any] = {"transport": "streamable-http", "url": entry["url"]}
            if "headers" in entry:
                server["headers"] = entry["headers"]
            servers[server_id] = server
        # The data path for MCP servers (an `mcpServers` mapping, tools/mcp/mcp_client.py:229-302):
        # CONFIG is data, so this rather than one MCPClient(url=...) per server (PROTOCOL.md §5).
        clients = MCPClient.load_servers({"mcpServers": servers})
        model = config["model"]
        try:
            agent = Agent(
                model=OpenAIModel(
                    client_args={"base_url": model["base_url"], "api_key": model["api_key"]},
                    model_id=model["name"],
                ),
                system_prompt=config["instruction"],
                tools=clients,
                # The default handler prints streamed text to stdout (handlers/callback_handler.py);
                # it only prints, so it changes nothing the suite observes.
                callback_handler=None,
            )
        except BaseException:
            # The constructor may fail after some clients started (a duplicate name): stop them.
            for client in clients:
                client.stop(None, None, None)
            raise
        return Build(agent, clients, config.get("max_tool_turns"))

    async def run(self, id: str, input: str) -> Response:
        """One run of the agent built under `id`."""
        build = self.builds.get(id)
        if build is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            return await build.run(input)
        except Exception as exc:
            return classify(exc)

    async def close(self, id: str) -> Response:
        """Release the agent built under `id`."""
        build = self.builds.pop(id, None)
        if build is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            build.close()
        except Exception as exc:
            return classify(exc)
        return {"ok": True}

    async def close_all(self) -> None:
        """Release every build (end of the connection)."""
        for id in list(self.builds):
            await self.close(id)

    async def handle(self, request: object) -> Response:
        """Answer one decoded request; never raises."""
        try:
            return await self._dispatch(request)
        except Exception as exc:
            return error_response("internal", f"{type(exc).__name__}: {exc}")

    async def _dispatch(self, request: object) -> Response:
        if not isinstance(request, dict):
            return error_response("internal", "malformed request: not a JSON object")
        op = request.get("op")
        if op == "hello":
            if request.get("protocol") != PROTOCOL_VERSION:
                return error_response(
                    "internal", f"unsupported protocol: {json.dumps(request.get('protocol'))}"
                )
            return await self.hello()
        id = request.get("id")
        if op not in ("build", "run", "close"):
            return error_response("internal", f"unknown op: {json.dumps(op)}")
        if not isinstance(id, str) or not 1 <= len(id) <= MAX_ID_LENGTH:
            return error_response("internal", "malformed request: id must be a string of 1 to 200 characters")
        if op == "build":
            config = request.get("config")
            if not isinstance(config, dict):
                return error_response("internal", "malformed request: config must be an object")
            return await self.build(id, config)
        if op == "run":
            text = request.get("input")
            if not isinstance(text, str):
                return error_response("internal", "malformed request: input must be a string")
            return await self.run(id, text)
        return await self.close(id)


def factory() -> Adapter:
    """In-process (`py:candidates.strands_agents.adapter:factory`), where the runtime shares the env."""
    return Adapter()


# -- JSON Lines transport (same shape as candidates/reference/adapter.py) ------------------------


def protect_stdout() -> IO[bytes]:
    """The protocol stream: a copy of fd 1; fd 1 and sys.stdout then point at stderr."""
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol_fd, "wb")


def read_lines(stream: IO[bytes]) -> Iterator[bytes | None]:
    """Request lines until EOF; None for a line over 16 MiB; blank lines skipped."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(MAX_LINE_BYTES)
            yield None
            continue
        if line.strip():
            yield line


async def answer_line(adapter: Adapter, line: bytes | None) -> Response:
    """The response to one raw request line; never raises."""
    if line is None:
        return error_response("internal", "malformed request: line over 16 MiB")
    try:
        request = json.loads(line)
    except ValueError as exc:
        return error_response("internal", f"malformed request: {exc}")
    return await adapter.handle(request)


def serve(stdin: IO[bytes], out: IO[bytes], adapter: Adapter) -> None:
    """Answer every request line in order, on one event loop that lives as long as the process."""
    loop = asyncio.new_event_loop()
    try:
        for line in read_lines(stdin):
            response = loop.run_until_complete(answer_line(adapter, line))
            out.write(json.dumps(response).encode("ascii") + b"\n")
            out.flush()
        loop.run_until_complete(adapter.close_all())
    finally:
        loop.close()


def _check_runtime_is_the_installed_package() -> None:
    """Fail loudly if `strands` would resolve to this directory rather than the PyPI package."""
    import strands  # type: ignore[import-not-found, unused-ignore]

    here = Path(__file__).resolve().parent
    where = Path(strands.__file__ or "").resolve().parent
    if where == here:
        raise SystemExit(f"`import strands` found the adapter's own directory {here}, not the runtime")


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.strands_agents.adapter` (or of the file run as a script)."""
    parser = argparse.ArgumentParser(prog="python -m candidates.strands_agents.adapter")
    parser.parse_args(argv)
    out = protect_stdout()  # before the runtime is imported: a print at import must not reach fd 1
    if os.environ.get("ADAPTER_DEBUG"):
        import logging

        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    _check_runtime_is_the_installed_package()
    try:
        serve(sys.stdin.buffer, out, Adapter())
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
