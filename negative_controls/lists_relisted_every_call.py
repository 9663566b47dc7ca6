"""Every server is listed again before every tool call.

The runtime declares `per_run` and lists every server at the start of each
run, but also lists them all again before each tool call, whether or not
anything changed, as UiPath's LangChain integration did before
UiPath/uipath-langchain-python#955 (and fastmcp's client, listing five times a
call, PrefectHQ/fastmcp#1218). A server without tools.listChanged is listed
needlessly. One failing check (a SHOULD): mcp.list-no-needless-relist.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lists-relisted-every-call",
    provenance="public-bug",
    bug="lists every server's tools again before each tool call, beyond the declared per_run policy",
    source="CONTRACT.md §5c.3 (tp-mcp-list-no-needless-relist); sources.md upstream-relist-every-step "
    "(https://github.com/UiPath/uipath-langchain-python/pull/955)",
    kills=("mcp.list-no-needless-relist",),
    patches=(
        Patch(
            file="runtime.py",
            old=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            return await execute_tool_call("
                "call, table, servers, self.profile.multi_block_join, wire)\n"
            ),
            new=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            await load_tool_table(self.servers, self.profile.tool_namespacing)\n"
                "            return await execute_tool_call(\n"
                "                call, table, servers, self.profile.multi_block_join, wire)\n"
            ),
        ),
    ),
)
