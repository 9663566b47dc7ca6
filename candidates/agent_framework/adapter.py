"""toolproof protocol v1 adapter for Microsoft Agent Framework on its default OpenAI path.

The default path of ``agent_framework.openai.OpenAIChatClient`` is the OpenAI Responses API
(agent_framework_openai/_chat_client.py:4560) with a non-streaming ``agent.run``; the adapter
claims ``openai.responses``. Run it as ``python -m toolproof.candidates.agent_framework.adapter``;
the protocol is toolproof's adapter kit (``toolproof.adapter``, standard library only). Nothing is
set beyond CONFIG: the client stores responses and chains ``previous_response_id`` by default
(README.md of this directory), declared as ``responses_state: previous_response_id``.
"""

from __future__ import annotations

import sys
from typing import Any

from toolproof import adapter as kit

WIRE_CAPABILITY = "openai.responses"
#: Claimed besides the wire. No mcp.sse: the runtime's MCP tools are MCPStdioTool,
#: MCPStreamableHTTPTool and MCPWebsocketTool (agent_framework/_mcp.py:3630, :3886, :4568), no SSE.
CAPABILITIES = ["toolsets.namespace", "loop.turn_cap", "mcp.stdio"]
LIMIT_FALLBACK_TEXT = "Function invocation limit reached before a final answer could be produced."
"""The runtime's reply when the final call at the cap answers blank (agent_framework/_tools.py:141)."""


def error_rules() -> list[kit.Rule]:
    """Map the runtime's error types to protocol kinds (PROTOCOL.md section 4)."""
    from agent_framework.exceptions import ChatClientException, ToolException  # type: ignore[import-not-found, unused-ignore]

    return [
        (ChatClientException, "model_error"),
        (ToolException, "tool_error"),
        # The public validation function of the loop limits raises plain ValueError/TypeError
        # (agent_framework/_tools.py:1964 normalize_function_invocation_configuration).
        (
            lambda e: (
                isinstance(e, ValueError | TypeError)
                and kit.raised_in(e, "normalize_function_invocation_configuration")
            ),
            "invalid_config",
        ),
        # A tool name on two MCP servers: the run's tool packing raises a plain ValueError from the
        # function that exists only for that (agent_framework/_tools.py:1451-1453
        # _raise_duplicate_tool_name, called from _agents.py:1655, :1670).
        (
            lambda e: isinstance(e, ValueError) and kit.raised_in(e, "_raise_duplicate_tool_name"),
            "duplicate_tool",
        ),
    ]


def _tool(server_id: str, server: dict[str, Any]) -> Any:
    """One CONFIG server as the runtime's MCP tool of its transport: `MCPStdioTool(name, command,
    args=, env=, cwd=)` (`cwd` is one of the keyword arguments it passes on to the mcp SDK's
    StdioServerParameters, agent_framework/_mcp.py:3655-3686, :3877-3883), else
    `MCPStreamableHTTPTool(name, url=, static_headers=)`."""
    from agent_framework import MCPStdioTool, MCPStreamableHTTPTool  # type: ignore[import-not-found, unused-ignore]

    # CONFIG's tool_timeout_s is the tool's request_timeout, its mcp Client's read timeout for every
    # request (_mcp.py:3665, :3919, :2390).
    timeout = {"request_timeout": server["tool_timeout_s"]} if "tool_timeout_s" in server else {}
    if server["type"] == "stdio":
        extra = {"cwd": server["cwd"]} if "cwd" in server else {}
        return MCPStdioTool(
            name=server_id,
            command=server["command"],
            args=server.get("args"),
            env=server.get("env"),
            **extra,
            **timeout,
        )
    return MCPStreamableHTTPTool(
        name=server_id, url=server["url"], static_headers=server.get("headers"), **timeout
    )


