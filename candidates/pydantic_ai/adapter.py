"""Protocol v1 adapter for pydantic-ai: CONFIG -> `Agent` with MCP toolsets, nothing more.

Run it as `python -m candidates.pydantic_ai.adapter [--profile NAME]` in an
environment that has `candidates/pydantic_ai/requirements.txt` installed. It
maps CONFIG onto what a pydantic-ai user writes (one `MCPToolset` per server,
`OpenAIChatModel` with an `OpenAIProvider`, `agent.run(...,
usage_limits=UsageLimits(request_limit=...), message_history=...)`, with
profile `pydantic-ai-stream` also `event_stream_handler=...`, with profile
`pydantic-ai-responses` `OpenAIResponsesModel` instead, and with profile
`pydantic-ai-anthropic` `AnthropicModel` with an `AnthropicProvider`) and reports what
the runtime does; it never validates, dedups, renames or retries
on its own. The protocol is toolproof's adapter kit (`toolproof.adapter`, standard library only):
copy that file beside this one to run it where toolproof is not installed.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterable
from dataclasses import dataclass
from typing import Any

from toolproof import adapter as kit

#: pydantic-ai's own default `UsageLimits.request_limit`.
RUNTIME_DEFAULT_REQUEST_LIMIT = 50


@dataclass(frozen=True)
class Profile:
    """One way to configure the runtime.

    `prefix` wraps each toolset in `.prefixed(server_id)`; `stream` runs the agent with an
    `event_stream_handler`, which makes pydantic-ai request the model with `stream: true`;
    `responses` uses `OpenAIResponsesModel` (the Responses API, the `openai-responses:` path)
    instead of `OpenAIChatModel`; `anthropic` uses `AnthropicModel` (the Anthropic Messages API,
    the `anthropic:` path).
    """

    name: str
    prefix: bool = False
    stream: bool = False
    responses: bool = False
    anthropic: bool = False


PROFILES = {
    "pydantic-ai": Profile("pydantic-ai"),
    "pydantic-ai-prefix": Profile("pydantic-ai-prefix", prefix=True),
    "pydantic-ai-stream": Profile("pydantic-ai-stream", stream=True),
    "pydantic-ai-responses": Profile("pydantic-ai-responses", responses=True),
    "pydantic-ai-anthropic": Profile("pydantic-ai-anthropic", anthropic=True),
}


def declared_options(profile: Profile) -> dict[str, Any]:
    """What the runtime does, as `hello.options` (contracts/options.yaml); measured, not wished."""
    options: dict[str, Any] = {
        # A stdio server's env goes to FastMCP's StdioTransport as it is (fastmcp/client/transports/
        # stdio.py:183), then to the mcp SDK's StdioServerParameters (:365), which merges it over its
        # default allowlist (mcp/client/stdio.py:129).
        "stdio_env_inherit": "sdk_allowlist",
        # Header values go to httpx2 as str, encoded as ASCII (httpx2/_models.py:98): a non-ASCII
        # value raises UnicodeEncodeError before the first request, at the build's connect. The
        # nearest declared value; the suite judges the kind and the phase.
        "header_non_ascii": "refused",
        # Every run step asks each toolset for its tools (ToolManager.for_run_step,
        # pydantic_ai/tool_manager.py:455 -> MCPToolset.get_tools, mcp.py:1515), served from a cache
        # (mcp.py:1506) that notifications/tools/list_changed clears (the client's message handler,
        # mcp.py:1303, :1989) and that lives while the agent stays entered (build to close here).
        "tool_list_refresh": "on_notification",
        # MCPToolset(read_timeout=...) is the FastMCP Client's request timeout, every request's
        # (pydantic_ai/mcp.py:971, :1027, :1306 -> fastmcp/client/client.py:514): CONFIG's
        # tool_timeout_s is mapped onto it (_toolset); its default is 5 minutes (mcp.py:1137).
        "tool_timeout": "config",
        # Non-text blocks (CONTRACT.md §5d): an image, audio or blob block becomes a BinaryContent
        # (pydantic_ai/mcp.py:2229-2240, :2289-2300), an embedded text resource its text (:2292), a
        # resource_link its uri alone (:2241-2244: no declared value keeps only the uri, so the
        # default stays and the suite shows it). On chat completions the tool message says "See file
        # <id>." in the file's place and the file follows in a user message
        # (models/openai/_chat_model.py:1306, :1325; messages.py:2671): `<id>` is a hash of the file,
        # which a placeholder template cannot name, so the image checks fail on that text alone. On
        # the Responses wire the files are output parts (models/openai/_responses_model.py:3273-3293);
        # audio, which the model cannot read, is replaced by a note naming it.
        "binary_result_chat": "user_message",
        "binary_result_responses": "output_parts",
        "binary_placeholder": "See file {id}.",
        "embedded_text_resource": "text",
        "duplicate_tool_phase": "run",
        # Default: a `UserError` for conflicting names; with the prefix profile, `<server>_<tool>`.
        "tool_namespacing": "prefix" if profile.prefix else "error",
        # MCP tool names pass through unchanged: the default is declared (see expected-failures.yaml).
        "invalid_tool_name": "reject",
        "tool_content": "string",
        # One MCP block is sent as its text, several as the JSON array of their texts
        # (pydantic_ai.mcp._map_mcp_tool_results: mapped[0] if len(mapped) == 1 else mapped),
        # no block as "" (messages.BaseToolReturnPart._unwrap_data: no data is None).
        "tool_result_encoding": "json_texts",
        # An isError result is a ModelRetry whose text reaches a provider without an error channel
        # (chat completions) wrapped as {"error": <text>} (messages.ERROR_OUTCOMES, model_response_str).
        "error_result_pointer": "/error",
        # A text block starting with `{` or `[` is parsed (pydantic_core.from_json) and sent as the
        # value re-serialised compactly (pydantic_ai/mcp.py:2223 _map_mcp_tool_result,
        # messages.py:2584 model_response_str): JSON-equal, its spacing lost.
        "json_tool_text": "reserialised",
        # A result with structuredContent and only text blocks reaches the model as
        # structuredContent serialised as JSON (pydantic_ai.mcp._map_mcp_call_tool_result).
        "structured_content": "structured",
        # OpenAIJsonSchemaTransformer (pydantic_ai/profiles/openai.py, _transform_object; strict None
        # for MCP tools) gives every `type: object` schema without additionalProperties
        # `additionalProperties: false`; `required` and maps (a schema-valued additionalProperties) stay.
        "parameters_strict": "closed",
        # Arguments that fail validation become a retry prompt the model sees in a tool message.
        "string_encoded_arguments": "reject",
        "non_object_arguments": "tool_error_message",
        "invalid_json_arguments": "tool_error_message",
        # "null" fails the MCP tools' args validator (a dict of str to any): a retry prompt, as for
        # any other non-object value.
        "null_arguments": "non_object",
        # That validator keeps every key (pydantic_ai.mcp.TOOL_SCHEMA_VALIDATOR): no allowlist.
        "undeclared_arguments": "forward",
        "unknown_tool": "tool_error_message",
        # An MCP call that fails (HTTP 500, dropped connection) comes back to the model as a
        # tool message and the run goes on.
        "tool_failure": "tool_error_message",
        # UsageLimits(request_limit=N) raises UsageLimitExceeded before request N + 1.
        "turn_cap_end": "error",
        "turn_cap_final_call": False,
        # UsageLimits are given to each agent.run(), not to the agent: a bad one surfaces at a run.
        "invalid_cap_phase": "run",
        "default_max_tool_turns": RUNTIME_DEFAULT_REQUEST_LIMIT,
        "continuation": None,
        # Each run continues from the previous run's `all_messages()` (message_history).
        "runs_per_build": "conversation",
        # A text-only reply with empty content is no valid `str` output: unless the output type
        # allows None, it gets a retry prompt (pydantic_ai/_agent_graph.py:3894-3946, 2.68.0).
        "empty_reply": "reprompts",
        # agent.run(..., event_stream_handler=...) streams every node through model.request_stream
        # (pydantic_ai/agent/abstract.py:667-681), which sends stream=True with
        # stream_options={"include_usage": True} (models/openai/_chat_model.py:446, 521-522, 893).
        "model_stream": "always" if profile.stream else "never",
    }
    if profile.responses:
        options.update(_responses_options())
    if profile.anthropic:
        options.update(_anthropic_options())
    return options


def _responses_options() -> dict[str, Any]:
    """What `OpenAIResponsesModel` does differently from `OpenAIChatModel` (measured on the fake)."""
    return {
        # No `previous_response_id` / `conversation` unless `openai_previous_response_id` /
        # `openai_conversation_id` is set (models/openai/_responses_model.py:2306-2307): every
        # request resends the whole history as input. `store` is omitted (_resolve_store, :1966-1969).
        "responses_state": "stateless",
        # A model is a reasoning model by its name's prefix (profiles/openai.py:138-245, the first
        # match of _REASONING_SUPPORT_BY_PREFIX wins, :255-259; o1/o3/o4 and the gpt-5 families):
        # openai_model_profile sets openai_supports_encrypted_reasoning_content and
        # openai_supports_reasoning from it (:684-685), and OpenAIProvider uses that profile whatever
        # the base_url (providers/openai.py:85). o4-mini is one.
        "reasoning_model_name": "o4-mini",
        # For such a model every create request asks include ["reasoning.encrypted_content"]
        # (_build_include, models/openai/_responses_model.py:2010-2015; no setting needed), a reasoning
        # item becomes ThinkingParts carrying its id and encrypted_content (models/openai/_reasoning.py:
        # 147-182), and the next request replays it, in place before its call, as {id, summary,
        # encrypted_content, type: reasoning} (_responses_model.py:3066-3080, :3089-3116;
        # openai_send_reasoning_ids defaults to the same profile flag, :2533-2535). `store` stays
        # omitted (:1966-1969).
        "reasoning_replay": "encrypted",
        # Agent instructions go out as the request's `instructions` parameter, not as an input
        # message: `instructions = get_instructions(...) or OMIT` (models/openai/_responses_model.py:2553),
        # sent as `instructions=` (:1941); the chat model sends a system message instead.
        "instruction_role": "instructions",
    }


def _anthropic_options() -> dict[str, Any]:
    """What `AnthropicModel` does differently from `OpenAIChatModel` (read in its source, measured)."""
    return {
        # AnthropicProvider(api_key=...) builds `AsyncAnthropic(api_key=..., base_url=...)`
        # (pydantic_ai/providers/anthropic.py:252), and anthropic 2.17.0 sends an api_key as
        # `Authorization: Bearer <key>` (anthropic/_client.py:354-358), not as `x-api-key`.
        "anthropic_key_header": "authorization",
        # A result is a `tool_result` whose `content` is one text block per content item
        # (`part.content_items(mode="str", wrap_if_error=False)`, models/anthropic/__init__.py:3235-3257):
        # one MCP block is one item, several are one item each (messages.py:2522-2546), a JSON-looking
        # text its value re-serialised compactly as on chat (json_tool_text stays), structuredContent
        # its JSON text (structured_content stays).
        "tool_content": "text_parts",
        "tool_result_encoding": "text",
        "multi_block_join": "",
        # An isError result keeps its text, unwrapped (`wrap_if_error=False`: the wire's own
        # `is_error: true` carries the failure, :3256), not {"error": <text>} as on chat.
        "error_result_pointer": None,
        # No JSON schema transformer on the Anthropic profile (profiles/anthropic.py:633 sets none; the
        # default is None, profiles/__init__.py:548):
        # `input_schema` is the tool's schema as the server sent it (models/anthropic/__init__.py:3975-3979).
        "parameters_strict": False,
    }


def error_rules() -> list[kit.Rule]:
    """Which exceptions of the runtime mean which error kind (by type; by text only for generic types)."""
    from mcp import MCPError
    from pydantic_ai import exceptions as errors  # type: ignore[import-not-found, unused-ignore]

    def text(exc: BaseException) -> str:
        return str(exc) or type(exc).__name__

    return [
        (lambda e: isinstance(e, errors.UsageLimitExceeded) and "request_limit" in text(e), "max_tool_turns"),
        (
            lambda e: isinstance(e, errors.UserError) and "conflicts with existing tool" in text(e),
            "duplicate_tool",
        ),
        (errors.ModelAPIError, "model_error"),
        (
            lambda e: isinstance(e, errors.UnexpectedModelBehavior) and "exceeded max retries" in text(e),
            "tool_error",
        ),
        (MCPError, "tool_error"),
    ]


class Build:
    """One built agent: `async with agent` (its MCP sessions) is held by one task from build to close."""

    def __init__(self, agent: Any, max_turns: Any, stream: bool = False) -> None:
        self.agent = agent
        self.max_turns = max_turns
        self.stream = stream
        self.history: list[Any] | None = None
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._closing = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _hold(self) -> None:
        try:
            async with self.agent:
                self._ready.set_result(None)
                await self._closing.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
                return
            raise

    async def open(self) -> None:
        """Enter the agent (connects every MCP toolset); raise what connecting raised."""
        self._task = asyncio.get_running_loop().create_task(self._hold())
        try:
            await self._ready
        except Exception as exc:
            raise kit.Fail("tool_error", f"MCP connect failed: {type(exc).__name__}: {exc}") from exc

    def _limits(self) -> Any:
        from pydantic_ai.usage import UsageLimits  # type: ignore[import-not-found, unused-ignore]

        if self.max_turns is None:
            return None  # the runtime's default limits
        if self.max_turns == 0 and type(self.max_turns) is int:
            return UsageLimits(request_limit=None)  # CONFIG's "no cap" is spelled None here
        return UsageLimits(request_limit=self.max_turns)  # passed on unchanged, invalid values included

    async def run(self, text: str) -> kit.Response:
        """One `agent.run`, continuing this build's message history (streamed under a stream profile)."""
        if self.stream:
            # The documented streaming path that runs the graph to completion: `run_stream` stops at
            # the first text output and does not run tool calls that follow it.
            result = await self.agent.run(
                text,
                message_history=self.history,
                usage_limits=self._limits(),
                event_stream_handler=_drain_events,
            )
        else:
            result = await self.agent.run(text, message_history=self.history, usage_limits=self._limits())
        self.history = result.all_messages()
        output = result.output
        return kit.run_ok("" if output is None else str(output))

    async def close(self) -> None:
        """Leave `async with agent` (closes the MCP sessions)."""
        self._closing.set()
        if self._task is not None:
            await self._task


