"""A call to a tool the server removed is still dispatched to that server.

The runtime offers the refreshed list, but dispatches calls through a registry
that keeps every tool it ever listed (the two-registry problem of
anthropics/claude-ai-mcp#960; agno's MCPTools never drops a removed tool,
agno-agi/agno#10006): the model's call to the removed tool becomes a
`tools/call` on the server that no longer has it, which answers with a
JSON-RPC error, instead of going the unknown_tool way. One failing check:
mcp.list-removed-unknown.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lists-removed-tool-dispatched",
    provenance="public-bug",
    bug="a call to a tool the server removed (no longer offered) is still sent to the server as a tools/call",
    source="CONTRACT.md §5c.2 (tp-mcp-list-removed-tool); sources.md upstream-removed-tool-kept "
    "(https://github.com/agno-agi/agno/issues/10006)",
    kills=("mcp.list-removed-unknown",),
    patches=(
        Patch(
            file="runtime.py",
            old=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            return await execute_tool_call("
                "call, table, servers, self.profile.multi_block_join, wire)\n"
            ),
            new=(
                "        seen = dict(getattr(self, 'seen_tools', {}))\n"
                "        seen.update({tool.wire_name: tool for tool in table.tools})\n"
                "        self.seen_tools = seen\n"
                "        registry = ToolTable(list(seen.values()))\n"
                "\n"
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            return await execute_tool_call(\n"
                "                call, registry, servers, self.profile.multi_block_join, wire)\n"
            ),
        ),
    ),
)
