"""Protocol v1 adapter for openai-agents: CONFIG -> `Agent` + `Runner`, nothing more.

Run it as `python -m candidates.openai_agents.adapter [--profile NAME]` in an
environment that has `candidates/openai_agents/requirements.txt` installed.
It maps CONFIG onto what an openai-agents user writes (one
`MCPServerStreamableHttp` per server (`MCPServerStdio` / `MCPServerSse` for a stdio / sse
one), `OpenAIChatCompletionsModel` on an
`AsyncOpenAI` client, `Runner.run(..., max_turns=...)` (under profile
`openai-agents-stream`: `Runner.run_streamed(...)`, its events consumed to the
end; under profile `openai-agents-responses`: the SDK's default `OpenAIResponsesModel`
on the same client, the Responses API; under `openai-agents-responses-chained`: the same model,
each run chained by `previous_response_id` with `auto_previous_response_id=True`, as the SDK's
docs show it), an `SQLiteSession` per build (none when chained: the SDK refuses a session beside
a chain) and reports what the runtime does; it
never validates, dedups, renames or retries on its own. The protocol is toolproof's adapter kit
(`toolproof.adapter`, standard library only): copy that file beside this one to run it where
toolproof is not installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from dataclasses import dataclass
from typing import Any

from toolproof import adapter as kit

#: openai-agents' own default `max_turns` (agents.run_config.DEFAULT_MAX_TURNS).
RUNTIME_DEFAULT_MAX_TURNS = 10
#: How openai-agents words a Responses API response that ended failed or incomplete (a
#: ModelBehaviorError; agents/models/_response_terminal.py:14 and :35).
RESPONSE_ENDED_PREFIX = "Responses stream ended with terminal event `"


@dataclass(frozen=True)
class Profile:
    """One way to configure the runtime; `prefix` turns on `include_server_in_tool_names`."""

    name: str
    prefix: bool = False
    stream: bool = False
    """`Runner.run_streamed` (the chat model then sends `stream: true`) instead of `Runner.run`."""
    responses: bool = False
    """The SDK's default model class, `OpenAIResponsesModel` (the Responses API), not the chat model."""
    chained: bool = False
    """Server-managed state: `Runner.run(..., previous_response_id=<the last run's
    result.last_response_id>, auto_previous_response_id=True)` and no session (Responses only)."""


PROFILES = {
    "openai-agents": Profile("openai-agents"),
    "openai-agents-prefix": Profile("openai-agents-prefix", prefix=True),
    "openai-agents-stream": Profile("openai-agents-stream", stream=True),
    "openai-agents-responses": Profile("openai-agents-responses", responses=True),
    "openai-agents-responses-chained": Profile(
        "openai-agents-responses-chained", responses=True, chained=True
    ),
}


