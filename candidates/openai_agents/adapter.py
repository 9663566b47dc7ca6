"""Protocol v1 adapter for openai-agents: CONFIG -> `Agent` + `Runner`, nothing more.

Run it as `python -m candidates.openai_agents.adapter [--profile NAME]` in an
environment that has `candidates/openai_agents/requirements.txt` installed.
It maps CONFIG onto what an openai-agents user writes (one
`MCPServerStreamableHttp` per server, `OpenAIChatCompletionsModel` on an
`AsyncOpenAI` client, `Runner.run(..., max_turns=...)` (under profile
`openai-agents-stream`: `Runner.run_streamed(...)`, its events consumed to the
end; under profile `openai-agents-responses`: the SDK's default `OpenAIResponsesModel`
on the same client, the Responses API), an `SQLiteSession` per build) and reports what the runtime does; it
never validates, dedups, renames or retries on its own. Standalone on purpose: it imports nothing
from toolproof, so it can be copied into the runtime's own repository.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

PROTOCOL_VERSION = 1
MAX_ID_LENGTH = 200
MAX_LINE_BYTES = 16 * 1024 * 1024
#: openai-agents' own default `max_turns` (agents.run_config.DEFAULT_MAX_TURNS).
RUNTIME_DEFAULT_MAX_TURNS = 10
#: How openai-agents words a Responses API response that ended failed or incomplete (a
#: ModelBehaviorError; agents/models/_response_terminal.py:14 and :35).
RESPONSE_ENDED_PREFIX = "Responses stream ended with terminal event `"

Response = dict[str, Any]


@dataclass(frozen=True)
class Profile:
    """One way to configure the runtime; `prefix` turns on `include_server_in_tool_names`."""

    name: str
    prefix: bool = False
    stream: bool = False
    """`Runner.run_streamed` (the chat model then sends `stream: true`) instead of `Runner.run`."""
    responses: bool = False
    """The SDK's default model class, `OpenAIResponsesModel` (the Responses API), not the chat model."""


PROFILES = {
    "openai-agents": Profile("openai-agents"),
    "openai-agents-prefix": Profile("openai-agents-prefix", prefix=True),
    "openai-agents-stream": Profile("openai-agents-stream", stream=True),
    "openai-agents-responses": Profile("openai-agents-responses", responses=True),
}


#: `hello.implementation.name` per profile.
IMPLEMENTATION_NAMES = {
    "openai-agents": "openai-agents",
    "openai-agents-prefix": "openai-agents (prefix)",
    "openai-agents-stream": "openai-agents (stream)",
    "openai-agents-responses": "openai-agents (responses)",
}


def declared_options(profile: Profile) -> dict[str, Any]:
    """What the runtime does, as `hello.options` (contracts/options.yaml); measured, not wished."""
    options: dict[str, Any] = {
        # Tools are listed (and duplicates found) when a run starts, not at build.
        "duplicate_tool_phase": "run",
        # Default: a `UserError` for duplicate names; with the prefix profile, `mcp_<server>__<tool>`.
        "tool_namespacing": "prefix" if profile.prefix else "error",
        # MCP tool names are passed through unchanged (neither aliased nor rejected): the
        # default is declared and the suite shows the difference (see expected-failures.yaml).
        "invalid_tool_name": "reject",
        # MCP text results become `[{"type": "text", "text": ...}]` in the tool message,
        # one part per text block: the blocks' texts are joined with "".
        "tool_content": "text_parts",
        "multi_block_join": "",
        # Several blocks are several parts (their text joined with ""). No block is the string
        # "[]" (str() of the empty list, agents/items.py _convert_tool_output): not "" (SHOULD).
        "tool_result_encoding": "text",
        # A JSON string holding JSON is not an object: not called, a tool error message.
        "string_encoded_arguments": "reject",
        # A non-JSON or non-object argument string is a tool error the model sees as text.
        "non_object_arguments": "tool_error_message",
        "invalid_json_arguments": "tool_error_message",
        # "null" decodes to None, not a dict: ModelBehaviorError, a tool error message like any
        # other non-object value (agents/mcp/util.py invoke_mcp_tool).
        "null_arguments": "non_object",
        # The decoded dict goes to call_tool as it is: no allowlist of the schema's properties.
        "undeclared_arguments": "forward",
        # RunConfig.tool_not_found_behavior defaults to "raise_error" (ModelBehaviorError).
        "unknown_tool": "run_error",
        # MCP failures go through the default failure_error_function: text to the model.
        "tool_failure": "tool_error_message",
        # Runner raises MaxTurnsExceeded when turn max_turns + 1 would start.
        "turn_cap_end": "error",
        "turn_cap_final_call": False,
        # max_turns is an argument of Runner.run, not of the agent: a bad one can only surface at a run.
        "invalid_cap_phase": "run",
        "default_max_tool_turns": RUNTIME_DEFAULT_MAX_TURNS,
        "continuation": None,
        # Each build keeps one SQLiteSession (the runtime's own session memory).
        "runs_per_build": "conversation",
        # Runner.run_streamed -> OpenAIChatCompletionsModel.stream_response, `stream: true`
        # (agents/models/openai_chatcompletions.py:472); Runner.run -> get_response, `stream`
        # omitted (:689). Tool-call deltas are not buffered (buffer_streamed_tool_calls defaults False).
        "model_stream": "always" if profile.stream else "never",
    }
    if profile.responses:
        # OpenAIResponsesModel sends Agent.instructions as the request's `instructions` parameter
        # (agents/models/openai_responses.py:1035), not as an input message.
        options["instruction_role"] = "instructions"
        # Runner.run never chains: previous_response_id and conversation stay None unless the
        # caller passes them (agents/run.py:291-292, auto_previous_response_id defaults False),
        # and are then omitted (openai_responses.py:1033-1034); the session resends every item.
        options["responses_state"] = "stateless"
    return options


