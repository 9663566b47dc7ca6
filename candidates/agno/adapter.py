"""Protocol v1 adapter for agno: CONFIG -> `Agent` with one `MCPTools` per server, nothing more.

Run it as `python -m candidates.agno.adapter [--profile NAME]` in an environment that has
`candidates/agno/requirements.txt` installed. It maps CONFIG onto what an agno
user writes (`Agent(model=OpenAILike(...), instructions=..., tools=[MCPTools(url=...,
transport="streamable-http", headers=...), ...])`, then `await agent.arun(input)`; under the
profile `agno-stream`, `agent.arun(input, stream=True, yield_run_output=True)` consumed to the end;
under the profile `agno-anthropic`, `Claude(id=..., api_key=..., client_params={"base_url": ...})`
instead of `OpenAILike`) and reports what the runtime does; it never validates, dedups, renames or
retries on its own. The protocol is toolproof's adapter kit (`toolproof.adapter`, standard library
only): copy that file beside this one to run it where toolproof is not installed.

Where the package lives: this directory is `candidates/agno` in the checkout and
`toolproof.candidates.agno` in the wheel, and the runtime is the top-level package
`agno`. Run as a module (`-m`), sys.path[0] is the working directory, never this
directory, so `import agno` below is always the PyPI package (`main` checks it).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolproof import adapter as kit


@dataclass(frozen=True)
class Profile:
    """One way to run the runtime.

    `stream` runs each turn through `agent.arun(input, stream=True)` (agno's documented streaming
    run), which requests the model with `stream: true` (models/openai/chat.py:660-692).
    `anthropic` uses agno's `Claude` model (the Anthropic Messages API) instead of `OpenAILike`.
    """

    name: str
    stream: bool = False
    anthropic: bool = False


PROFILES = {
    "agno": Profile("agno"),
    "agno-stream": Profile("agno-stream", stream=True),
    "agno-anthropic": Profile("agno-anthropic", anthropic=True),
}

# The `error_type` of a RunErrorEvent (utils/events.py:192-204 error_type_of: an AgnoError's `.type`)
# for a failure of the model endpoint. OpenAIChat.ainvoke_stream wraps every exception of the
# request and of the stream (HTTP status, connection, an SSE error payload) in ModelProviderError
# (models/openai/chat.py:698-747); its subclasses ModelRateLimitError and ContextWindowExceededError
# keep this `.type` (exceptions.py:130-222). Not "model_authentication_error": agno raises it only
# for a missing API key, before any request (models/openai/chat.py:107-113), a local fault.
MODEL_ERROR_TYPES = frozenset({"model_provider_error"})


def declared_options(profile: Profile = PROFILES["agno"]) -> dict[str, Any]:
    """What the runtime does, as `hello.options` (contracts/options.yaml); measured, not wished.

    Line numbers cite agno 3.1.10 as installed (site-packages/agno/...).
    """
    options = {
        # A stdio server's env goes from StdioServerParameters to FastMCP's StdioTransport as it is
        # (tools/mcp/mcp.py:228), then to the mcp SDK, which merges it over its default allowlist
        # (mcp/client/stdio.py:129).
        "stdio_env_inherit": "sdk_allowlist",
        # Header values go to httpx2 as str, encoded as ASCII (httpx2/_models.py:98): a non-ASCII
        # value raises UnicodeEncodeError before the first request, when a run connects; measured,
        # agno then offers none of that server's tools and the run goes on. Neither value holds;
        # the nearest is declared and the suite judges the rest.
        "header_non_ascii": "refused",
        # Each run connects every MCPTools and lists its tools once, before its first model request
        # (agent/_run.py:1636 aget_tools -> agent/_tools.py:359 connect_mcp_tools -> tools/mcp/mcp.py:886
        # build_tools; streamed agent/_run.py:2253), and closes them when the run ends
        # (agent/_run.py:1935 disconnect_mcp_tools, agent/_init.py:550-557). No handler for
        # notifications/tools/list_changed: the next run offers the new list.
        "tool_list_refresh": "per_run",
        # MCPTools(timeout_seconds=...) is its fastmcp Client's request timeout, every request's
        # (tools/mcp/mcp.py:263, :290, :237-239 `Client(..., timeout=client_timeout)`): CONFIG's
        # tool_timeout_s is mapped onto it (_mcp_tools).
        "tool_timeout": "config",
        # Non-text blocks (CONTRACT.md §5d): an image becomes an Image artifact and the tool text
        # says "Image has been generated and added to the response." in its place (agno/utils/mcp.py:267),
        # audio "Audio has been generated ..." (:289: a second fixed text, which one template cannot
        # also be), an embedded resource `[Embedded resource: <its JSON>]` (:295, a blob's base64
        # included), a resource_link `[Unsupported content type: resource_link]` (:298).
        "binary_result_chat": "placeholder",
        "binary_placeholder": "Image has been generated and added to the response.",
        # agno connects each MCPTools and lists its tools when a run starts (agent/_tools.py:359 ->
        # agent/_init.py:532 connect_mcp_tools; tools/mcp/mcp.py:886 build_tools): nothing is listed at
        # build. (agno never fails for a duplicate or an invalid name: this only says where it would.)
        "duplicate_tool_phase": "run",
        # MCP tool names pass through unchanged (tools/mcp/mcp.py:943, `name=tool_name_prefix +
        # tool_name`, no prefix by default): neither aliased nor rejected. The default is declared and
        # the suite shows the difference (baseline).
        "invalid_tool_name": "reject",
        # A tool message's `content` is the result's string (models/openai/chat.py:325-333).
        "tool_content": "string",
        # Text blocks are each followed by "\n", then the whole is .strip()ped (utils/mcp.py:247
        # `response_str += text_content + "\n"`, utils/mcp.py:304): between two blocks, one "\n".
        "multi_block_join": "\n",
        # structuredContent reaches the model only when the text blocks are blank (utils/mcp.py:300-301
        # _serialize_structured_content): with text, the text.
        "structured_content": "text",
        # A JSON string is not an object: "Function arguments are not a valid JSON object" in a tool
        # message, the tool is not called (utils/functions.py:49-51; models/base.py:2079-2087).
        "string_encoded_arguments": "reject",
        "non_object_arguments": "tool_error_message",
        # "null" decodes to None, which is not a dict: the same tool message as any non-object value
        # (utils/functions.py:49-51).
        "null_arguments": "non_object",
        # An empty array is taken as no arguments: the tool is called with {} (utils/functions.py:45-47,
        # on purpose); every other array is refused as above.
        "empty_array_arguments": "empty_object",
        # json.loads, then ast.literal_eval; failing both, an error text in a tool message
        # (utils/functions.py:30-42).
        "invalid_json_arguments": "tool_error_message",
        # "Error: The requested tool does not exist or is not available." (models/base.py:2068-2077).
        "unknown_tool": "tool_error_message",
        # An MCPError or any exception of the call becomes the tool's result text (utils/mcp.py:336-342).
        "tool_failure": "tool_error_message",
        # loop.turn_cap is not claimed (see `_unsupported_keys`): the cap options keep their defaults.
        # The agent has no history by default (agent/agent.py:163 add_history_to_context False), so a
        # second run starts from the instruction alone.
        "runs_per_build": "independent",
        "continuation": None,
        # OpenAILike maps the system role to "system" (models/openai/like.py:23-28); OpenAIChat, for
        # OpenAI's own endpoint, would send "developer" (models/openai/chat.py:94-100).
        "instruction_role": "system",
        # arun(..., stream=True) asks OpenAIChat.ainvoke_stream, which sends stream=True with
        # stream_options={"include_usage": True} (models/openai/chat.py:684-692); plain arun asks
        # ainvoke, which never streams.
        "model_stream": "always" if profile.stream else "never",
    }
    if profile.anthropic:
        options.update(_anthropic_options())
    return options


def _anthropic_options() -> dict[str, Any]:
    """What agno's `Claude` does differently from `OpenAILike` (read in its source, measured)."""
    return {
        # Claude hands api_key to `AsyncAnthropic` (models/anthropic/claude.py:212, :457), and
        # anthropic 2.17.0 sends an api_key as `Authorization: Bearer <key>` (anthropic/_client.py:354-358).
        "anthropic_key_header": "authorization",
        # format_tools_for_model (utils/models/claude.py:856-912) rebuilds each input_schema: the root
        # gets additionalProperties false (:886-891), and every object with `properties` reached through
        # properties, items, anyOf, allOf or oneOf too (_ensure_additional_properties_false, :830-853);
        # $defs are copied unchanged (:894-897). The nearest value is `closed`. (Unmeasured: every
        # schema test of the shapes server stops at a boolean subschema first, see the baseline.)
        "parameters_strict": "closed",
    }


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys agno has no place for: a build must fail on them, never drop them (PROTOCOL.md §7).

    - `dedup_key` / `dedup_preferred`: agno has no deduplication of MCP servers.
    - `max_tool_turns`: agno's only limit, `Agent(tool_call_limit=N)`, counts tool calls, not model
      requests (models/base.py:2645-2654: every call of a batch adds one, a call past the limit gets
      a "Tool call limit reached" tool message and the loop asks the model again, so the number of
      model requests is not bounded at all). PROTOCOL.md §3 ("The runtime counts tool calls, not
      model requests"): leave loop.turn_cap unclaimed rather than emulate one.
    """
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
    if config.get("max_tool_turns") is not None:
        found.append("max_tool_turns (agno's tool_call_limit counts tool calls, not model requests)")
    return found


def _last_reply_text(result: Any) -> str:
    """The text of the run's last model reply (PROTOCOL.md §3 `output`).

    `RunOutput.content` joins the texts of every reply of the run (models/base.py:1213-1217), so the
    adapter reads the last assistant message of `RunOutput.messages` instead.
    """
    for message in reversed(result.messages or []):
        if message.role == "assistant":
            return str(message.get_content_string())
    return ""


class Build:
    """One built agent. agno connects its MCPTools at each run and closes them when the run ends."""

    def __init__(self, agent: Any, tools: list[Any], stream: bool = False) -> None:
        self.agent = agent
        self.tools = tools
        self.stream = stream

    async def run(self, text: str) -> kit.Response:
        """One `agent.arun` (streamed to the end under a stream profile).

        agno catches every exception of a run and returns a RunOutput with status ERROR and
        `content = str(exc)` (agent/_run.py:1898-1916, `_arun`): no exception type or error field
        survives on the non-streaming path, so a failed run is `internal` (PROTOCOL.md §4: an untyped error;
        the text is not matched).
        """
        from agno.run.base import RunStatus  # type: ignore[import-not-found, unused-ignore]

        if self.stream:
            return await self._run_streamed(text)
        result = await self.agent.arun(text)
        if result.status != RunStatus.completed:
            return kit.error("internal", f"agno run ended {result.status.value}: {result.content}")
        return kit.run_ok(_last_reply_text(result))

    async def _run_streamed(self, text: str) -> kit.Response:
        """`agent.arun(text, stream=True, yield_run_output=True)`, every event consumed.

        A failed streaming run ends with a RunErrorEvent whose `error_type` is the exception's
        `.type` (agent/_run.py:2648-2685, utils/events.py:192-204): the model's failures are typed
        there (`MODEL_ERROR_TYPES`), so they map to `model_error`; any other type stays `internal`.
        The RunOutput is yielded last on success only (agent/_run.py:2540-2541).
        """
        from agno.run.agent import RunErrorEvent, RunOutput  # type: ignore[import-not-found, unused-ignore]
        from agno.run.base import RunStatus  # type: ignore[import-not-found, unused-ignore]

        result = None
        error = None
        async for event in self.agent.arun(text, stream=True, yield_run_output=True):
            if isinstance(event, RunOutput):
                result = event
            elif isinstance(event, RunErrorEvent):
                error = event
        if error is not None:
            kind = "model_error" if error.error_type in MODEL_ERROR_TYPES else "internal"
            return kit.error(kind, f"agno run error ({error.error_type}): {error.content}")
        if result is None:
            return kit.error("internal", "agno's stream ended without a RunOutput or a RunErrorEvent")
        if result.status != RunStatus.completed:
            return kit.error("internal", f"agno run ended {result.status.value}: {result.content}")
        return kit.run_ok(_last_reply_text(result))

    async def close(self) -> None:
        """Close what the adapter created: the MCPTools (a no-op when agno already closed them)."""
        for tool in self.tools:
            await tool.close()


def _mcp_tools(entry: dict[str, Any]) -> Any:
    """One CONFIG server as an `MCPTools`: stdio with `server_params=StdioServerParameters(command,
    args, env, cwd)` (the `command=` string form splits one string and has no cwd,
    tools/mcp/mcp.py:420-424), which agno turns into FastMCP's `StdioTransport` with those four
    (tools/mcp/mcp.py:224-231); sse and http with the URL, its transport and headers
    (tools/mcp/mcp.py:208-216 `SSETransport(url, headers=...)`)."""
    from agno.tools.mcp import MCPTools  # type: ignore[import-not-found, unused-ignore]

    # CONFIG's tool_timeout_s is MCPTools' timeout_seconds (tools/mcp/mcp.py:263, default 10 s).
    timeout = {"timeout_seconds": entry["tool_timeout_s"]} if "tool_timeout_s" in entry else {}
    if entry["type"] == "stdio":
        from mcp import StdioServerParameters

        params = StdioServerParameters(
            command=entry["command"],
            args=list(entry.get("args", [])),
            env=entry.get("env"),
            cwd=entry.get("cwd"),
        )
        return MCPTools(server_params=params, transport="stdio", **timeout)
    transport = "sse" if entry["type"] == "sse" else "streamable-http"
    return MCPTools(url=entry["url"], transport=transport, headers=entry.get("headers"), **timeout)


def _model(model: dict[str, Any], profile: Profile) -> Any:
    """CONFIG's model as the profile's agno model, pointed at CONFIG's base_url with its key."""
    if profile.anthropic:
        from agno.models.anthropic import Claude  # type: ignore[import-not-found, unused-ignore]

        # Claude has no base_url field: `client_params` go to the Anthropic client as they are
        # (models/anthropic/claude.py:218-219), and the client appends /v1/messages to base_url.
        return Claude(
            id=model["name"], api_key=model["api_key"], client_params={"base_url": model["base_url"]}
        )
    from agno.models.openai.like import OpenAILike  # type: ignore[import-not-found, unused-ignore]

    # OpenAILike: agno's class for an OpenAI-compatible endpoint other than OpenAI's own.
    return OpenAILike(id=model["name"], base_url=model["base_url"], api_key=model["api_key"])


class Adapter(kit.Adapter):
    """One protocol connection under one profile: the runtime's part; the kit does the protocol.

    No error table: agno raises none of the contract's cases (see `Build.run`).
    """

    def __init__(self, profile: Profile | str = "agno") -> None:
        super().__init__()
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile

    def describe(self) -> kit.Response:
        """Identify the runtime, its capabilities and declared options."""
        # No toolsets.namespace: of two MCPTools offering one name the first is kept, the other
        # dropped with a log warning (agent/_tools.py:541-546). No loop.turn_cap: see `_unsupported_keys`.
        return kit.hello(
            "agno (anthropic)" if self.profile.anthropic else "agno",
            kit.version("agno"),
            ["anthropic.messages" if self.profile.anthropic else "openai.chat", "mcp.stdio", "mcp.sse"],
            declared_options(self.profile),
            homepage="https://github.com/agno-agi/agno",
        )

    def create(self, id: str, config: dict[str, Any]) -> Build:
        """Construct the agent the way a user would (nothing is contacted until the first run)."""
        from agno.agent import Agent  # type: ignore[import-not-found, unused-ignore]

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise kit.Fail("invalid_config", "agno has no place for " + ", ".join(unsupported))
        model = config["model"]
        tools = [_mcp_tools(entry) for entry in config["mcp_servers"].values()]
        agent = Agent(
            model=_model(model, self.profile),
            instructions=config["instruction"],
            tools=tools,
            # No egress but CONFIG's endpoints (PROTOCOL.md §10): agno's run telemetry goes to
            # os-api.agno.com unless switched off (agent/_telemetry.py:65 alog_agent_telemetry).
            telemetry=False,
        )
        return Build(agent, tools, stream=self.profile.stream)

    async def invoke(self, agent: Build, input: str) -> kit.Response:
        """One run of a build."""
        return await agent.run(input)

    async def release(self, agent: Build) -> None:
        """Close the MCPTools the adapter created for a build."""
        await agent.close()


def factory(profile: str = "agno") -> Adapter:
    """In-process (`py:candidates.agno.adapter:factory`) where the runtime shares toolproof's env."""
    # The environment overrides Agent(telemetry=False) (agent/_init.py:62-66): pin it off too.
    os.environ["AGNO_TELEMETRY"] = "false"
    return Adapter(profile)


def _checked_factory(profile: str) -> Adapter:
    """`factory` for `main` (after the stdout guard): the runtime checked, agno's debug on request."""
    os.environ["AGNO_TELEMETRY"] = "false"  # before agno is first imported, as `factory` does later
    if os.environ.get("ADAPTER_DEBUG"):
        os.environ["AGNO_DEBUG"] = "true"
    _check_runtime_is_the_installed_package()
    return factory(profile)


def _check_runtime_is_the_installed_package() -> None:
    """Fail loudly if `agno` would resolve to this directory rather than the PyPI package."""
    import agno  # type: ignore[import-not-found, unused-ignore]

    here = Path(__file__).resolve().parent
    where = Path(agno.__file__ or "").resolve().parent
    if where == here:
        raise SystemExit(f"`import agno` found the adapter's own directory {here}, not the runtime")


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.agno.adapter [--profile NAME]`."""
    return kit.main(_checked_factory, argv, profiles=list(PROFILES), prog="python -m candidates.agno.adapter")


if __name__ == "__main__":
    sys.exit(main())
