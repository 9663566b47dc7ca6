"""Protocol v1 adapter for strands-agents: CONFIG -> `Agent` with `MCPClient.load_servers`, nothing more.

Run it in an environment that has `candidates/strands_agents/requirements.txt` installed, as
`python -m candidates.strands_agents.adapter` from the checkout or as a script
(`python <path>/adapter.py`; tox runs the wheel's copy this way, because strands-agents pins
`mcp` and `openai` below toolproof's floors and so lives in a venv of its own). It maps CONFIG onto
what a strands user writes (`Agent(model=OpenAIModel(client_args={...}, model_id=...),
system_prompt=..., tools=MCPClient.load_servers({"mcpServers": {...}}))`, then
`await agent.invoke_async(input, limits=...)`) and reports what the runtime does; it never
validates, dedups, renames or retries on its own. The protocol is toolproof's adapter kit
(`toolproof.adapter`, standard library only): where toolproof is not installed (tox's venv of its
own), the kit's file is loaded by its path in the wheel or the checkout.

The runtime is the top-level package `strands`; this directory is `strands_agents`, so neither
`-m` (sys.path[0] is the working directory) nor script mode (sys.path[0] is this directory) can
shadow it (`main` checks it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

try:  # toolproof installed (the checkout, the wheel): its kit
    from toolproof import adapter as kit
except ImportError:  # the runtime's venv of its own: the kit's file, by path (wheel, then checkout)
    import importlib.util

    _root = Path(__file__).resolve().parents[2]
    _file = next(
        path for path in (_root / "adapter.py", _root / "toolproof" / "adapter.py") if path.is_file()
    )
    _spec = importlib.util.spec_from_file_location("toolproof_adapter", _file)
    assert _spec is not None and _spec.loader is not None
    kit = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = kit
    _spec.loader.exec_module(kit)


def declared_options() -> dict[str, Any]:
    """What the runtime does, as `hello.options` (contracts/options.yaml); measured, not wished.

    Line numbers cite strands-agents 1.62.0 as installed (site-packages/strands/...).
    """
    return {
        # load_servers hands a stdio server's env to the mcp SDK's StdioServerParameters as it is
        # (tools/mcp/mcp_client.py:2662-2667), which merges it over its default allowlist
        # (mcp/client/stdio.py:129).
        "stdio_env_inherit": "sdk_allowlist",
        # Header values go to httpx2 as str, encoded as ASCII (httpx2/_models.py:98): a non-ASCII
        # value raises UnicodeEncodeError before the first request, when the Agent constructor
        # connects. The nearest declared value; the suite judges the kind and the phase.
        "header_non_ascii": "refused",
        # The Agent constructor registers each client's tools once (tools/registry.py:130-141
        # load_tools, cached in the client, tools/mcp/mcp_client.py:565-574). A list_changed
        # notification is acted on only with an on_tools_changed callback (mcp_client.py:1579),
        # which load_servers does not set (:2633): the list read at build stays.
        "tool_list_refresh": "never",
        # No tool timeout on the config path: load_servers' MCPServerConfig has no timeout key (only
        # startup_timeout; tools/mcp/mcp_client.py:158-188, unknown keys ignored :279-282), its tools
        # are MCPAgentTool(tool, self) with timeout None (:769-772, mcp_agent_tool.py:38, :131), and
        # the ClientSession gets no read timeout (mcp_client.py:1483): a call waits as long as the
        # server takes.
        "tool_timeout": "none",
        # Non-text blocks (CONTRACT.md §5d): the MCP client maps text, image and embedded resources
        # (tools/mcp/mcp_client.py:1651-1700; an embedded text resource its text), nothing else; on
        # chat completions an image leaves the tool message, which gets a fixed text after its other
        # texts, and follows in a user message (models/openai.py:310-335).
        "binary_result_chat": "user_message",
        "binary_placeholder": (
            "Tool successfully returned an image. The image is being provided in the following user message."
        ),
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


def error_rules() -> list[kit.Rule]:
    """Which exceptions of the runtime mean which error kind, by type (PROTOCOL.md §4).

    - A model failure: strands wraps what the model provider raised in `EventLoopException`
      (`original_exception`, event_loop/event_loop.py:419-425, 729-733); the OpenAI provider
      re-raises `openai.APIError` (models/openai.py:811-819), or raises `ModelThrottledException` /
      `ContextWindowOverflowException`. An HTTP transport error of the model's stream (the openai
      client does not wrap a connection dropped mid-stream) is a model failure too.
    - A `TypeError` raised by `Agent._validate_limits` (agent/agent.py:2057-2083, documented
      "Raises: TypeError: If any key is not a recognized cap or any value is not a positive int"):
      the per-run cap was rejected before any model request. Told apart by the raising function,
      never by the message; any other TypeError stays `internal`.
    - A duplicate tool name: `ToolRegistry.register_tool` raises a plain ValueError for an exact
      duplicate or one differing only by '-'/'_' (tools/registry.py:249-253, :265-269; it raises
      nothing else), which `process_tools` re-raises as ValueError("Failed to load tool ...") from
      it (tools/registry.py:152-155): `duplicate_tool`, told apart by the raising function of the
      cause, never by the message.
    - Anything else: `internal`, untyped.
    """
    import httpx  # type: ignore[import-not-found, unused-ignore]
    import openai  # type: ignore[import-not-found, unused-ignore]
    from strands.types.exceptions import (  # type: ignore[import-not-found, unused-ignore]
        ContextWindowOverflowException,
        EventLoopException,
        ModelThrottledException,
    )

    model_errors = (
        openai.APIError,
        httpx.TransportError,
        ModelThrottledException,
        ContextWindowOverflowException,
    )
    return [
        (model_errors, "model_error"),
        (
            lambda e: isinstance(e, EventLoopException) and isinstance(e.original_exception, model_errors),
            "model_error",
        ),
        (lambda e: isinstance(e, TypeError) and kit.raised_in(e, "_validate_limits"), "invalid_config"),
        (
            lambda e: (
                isinstance(e, ValueError)
                and isinstance(e.__cause__, ValueError)
                and kit.raised_in(e.__cause__, "register_tool")
            ),
            "duplicate_tool",
        ),
    ]


def _unsupported_keys(config: dict[str, Any]) -> list[str]:
    """CONFIG keys strands has no place for: a build must fail on them (PROTOCOL.md §7).

    `dedup_key` / `dedup_preferred`: strands has no deduplication of MCP servers.
    """
    found = []
    for server_id, entry in config["mcp_servers"].items():
        for key in ("dedup_key", "dedup_preferred"):
            if key in entry:
                found.append(f"mcp_servers[{json.dumps(server_id)}].{key}")
    return found


def _server_config(entry: dict[str, Any]) -> dict[str, Any]:
    """One CONFIG server as a `load_servers` entry (`MCPServerConfig`, tools/mcp/mcp_client.py:158-185):
    its transport spelled as strands spells it, and the transport's own keys as given (command, args,
    env, cwd for stdio, tools/mcp/mcp_client.py:2658-2668; url and headers for http and sse, :2670-2683)."""
    transport = {"stdio": "stdio", "sse": "sse"}.get(entry["type"], "streamable-http")
    keys = ("command", "args", "env", "cwd") if transport == "stdio" else ("url", "headers")
    return {"transport": transport} | {key: entry[key] for key in keys if key in entry}


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

    async def run(self, text: str) -> kit.Response:
        """One `agent.invoke_async`, with CONFIG's cap passed on unchanged as `limits["turns"]`."""
        limits = None if self.max_tool_turns is None else {"turns": self.max_tool_turns}
        result = await self.agent.invoke_async(text, limits=limits)
        # At the cap, AgentResult.message is agent.messages[-1], the tool results
        # (event_loop/event_loop.py:244-249): the last reply is the last assistant message.
        last: dict[str, Any] = next(
            (m for m in reversed(self.agent.messages) if m.get("role") == "assistant"), {}
        )
        if result.stop_reason == "limit_turns":
            return kit.run_ok(_reply_text(last), "max_tool_turns")
        return kit.run_ok(_reply_text(result.message))

    def close(self) -> None:
        """Release the agent's MCP clients (Agent.cleanup removes its consumer: the client stops)."""
        self.agent.cleanup()