class AdapterError(Exception):
    """A failure the adapter reports with a protocol kind of its own choosing (rare by design)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def error_response(kind: str, message: str) -> Response:
    """`{"ok": false, "error": {...}}`."""
    return {"ok": False, "error": {"kind": kind, "message": message}}


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and, for exception groups (anyio task groups), every exception inside."""
    yield exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)


def classify(exc: BaseException) -> Response:
    """The protocol error for an exception the runtime raised (by type; by text only for generic types)."""
    import openai
    from agents import exceptions as agents_errors  # type: ignore[import-not-found, unused-ignore]
    from mcp import MCPError

    for one in _leaves(exc):
        text = str(one) or type(one).__name__
        if isinstance(one, AdapterError):
            return error_response(one.kind, text)
        if isinstance(one, agents_errors.MaxTurnsExceeded):
            return error_response("max_tool_turns", text)
        if isinstance(one, agents_errors.UserError) and text.startswith("Duplicate tool names"):
            return error_response("duplicate_tool", text)
        if isinstance(one, agents_errors.ModelBehaviorError) and " not found in agent " in text:
            return error_response("tool_error", text)
        if isinstance(one, agents_errors.ModelBehaviorError) and text.startswith(RESPONSE_ENDED_PREFIX):
            # The model's response ended failed or incomplete: OpenAIResponsesModel raises this
            # (agents/models/openai_responses.py:889-890, text from agents/models/_response_terminal.py:14).
            return error_response("model_error", f"{type(one).__name__}: {text}")
        if isinstance(one, openai.APIError | agents_errors.ModelTimeoutError):
            return error_response("model_error", f"{type(one).__name__}: {text}")
        if isinstance(one, MCPError):
            return error_response("tool_error", f"{type(one).__name__}: {text}")
    return error_response("internal", f"{type(exc).__name__}: {exc}")


class Build:
    """One built agent: its MCP servers live in one task (connect and cleanup share it, as anyio needs)."""

    def __init__(self, agent: Any, servers: list[Any], max_turns: Any, session: Any) -> None:
        self.agent = agent
        self.servers = servers
        self.max_turns = max_turns
        self.session = session
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._closing = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _hold(self) -> None:
        try:
            async with contextlib.AsyncExitStack() as stack:
                for server in self.servers:
                    await stack.enter_async_context(server)
                self._ready.set_result(None)
                await self._closing.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
                return
            raise

    async def open(self) -> None:
        """Connect every MCP server (the user's `async with server:`); raise what connect raised."""
        self._task = asyncio.get_running_loop().create_task(self._hold())
        try:
            await self._ready
        except Exception as exc:
            raise AdapterError("tool_error", f"MCP connect failed: {type(exc).__name__}: {exc}") from exc

    async def run(self, text: str, stream: bool = False) -> Response:
        """One `Runner.run` (or `Runner.run_streamed`, events consumed to the end) on this build's session."""
        from agents import Runner  # type: ignore[import-not-found, unused-ignore]

        kwargs: dict[str, Any] = {"session": self.session}
        if self.max_turns == 0 and type(self.max_turns) is int:
            kwargs["max_turns"] = None  # CONFIG's "no cap" is spelled None in openai-agents
        elif self.max_turns is not None:
            kwargs["max_turns"] = self.max_turns  # passed on unchanged, invalid values included
        if stream:
            result = Runner.run_streamed(self.agent, text, **kwargs)
            # The run's errors (MaxTurnsExceeded, API errors, ...) are raised from stream_events().
            async for _event in result.stream_events():
                pass
        else:
            result = await Runner.run(self.agent, text, **kwargs)
        output = result.final_output
        return {"ok": True, "output": "" if output is None else str(output), "stop_reason": "completed"}

    async def close(self) -> None:
        """Leave the servers' contexts (DELETE the MCP sessions) and forget the session."""
        self._closing.set()
        if self._task is not None:
            await self._task
        self.session.close()


