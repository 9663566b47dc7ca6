"""Declares `on_notification`, then lists every server again after every tool call.

The runtime gets the changed list into the very next model request, as
`on_notification` promises, but not by following the notification: it lists
every server after each tool call and at the start of each run, whether or not
that server can change its list, as opencode and Kilo Code did before caching
the list until notifications/tools/list_changed
(https://github.com/anomalyco/opencode/issues/17167,
https://github.com/Kilo-Org/kilocode/pull/7922). The refresh and removed-tool
checks pass on their on_notification branches; a server without
tools.listChanged is listed needlessly. One failing check (a SHOULD):
mcp.list-no-needless-relist.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lists-on-notification-relists-all",
    provenance="public-bug",
    bug=(
        "declares tool_list_refresh on_notification but lists every server after every tool call, "
        "listChanged or not"
    ),
    source="CONTRACT.md §5c.3 (tp-mcp-list-no-needless-relist); sources.md upstream-relist-every-step "
    "(https://github.com/Kilo-Org/kilocode/pull/7922)",
    kills=("mcp.list-no-needless-relist",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_list_refresh": "per_run",\n',
            new='        "tool_list_refresh": "on_notification",\n',
        ),
        Patch(
            file="runtime.py",
            old="        tools = table.definitions()\n",
            new="        current = {'table': table}\n",
        ),
        Patch(
            file="runtime.py",
            old="                messages,\n                tools,\n",
            new="                messages,\n                current['table'].definitions(),\n",
        ),
        Patch(
            file="runtime.py",
            old=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            return await execute_tool_call("
                "call, table, servers, self.profile.multi_block_join, wire)\n"
            ),
            new=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            text = await execute_tool_call(\n"
                "                call, current['table'], servers, self.profile.multi_block_join, wire)\n"
                "            current['table'] = await load_tool_table(\n"
                "                self.servers, self.profile.tool_namespacing)\n"
                "            return text\n"
            ),
        ),
    ),
)
