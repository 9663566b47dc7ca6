"""The tool list is read once, at build, though the runtime declares `per_run`.

The runtime lists every server's tools when it builds and keeps that table for
the agent's life, never listing again, as Claude Code caches `tools/list` at
connection time (anthropics/claude-code#79826): a server's changed list never
reaches the model, while the declaration promises it at the next run. One
failing check: mcp.list-refresh (the removed-tool check, which stands on the
refreshed list, is then undecided, blocked by it).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lists-build-only-per-run",
    provenance="public-bug",
    bug=(
        "declares tool_list_refresh per_run but lists tools only at build: "
        "the changed list never reaches the model"
    ),
    source="CONTRACT.md §5c.1 (tp-mcp-list-refresh); sources.md upstream-tools-never-refreshed "
    "(https://github.com/anthropics/claude-code/issues/79826)",
    kills=("mcp.list-refresh",),
    patches=(
        Patch(
            file="runtime.py",
            old=(
                "        await load_tool_table(servers, self.profile.tool_namespacing)\n"
                "        return Agent(self.profile, agent_config, servers)\n"
            ),
            new=(
                "        table = await load_tool_table(servers, self.profile.tool_namespacing)\n"
                "        agent = Agent(self.profile, agent_config, servers)\n"
                "        agent.build_table = table  # type: ignore[attr-defined]\n"
                "        return agent\n"
            ),
        ),
        Patch(
            file="runtime.py",
            old="        table = await load_tool_table(self.servers, self.profile.tool_namespacing)\n",
            new="        table = self.build_table  # type: ignore[attr-defined]\n",
        ),
    ),
)
