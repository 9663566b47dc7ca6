"""The public API: `Runtime(profile).build(config) -> Agent`, `Agent.run`, `Agent.close`.

Failures are raised as `RuntimeError_` subclasses carrying a protocol error
kind. Build contacts only the servers that survive dedup, lists and packs
their tools (duplicate_tool_phase "build") and makes no model request.
"""

from __future__ import annotations

from typing import Any

from .calls import execute_tool_call
from .config import AgentConfig, parse_config
from .dedup import dedup_servers
from .hydrate import ServerConfig, hydrate_servers
from .loop import RunResult, run_tool_loop
from .messages import HistoryEntry, ModelReply, ToolCall, ToolContent, system_message, user_message
from .model import open_model_client, request_completion
from .packing import ToolTable, pack_tools
from .profiles import Profile, get_profile
from .toolsets import list_all_tools

__all__ = ["Agent", "RunResult", "Runtime"]


async def load_tool_table(servers: list[ServerConfig], namespacing: str) -> ToolTable:
    """List every server's tools and pack them (DuplicateTool, ToolError)."""
    return pack_tools(await list_all_tools(servers), namespacing)


class Agent:
    """A built agent: its surviving servers and its conversation."""

    def __init__(self, profile: Profile, config: AgentConfig, servers: list[ServerConfig]) -> None:
        self.profile = profile
        self.config = config
        self.servers = servers
        # runs_per_build "conversation": the history outlives a run (on a stored responses_state
        # it also holds the chain: each assistant message keeps the id of the response that made it).
        self.history: list[HistoryEntry] = [system_message(config.instruction)]
        self.closed = False

    async def run(self, text: str) -> RunResult:
        """One user input through the tool loop; a failed run leaves the history untouched."""
        if self.closed:
            raise RuntimeError("agent is closed")
        history = [*self.history, user_message(text)]
        table = await load_tool_table(self.servers, self.profile.tool_namespacing)
        result = await self.run_loop(history, table)
        self.history = history
        return result

    async def run_loop(self, history: list[HistoryEntry], table: ToolTable) -> RunResult:
        """The tool loop with this agent's model client, cap and continuation."""
        tools = table.definitions()
        servers = {server.id: server for server in self.servers}
        client = open_model_client(self.config.model, self.profile.wire)

        async def ask_model(messages: list[dict[str, Any]]) -> ModelReply:
            return await request_completion(
                client,
                self.config.model.name,
                messages,
                tools,
                stream=self.profile.stream,
                wire=self.profile.wire,
                state=self.profile.state,
            )

        wire = self.profile.wire

        async def execute(call: ToolCall) -> ToolContent:
            return await execute_tool_call(call, table, servers, self.profile.multi_block_join, wire)

        async with client:
            return await run_tool_loop(
                history,
                ask_model,
                execute,
                max_tool_turns=self.config.max_tool_turns,
                continuation=self.profile.continuation,
                notice=self.profile.turn_cap_notice,
            )

    async def close(self) -> None:
        """Release the agent; no session outlives a call, so nothing else stays open."""
        self.closed = True
        self.history = []


class Runtime:
    """Builds agents from CONFIG under one profile."""

    def __init__(self, profile: Profile | str = "reference") -> None:
        self.profile = get_profile(profile) if isinstance(profile, str) else profile

    async def build(self, config: object) -> Agent:
        """Parse, validate, hydrate, dedup, then list and pack tools; returns the agent."""
        agent_config = parse_config(config, self.profile.default_max_tool_turns)
        servers = dedup_servers(hydrate_servers(agent_config.servers))
        await load_tool_table(servers, self.profile.tool_namespacing)
        return Agent(self.profile, agent_config, servers)