def _server_params(server_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    """`MCPServerStreamableHttpParams` for one CONFIG server: url (query included) and headers, as given."""
    params: dict[str, Any] = {"url": entry["url"]}
    if "headers" in entry:
        params["headers"] = entry["headers"]
    return params


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys openai-agents has no place for (dedup): a build must fail, never drop them."""
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
        if entry.get("type") != "http":
            found.append(f"mcp_servers[{json.dumps(server_id)}].type {json.dumps(entry.get('type'))}")
    return found


class Adapter:
    """One protocol connection: builds by id, under one profile."""

    def __init__(self, profile: Profile | str = "openai-agents") -> None:
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile
        self.builds: dict[str, Build] = {}

    async def hello(self) -> Response:
        """Identify the runtime, its capabilities and declared options."""
        from agents.version import __version__ as version  # type: ignore[import-not-found, unused-ignore]

        wire = "openai.responses" if self.profile.responses else "openai.chat"
        capabilities = [wire, "toolsets.namespace", "loop.turn_cap"]
        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": IMPLEMENTATION_NAMES[self.profile.name],
                "version": version,
                "language": "python",
                "homepage": "https://github.com/openai/openai-agents-python",
            },
            "capabilities": capabilities,
            "options": declared_options(self.profile),
        }

    async def build(self, id: str, config: dict[str, Any]) -> Response:
        """Construct the agent the way a user would, and connect its MCP servers."""
        try:
            build = await self._build(id, config)
        except Exception as exc:
            return classify(exc)
        previous = self.builds.pop(id, None)
        if previous is not None:
            await previous.close()
        self.builds[id] = build
        return {"ok": True}

    async def _build(self, id: str, config: dict[str, Any]) -> Build:
        from agents import (  # type: ignore[import-not-found, unused-ignore]
            Agent,
            OpenAIChatCompletionsModel,
            OpenAIResponsesModel,
            SQLiteSession,
        )
        from agents.mcp import MCPServerStreamableHttp  # type: ignore[import-not-found, unused-ignore]
        from openai import AsyncOpenAI

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise AdapterError("invalid_config", "openai-agents has no place for " + ", ".join(unsupported))
        model = config["model"]
        client = AsyncOpenAI(base_url=model["base_url"], api_key=model["api_key"])
        servers = [
            MCPServerStreamableHttp(params=_server_params(sid, entry), name=sid)
            for sid, entry in config["mcp_servers"].items()
        ]
        # The SDK's default provider builds OpenAIResponsesModel on the client it is given
        # (agents/models/openai_provider.py:286, _use_responses_by_default = True in
        # agents/models/_openai_shared.py:11); the chat profiles force the chat-completions model.
        model_class = OpenAIResponsesModel if self.profile.responses else OpenAIChatCompletionsModel
        agent = Agent(
            name="toolproof-agent",
            instructions=config["instruction"],
            model=model_class(model=model["name"], openai_client=client),
            mcp_servers=servers,
            mcp_config={"include_server_in_tool_names": True} if self.profile.prefix else {},
        )
        build = Build(agent, servers, config.get("max_tool_turns"), SQLiteSession(session_id=id))
        await build.open()
        return build

    async def run(self, id: str, input: str) -> Response:
        """One run of the agent built under `id`."""
        build = self.builds.get(id)
        if build is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            return await build.run(input, stream=self.profile.stream)
        except Exception as exc:
            return classify(exc)

    async def close(self, id: str) -> Response:
        """Release the agent built under `id`."""
        build = self.builds.pop(id, None)
        if build is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            await build.close()
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


def factory(profile: str = "openai-agents") -> Adapter:
    """In-process (`py:candidates.openai_agents.adapter:factory`) where the runtime shares toolproof's env."""
    _quiet_runtime()
    return Adapter(profile)


def _quiet_runtime() -> None:
    """Disable trace export: openai-agents would otherwise ship traces to api.openai.com."""
    from agents import set_tracing_disabled  # type: ignore[import-not-found, unused-ignore]

    set_tracing_disabled(True)


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


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.openai_agents.adapter`."""
    parser = argparse.ArgumentParser(prog="python -m candidates.openai_agents.adapter")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="openai-agents")
    args = parser.parse_args(argv)
    out = protect_stdout()  # before the runtime is imported: a print at import must not reach fd 1
    if os.environ.get("ADAPTER_DEBUG"):
        import logging

        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    _quiet_runtime()
    try:
        serve(sys.stdin.buffer, out, Adapter(args.profile))
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
