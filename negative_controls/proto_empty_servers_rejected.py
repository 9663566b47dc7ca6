"""A CONFIG with no MCP server is rejected: `mcp_servers` must list at least one.

A validator written for the common case ("an agent has tools") turns a valid
CONFIG (an empty `mcp_servers` object: a plain chat agent) into
invalid_config. The scenarios that need that build cannot observe anything
else: the precondition fails once, and their own checks are undecided.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-empty-servers-rejected",
    provenance="contract",
    bug="an empty mcp_servers object fails the build with invalid_config",
    source="PROTOCOL.md (build); CONTRACT.md §3.10 (tp-proto-valid-config-runs)",
    kills=("proto.valid-config-builds-and-runs",),
    # The one test whose CONFIG has no server: every other test carries the check too, and passes it.
    select="test_no_server_offers_no_tool",
    patches=(
        Patch(
            file="config.py",
            old='        raise InvalidConfig("mcp_servers must be an object")\n',
            new='        raise InvalidConfig("mcp_servers must be an object")\n'
            "    if not raw:\n"
            '        raise InvalidConfig("mcp_servers must list at least one server")\n',
        ),
    ),
)