class Adapter(kit.Adapter):
    """One protocol connection: the runtime's part; the kit does the protocol."""

    def describe(self) -> kit.Response:
        """Identify the runtime, its capabilities and declared options."""
        # toolsets.namespace: a second tool of one name fails the build (tools/registry.py:249-253),
        # never silent shadowing. loop.turn_cap: limits={"turns": N} per run (types/agent.py:150).
        return kit.hello(
            "strands-agents",
            kit.version("strands-agents"),
            ["openai.chat", "toolsets.namespace", "loop.turn_cap", "mcp.stdio", "mcp.sse"],
            declared_options(),
            homepage="https://github.com/strands-agents/sdk-python",
        )

    def create(self, id: str, config: dict[str, Any]) -> Build:
        """Construct the agent the way a user would (strands connects and lists tools here)."""
        from strands import Agent  # type: ignore[import-not-found, unused-ignore]
        from strands.models.openai import OpenAIModel  # type: ignore[import-not-found, unused-ignore]
        from strands.tools.mcp import MCPClient  # type: ignore[import-not-found, unused-ignore]

        unsupported = _unsupported_keys(config)
        if unsupported:
            raise kit.Fail("invalid_config", "strands has no place for " + ", ".join(unsupported))
        servers: dict[str, Any] = {}
        for server_id, entry in config["mcp_servers"].items():
            servers[server_id] = _server_config(entry)
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

    async def invoke(self, agent: Build, input: str) -> kit.Response:
        """One run of a build."""
        return await agent.run(input)

    def release(self, agent: Build) -> None:
        """Release a build's MCP clients."""
        agent.close()

    def rules(self) -> list[kit.Rule]:
        """The runtime's error table."""
        return error_rules()


def factory() -> Adapter:
    """In-process (`py:candidates.strands_agents.adapter:factory`), where the runtime shares the env."""
    return Adapter()


def _checked_factory() -> Adapter:
    """`factory` for `main` (after the stdout guard), once the runtime is known to be the installed one."""
    _check_runtime_is_the_installed_package()
    return factory()


def _check_runtime_is_the_installed_package() -> None:
    """Fail loudly if `strands` would resolve to this directory rather than the PyPI package."""
    import strands  # type: ignore[import-not-found, unused-ignore]

    here = Path(__file__).resolve().parent
    where = Path(strands.__file__ or "").resolve().parent
    if where == here:
        raise SystemExit(f"`import strands` found the adapter's own directory {here}, not the runtime")


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.strands_agents.adapter` (or of the file run as a script)."""
    return kit.main(_checked_factory, argv, prog="python -m candidates.strands_agents.adapter")


if __name__ == "__main__":
    sys.exit(main())
