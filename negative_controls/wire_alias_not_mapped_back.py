"""The alias of an invalid tool name is sent to the MCP server instead of the original name.

`balda.control.shutdown` is offered as `runtime_tool_<hash>` (good), but the
call is forwarded under the alias, which the server does not know.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-alias-not-mapped-back",
    provenance="contract",
    bug="tools/call uses the wire name (the alias), not the tool's original MCP name",
    source="upstream-contracts §3 (aliases are mapped back when the model calls them)",
    kills=("wire.invalid-name-maps-back",),
    patches=(
        Patch(
            file="calls.py",
            old="servers[tool.server_id], tool.original_name, arguments",
            new="servers[tool.server_id], tool.wire_name, arguments",
        ),
    ),
)