class Adapter(kit.Adapter):
    """The runtime's part on Agent Framework's own public build path; the kit does the protocol."""

    def describe(self) -> kit.Response:
        """Declare the runtime, its wire and the options measured on it (README.md here)."""
        return kit.hello(
            "agent-framework",
            kit.version("agent-framework-core", "agent-framework-openai"),
            [WIRE_CAPABILITY, *CAPABILITIES],
            # Each option as measured; the runtime's file:line for each is in README.md here.
            {
                # The client stores responses by default and the tool loop chains each request
                # to the last response (agent_framework_openai/_chat_client.py:603, :1194-1206,
                # :1734-1743; agent_framework/_tools.py:5611-5615).
                "responses_state": "previous_response_id",
                # Chained, reasoning items are never sent again: the stored response holds them
                # (agent_framework_openai/_chat_client.py:1974-1976).
                "reasoning_replay": "by_id",
                # The runtime keeps reasoning items whatever the model's name (no name test in
                # agent_framework_openai/_chat_client.py): any name it runs normally.
                "reasoning_model_name": "o4-mini",
                "model_stream": "never",
                "duplicate_tool_phase": "run",
                "tool_namespacing": "error",
                "invalid_tool_name": "alias",
                "turn_cap_end": "graceful",
                "turn_cap_final_call": True,
                "turn_cap_final_call_tools": "tool_choice_none",
                "cap_stop_reason": "not_exposed",
                "zero_max_tool_turns": "invalid_config",
                "default_max_tool_turns": 40,
                "turn_cap_notice": LIMIT_FALLBACK_TEXT,
                "instruction_role": "instructions",
                "parameters_strict": "closed_root",
                "structured_content": "structured",
                # MCPStdioTool hands its env to the mcp SDK's StdioServerParameters as it is
                # (agent_framework/_mcp.py:3866-3883), which merges it over its default allowlist
                # (mcp/client/stdio.py:129).
                "stdio_env_inherit": "sdk_allowlist",
                # static_headers are set on each request by an httpx2 event hook,
                # `request.headers[key] = value` (agent_framework/_mcp.py:4256, :4320), which
                # encodes the value as UTF-8 (httpx2/_models.py:346): sent as its UTF-8 bytes.
                "header_non_ascii": "utf8",
                # Tools are listed at connect (_mcp.py:2494-2497) and again, in a background task,
                # on notifications/tools/list_changed (_mcp.py:2810-2811); each run copies the
                # tools' functions once into its tool list (_agents.py:1663-1675): the run that
                # changed the list keeps the old one, the next run offers the new one.
                "tool_list_refresh": "per_run",
                # MCPStdioTool and MCPStreamableHTTPTool take request_timeout, the mcp Client's
                # read_timeout_seconds (_mcp.py:3719, :3976, :2390; none by default): CONFIG's
                # tool_timeout_s is mapped onto it (_tool).
                "tool_timeout": "config",
                # Non-text blocks (CONTRACT.md §5d): MCP image, audio and blob blocks become data
                # contents (agent_framework/_mcp.py:1354-1371), which the Responses client sends in
                # the function_call_output as input_image, input_audio and input_file parts
                # (agent_framework_openai/_chat_client.py:2219-2268). input_audio is no
                # function_call_output item, so the audio check fails on it.
                "binary_result_responses": "output_parts",
            },
            homepage="https://github.com/microsoft/agent-framework",
        )

    async def create(self, id: str, config: dict[str, Any]) -> Any:
        """Translate CONFIG into an OpenAIChatClient, MCPStreamableHTTPTools and an Agent."""
        servers: dict[str, Any] = config.get("mcp_servers") or {}
        # No dedup concept in the runtime: refuse the keys before contacting anything.
        for server in servers.values():
            if server.get("dedup_key") or server.get("dedup_preferred"):
                raise kit.Fail("invalid_config", "agent-framework has no dedup_key / dedup_preferred")
        # A server of type sse (no such tool class) is refused before anything is contacted.
        kit.refuse_unclaimed(config, [WIRE_CAPABILITY, *CAPABILITIES], "agent-framework")
        from agent_framework import Agent  # type: ignore[import-not-found, unused-ignore]
        from agent_framework.openai import OpenAIChatClient  # type: ignore[import-not-found, unused-ignore]

        model = config["model"]
        client_kwargs: dict[str, Any] = {}
        if config.get("max_tool_turns") is not None:
            client_kwargs["function_invocation_configuration"] = {"max_iterations": config["max_tool_turns"]}
        client = OpenAIChatClient(
            model=model["name"], api_key=model["api_key"], base_url=model["base_url"], **client_kwargs
        )
        tools = [_tool(server_id, server) for server_id, server in servers.items()]
        agent = Agent(
            client=client,
            instructions=config.get("instruction"),
            tools=tools,
        )
        await agent.open()
        return agent

    async def invoke(self, agent: Any, input: str) -> kit.Response:
        """One input through agent.run; output is the text of the last message of the run."""
        response = await agent.run(input)
        messages = response.messages
        return kit.run_ok(messages[-1].text if messages else "")

    async def release(self, agent: Any) -> None:
        """Close the agent's client and MCP tool contexts."""
        await agent.close()

    def rules(self) -> list[kit.Rule]:
        """The runtime's error table."""
        return error_rules()


def factory() -> Adapter:
    """In-process (`py:candidates.agent_framework.adapter:factory`), where the runtime shares the env."""
    return Adapter()


def main(argv: list[str] | None = None) -> int:
    """Entry point: guard stdout, then serve until EOF."""
    return kit.main(factory, argv, prog="python -m candidates.agent_framework.adapter")


if __name__ == "__main__":
    sys.exit(main())