#: `hello.implementation.name` per profile.
IMPLEMENTATION_NAMES = {
    "openai-agents": "openai-agents",
    "openai-agents-prefix": "openai-agents (prefix)",
    "openai-agents-stream": "openai-agents (stream)",
    "openai-agents-responses": "openai-agents (responses)",
    "openai-agents-responses-chained": "openai-agents (responses, chained)",
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
        # Each build keeps one SQLiteSession (the runtime's own session memory); chained, the next
        # run names the last run's result.last_response_id (the loop of the SDK's running-agents guide).
        "runs_per_build": "conversation",
        # Runner.run_streamed -> OpenAIChatCompletionsModel.stream_response, `stream: true`
        # (agents/models/openai_chatcompletions.py:472); Runner.run -> get_response, `stream`
        # omitted (:689). Tool-call deltas are not buffered (buffer_streamed_tool_calls defaults False).
        "model_stream": "always" if profile.stream else "never",
        # MCPServerStdio hands CONFIG's env to the SDK's StdioServerParameters as it is
        # (agents/mcp/server.py:2061-2068); the mcp SDK merges it over its default allowlist
        # (mcp/client/stdio.py:129 `get_default_environment() | (server.env or {})`).
        "stdio_env_inherit": "sdk_allowlist",
        # Header values go to httpx2 as str, which encodes them as ASCII (httpx2/_models.py:98):
        # a non-ASCII value raises UnicodeEncodeError before the first request is sent, at the
        # build's connect. The nearest declared value; the suite judges the kind and the phase.
        "header_non_ascii": "refused",
        # Every turn lists every server's tools before its model request (run_single_turn,
        # agents/run_internal/run_loop.py:2836, streamed :2487 -> agent.py:276 get_mcp_tools ->
        # agents/mcp/util.py:351 -> MCPServer.list_tools), uncached by default (cache_tools_list
        # False, agents/mcp/server.py:1490, :1971): the request after a change offers the new list.
        # It lists a server without listChanged every turn too (the SHOULD mcp.list-no-needless-relist).
        "tool_list_refresh": "on_notification",
        # Each server takes client_session_timeout_seconds, its MCP ClientSession read timeout
        # (agents/mcp/server.py:925, :1378): CONFIG's tool_timeout_s is mapped onto it (_server).
        "tool_timeout": "config",
        # Non-text blocks (CONTRACT.md §5d): an image becomes a ToolOutputImage with its data URL,
        # every other kind a text part holding `item.model_dump_json()` (agents/mcp/util.py:801-817;
        # snake_case keys, `mime_type`, and audio and blob data as text: the suite shows both). On
        # chat completions the tool message keeps only the text parts, and a tool output left with
        # none becomes "[tool output omitted]" (agents/models/chatcmpl_converter.py:76, :873-895):
        # the image's place is that fixed text when it is alone, nothing beside text.
        "binary_result_chat": "placeholder",
        "binary_placeholder": "[tool output omitted]",
        # On the Responses wire the list is the function_call_output (an image an input_image).
        "binary_result_responses": "output_parts",
        "embedded_text_resource": "json_block",
        "resource_link_result": "json_block",
    }
    if profile.responses:
        # OpenAIResponsesModel sends Agent.instructions as the request's `instructions` parameter
        # (agents/models/openai_responses.py:1035), not as an input message.
        options["instruction_role"] = "instructions"
        if profile.chained:
            # Runner.run(..., previous_response_id=<the last run's result.last_response_id>,
            # auto_previous_response_id=True) (agents/run.py:291-292, :327-332): the tracker names
            # each turn's response (agents/run_internal/oai_conversation.py:387-392) and sends only
            # what it does not hold (:569-570: the response's own output items are skipped).
            options["responses_state"] = "previous_response_id"
        else:
            # Runner.run never chains: previous_response_id and conversation stay None unless the
            # caller passes them (agents/run.py:291-292, auto_previous_response_id defaults False),
            # and are then omitted (openai_responses.py:1033-1034); the session resends every item.
            options["responses_state"] = "stateless"
        # Reasoning items are named by id and left to the API's store, on both paths: `include`
        # holds only the tools' and ModelSettings.response_include's (openai_responses.py:988-993;
        # response_include defaults None, agents/model_settings.py:163, the opt-in of openai-agents
        # PR #920), so reasoning.encrypted_content is never asked, and `store` is omitted (the API
        # stores). Chained, the stored response holds the item (the tracker skips it, above);
        # stateless, the session resends it as received, id and summary without encrypted_content
        # (agents/run_internal/items.py:179-195), which the API resolves from its store.
        options["reasoning_replay"] = "by_id"
        # No model-name test: a reasoning output item becomes a ReasoningItem for any model
        # (agents/run_internal/turn_resolution.py:3516-3517), and a Model object gets the plain
        # ModelSettings() (agents/run_internal/turn_preparation.py:146-151): any name; the default.
        options["reasoning_model_name"] = "o4-mini"
    return options


def error_rules() -> list[kit.Rule]:
    """Which exceptions of the runtime mean which error kind (by type; by text only for generic types)."""
    import openai
    from agents import exceptions as agents_errors  # type: ignore[import-not-found, unused-ignore]
    from mcp import MCPError

    def text(exc: BaseException) -> str:
        return str(exc) or type(exc).__name__

    return [
        (agents_errors.MaxTurnsExceeded, "max_tool_turns"),
        (
            lambda e: isinstance(e, agents_errors.UserError) and text(e).startswith("Duplicate tool names"),
            "duplicate_tool",
        ),
        (
            lambda e: isinstance(e, agents_errors.ModelBehaviorError) and " not found in agent " in text(e),
            "tool_error",
        ),
        # The model's response ended failed or incomplete: OpenAIResponsesModel raises this
        # (agents/models/openai_responses.py:889-890, text from agents/models/_response_terminal.py:14).
        (
            lambda e: (
                isinstance(e, agents_errors.ModelBehaviorError) and text(e).startswith(RESPONSE_ENDED_PREFIX)
            ),
            "model_error",
        ),
        ((openai.APIError, agents_errors.ModelTimeoutError), "model_error"),
        (MCPError, "tool_error"),
    ]


class Build:
    """One built agent: its MCP servers live in one task (connect and cleanup share it, as anyio needs)."""

    def __init__(
        self, agent: Any, servers: list[Any], max_turns: Any, session: Any, chained: bool = False
    ) -> None:
        self.agent = agent
        self.servers = servers
        self.max_turns = max_turns
        self.session = session
        self.chained = chained
        self.previous_response_id: str | None = None
        """Chained: the last run's `result.last_response_id`, the next run's `previous_response_id`."""
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
            raise kit.Fail("tool_error", f"MCP connect failed: {type(exc).__name__}: {exc}") from exc

    async def run(self, text: str, stream: bool = False) -> kit.Response:
        """One `Runner.run` (or `Runner.run_streamed`, events consumed to the end) on this build's
        session, or chained to its last response."""
        from agents import Runner  # type: ignore[import-not-found, unused-ignore]

        kwargs: dict[str, Any] = {}
        if self.chained:
            # The SDK's documented previous_response_id mode (the SDK's running-agents guide, "Using
            # previous_response_id"): each run names the last run's last response, and
            # auto_previous_response_id=True chains the first run's own turns too
            # (agents/run.py:291-292, :327-332; agents/run_internal/oai_conversation.py:387-392).
            kwargs["previous_response_id"] = self.previous_response_id
            kwargs["auto_previous_response_id"] = True
        else:
            kwargs["session"] = self.session
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
        if self.chained:
            self.previous_response_id = result.last_response_id
        output = result.final_output
        return kit.run_ok("" if output is None else str(output))

    async def close(self) -> None:
        """Leave the servers' contexts (DELETE the MCP sessions) and forget the session."""
        self._closing.set()
        if self._task is not None:
            await self._task
        if self.session is not None:
            self.session.close()


