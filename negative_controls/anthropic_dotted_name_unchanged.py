"""A dotted MCP tool name offered unchanged on the Messages API.

The runtime's name check lets dots through, so `balda.control.shutdown` is
offered as it is and the API refuses every request ("tools.0.custom.name:
String should match pattern '^[a-zA-Z0-9_-]{1,128}$'": home-assistant/core
#147760, netclaw-dev/netclaw #1133).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-dotted-name-unchanged",
    provenance="public-bug",
    bug="a dotted MCP tool name counts as a valid wire name and is offered unchanged",
    source="upstream-anth-tool-name (home-assistant/core #147760; netclaw-dev/netclaw #1133)",
    kills=("anthropic.tool-name-pattern", "anthropic.invalid-name-per-option"),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="packing.py",
            old='WIRE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")',
            new='WIRE_NAME = re.compile(r"[a-zA-Z0-9_.-]{1,64}")',
        ),
    ),
    select="test_an_invalid_mcp_name_is_handled_as_declared and dotted",
)
