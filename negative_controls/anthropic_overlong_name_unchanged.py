"""An MCP tool name of 130 characters offered unchanged on the Messages API.

The runtime's name check allows any length, so a name past 128 characters is
offered as it is and the API refuses every request ("tools.18.custom.name:
String should have at most 128 characters": anthropics/claude-code #96152).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-overlong-name-unchanged",
    provenance="public-bug",
    bug="a tool name past 128 characters counts as a valid wire name and is offered unchanged",
    source="upstream-anth-tool-name (anthropics/claude-code #96152)",
    kills=("anthropic.tool-name-pattern", "anthropic.invalid-name-per-option"),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="packing.py",
            old='WIRE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")',
            new='WIRE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,}")',
        ),
    ),
    select="test_an_invalid_mcp_name_is_handled_as_declared and overlong",
)
