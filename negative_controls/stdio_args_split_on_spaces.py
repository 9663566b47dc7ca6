"""A stdio server's args are joined into one string and split on whitespace.

One argument with a space becomes several, an empty one disappears, and quotes
reach the server as characters (contracts/sources.md upstream-stdio-args-split:
the MCP Inspector's `split(/\\s+/)`, mcp-use#1815, tome#72).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-args-split-on-spaces",
    provenance="public-bug",
    bug="stdio args are joined with spaces and split on whitespace before the spawn",
    source="contracts/sources.md upstream-stdio-args-split (modelcontextprotocol/inspector#96)",
    kills=("mcp.stdio-args-verbatim",),
    patches=(
        Patch(
            file="toolsets.py",
            old="        args=list(server.args),\n",
            new='        args=" ".join(server.args).split(),\n',
        ),
    ),
)