def _server_params(entry: dict[str, Any]) -> dict[str, Any]:
    """The params of one CONFIG server, as given: `MCPServerStdioParams` (command, args, env, cwd:
    agents/mcp/server.py:1933-1950) for stdio, else `MCPServerStreamableHttpParams` /
    `MCPServerSseParams` (url with its query, headers)."""
    keys = ("command", "args", "env", "cwd") if entry["type"] == "stdio" else ("url", "headers")
    return {key: entry[key] for key in keys if key in entry}


def _server(server_id: str, entry: dict[str, Any]) -> Any:
    """One CONFIG server as the SDK class of its transport (agents/mcp/server.py:1962, :2112, :2290)."""
    from agents.mcp import (  # type: ignore[import-not-found, unused-ignore]
        MCPServerSse,
        MCPServerStdio,
        MCPServerStreamableHttp,
    )

    server_class = {"stdio": MCPServerStdio, "sse": MCPServerSse}.get(entry["type"], MCPServerStreamableHttp)
    # CONFIG's tool_timeout_s is the server's ClientSession read timeout, every request's (default 5 s:
    # agents/mcp/server.py:1973, :2123, :2301; applied at connect, :1378).
    timeout = {"client_session_timeout_seconds": entry["tool_timeout_s"]} if "tool_timeout_s" in entry else {}
    return server_class(params=_server_params(entry), name=server_id, **timeout)


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys openai-agents has no place for (dedup): a build must fail, never drop them."""
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
    return found


class Adapter(kit.Adapter):
    """One protocol connection under one profile: the runtime's part; the kit does the protocol."""

    def __init__(self, profile: Profile | str = "openai-agents") -> None:
        super().__init__()
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile

    def describe(self) -> kit.Response:
        """Identify the runtime, its capabilities and declared options."""
        from agents.version import __version__ as version  # type: ignore[import-not-found, unused-ignore]

        wire = "openai.responses" if self.profile.responses else "openai.chat"
        return kit.hello(
            IMPLEMENTATION_NAMES[self.profile.name],
            version,
            [wire, "toolsets.namespace", "loop.turn_cap", "mcp.stdio", "mcp.sse"],
            declared_options(self.profile),
            homepage="https://github.com/openai/openai-agents-python",
        )

    async def create(self, id: str, config: dict[str, Any]) -> Build:
        """Construct the agent the way a user would, and connect its MCP servers."""
        from agents import (  # type: ignore[import-not-found, unused-ignore]
            Agent,
            OpenAIChatCompletionsModel,
            OpenAIResponsesModel,
            SQLiteSession,
        )
        from openai import AsyncOpenAI

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise kit.Fail("invalid_config", "openai-agents has no place for " + ", ".join(unsupported))
        model = config["model"]
        client = AsyncOpenAI(base_url=model["base_url"], api_key=model["api_key"])
        servers = [_server(sid, entry) for sid, entry in config["mcp_servers"].items()]
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
        # Chained, no session: the SDK refuses a session beside previous_response_id or
        # auto_previous_response_id (UserError, agents/run_internal/agent_runner_helpers.py:267-281).
        session = None if self.profile.chained else SQLiteSession(session_id=id)
        build = Build(agent, servers, config.get("max_tool_turns"), session, chained=self.profile.chained)
        await build.open()
        return build

    async def invoke(self, agent: Build, input: str) -> kit.Response:
        """One run of a build."""
        return await agent.run(input, stream=self.profile.stream)

    async def release(self, agent: Build) -> None:
        """Close a build's MCP servers and session."""
        await agent.close()

    def rules(self) -> list[kit.Rule]:
        """The runtime's error table."""
        return error_rules()


def factory(profile: str = "openai-agents") -> Adapter:
    """In-process (`py:candidates.openai_agents.adapter:factory`) where the runtime shares toolproof's env."""
    _quiet_runtime()
    return Adapter(profile)


def _quiet_runtime() -> None:
    """Disable trace export: openai-agents would otherwise ship traces to api.openai.com."""
    from agents import set_tracing_disabled  # type: ignore[import-not-found, unused-ignore]

    set_tracing_disabled(True)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.openai_agents.adapter [--profile NAME]`."""
    return kit.main(factory, argv, profiles=list(PROFILES), prog="python -m candidates.openai_agents.adapter")


if __name__ == "__main__":
    sys.exit(main())
