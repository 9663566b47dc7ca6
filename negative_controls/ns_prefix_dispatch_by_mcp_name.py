"""Prefixed names are offered, but a call is resolved by its MCP name: every `lookup` goes to one server."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-prefix-dispatch-by-mcp-name",
    provenance="contract",
    bug="ToolTable.lookup strips the prefix and returns the first tool with the same MCP name",
    source="CONTRACT.md tp-ns-duplicate-tools (prefix: a call reaches its own server only)",
    kills=(
        "ns.duplicate-prefix-call-own-server",
        # The same misrouting whatever the servers' transports (CONTRACT.md §5b):
        "mcp.sse-duplicate-tools-per-option",
        "mcp.stdio-duplicate-tools-per-option",
    ),
    profile="reference-prefix",
    patches=(
        Patch(
            file="packing.py",
            old="            if tool.wire_name == wire_name:\n                return tool\n",
            new=(
                "            if tool.wire_name == wire_name:\n"
                "                same = (t for t in self.tools if t.original_name == tool.original_name)\n"
                "                return next(same)\n"
            ),
        ),
    ),
)