async def _drain_events(ctx: Any, events: AsyncIterable[Any]) -> None:
    """The event stream handler: consumes every event (a user would render them), changes nothing."""
    async for _ in events:
        pass


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys pydantic-ai has no place for (dedup): a build must fail, never drop them."""
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
    return found


def _toolset(server_id: str, entry: dict[str, Any]) -> Any:
    """One CONFIG server as an `MCPToolset`, the way pydantic-ai's own config loader builds one
    (`load_mcp_toolsets`, pydantic_ai/mcp.py:2412-2422): stdio as FastMCP's `StdioTransport(command,
    args, env, cwd)`; http as the URL with its headers. An sse server is a FastMCP `SSETransport(url,
    headers)`: the URL form picks SSE only for a path ending in /sse (mcp.py:2039). The transport's
    keep_alive stays FastMCP's default, True, as the config loader leaves it: the process outlives the
    toolset's exit (fastmcp/client/transports/stdio.py:64-66, :98-101)."""
    from fastmcp.client.transports import (  # type: ignore[import-not-found, unused-ignore]
        SSETransport,
        StdioTransport,
    )
    from pydantic_ai.mcp import MCPToolset  # type: ignore[import-not-found, unused-ignore]

    timeout = {"read_timeout": entry["tool_timeout_s"]} if "tool_timeout_s" in entry else {}
    if entry["type"] == "stdio":
        transport = StdioTransport(
            command=entry["command"],
            args=list(entry.get("args", [])),
            env=entry.get("env"),
            cwd=entry.get("cwd"),
        )
        return MCPToolset(transport, id=server_id, **timeout)
    if entry["type"] == "sse":
        return MCPToolset(SSETransport(entry["url"], headers=entry.get("headers")), id=server_id, **timeout)
    return MCPToolset(entry["url"], id=server_id, headers=entry.get("headers"), **timeout)


def _model(model: dict[str, Any], profile: Profile) -> Any:
    """CONFIG's model as the profile's pydantic-ai model, pointed at CONFIG's base_url with its key."""
    if profile.anthropic:
        from pydantic_ai.models.anthropic import AnthropicModel  # type: ignore[import-not-found, unused-ignore]
        from pydantic_ai.providers.anthropic import (  # type: ignore[import-not-found, unused-ignore]
            AnthropicProvider,
        )

        # `anthropic:<name>` is this class with an AnthropicProvider; the harness's base_url (no /v1:
        # the client appends /v1/messages) goes to the provider, which hands it to AsyncAnthropic.
        return AnthropicModel(
            model["name"], provider=AnthropicProvider(base_url=model["base_url"], api_key=model["api_key"])
        )
    from pydantic_ai.models.openai import (  # type: ignore[import-not-found, unused-ignore]
        OpenAIChatModel,
        OpenAIResponsesModel,
    )
    from pydantic_ai.providers.openai import OpenAIProvider  # type: ignore[import-not-found, unused-ignore]

    # `openai-responses:<name>` (and `openai:` in v2) is this class with an OpenAIProvider; the
    # harness's base_url goes to the provider exactly as for the chat model.
    model_class = OpenAIResponsesModel if profile.responses else OpenAIChatModel
    return model_class(
        model["name"], provider=OpenAIProvider(base_url=model["base_url"], api_key=model["api_key"])
    )


class Adapter(kit.Adapter):
    """One protocol connection under one profile: the runtime's part; the kit does the protocol."""

    def __init__(self, profile: Profile | str = "pydantic-ai") -> None:
        super().__init__()
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile

    def describe(self) -> kit.Response:
        """Identify the runtime, its capabilities and declared options."""
        return kit.hello(
            self._implementation_name(),
            kit.version("pydantic-ai-slim"),
            [
                self._wire(),
                "toolsets.namespace",
                "loop.turn_cap",
                "mcp.stdio",
                "mcp.sse",
            ],
            declared_options(self.profile),
            homepage="https://github.com/pydantic/pydantic-ai",
        )

    def _wire(self) -> str:
        if self.profile.anthropic:
            return "anthropic.messages"
        return "openai.responses" if self.profile.responses else "openai.chat"

    def _implementation_name(self) -> str:
        if self.profile.prefix:
            return "pydantic-ai (prefix)"
        if self.profile.stream:
            return "pydantic-ai (stream)"
        if self.profile.responses:
            return "pydantic-ai (responses)"
        if self.profile.anthropic:
            return "pydantic-ai (anthropic)"
        return "pydantic-ai"

    async def create(self, id: str, config: dict[str, Any]) -> Build:
        """Construct the agent the way a user would, and connect its MCP toolsets."""
        from pydantic_ai import Agent  # type: ignore[import-not-found, unused-ignore]

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise kit.Fail("invalid_config", "pydantic-ai has no place for " + ", ".join(unsupported))
        model = config["model"]
        toolsets: list[Any] = []
        for server_id, entry in config["mcp_servers"].items():
            toolset = _toolset(server_id, entry)
            toolsets.append(toolset.prefixed(server_id) if self.profile.prefix else toolset)
        agent = Agent(
            _model(model, self.profile),
            instructions=config["instruction"],
            toolsets=toolsets,
        )
        build = Build(agent, config.get("max_tool_turns"), stream=self.profile.stream)
        await build.open()
        return build

    async def invoke(self, agent: Build, input: str) -> kit.Response:
        """One run of a build."""
        return await agent.run(input)

    async def release(self, agent: Build) -> None:
        """Leave the build's `async with agent` (closes its MCP sessions)."""
        await agent.close()

    def rules(self) -> list[kit.Rule]:
        """The runtime's error table."""
        return error_rules()


def factory(profile: str = "pydantic-ai") -> Adapter:
    """In-process (`py:candidates.pydantic_ai.adapter:factory`) where the runtime shares toolproof's env."""
    return Adapter(profile)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.pydantic_ai.adapter [--profile NAME]`."""
    return kit.main(factory, argv, profiles=list(PROFILES), prog="python -m candidates.pydantic_ai.adapter")


if __name__ == "__main__":
    sys.exit(main())
