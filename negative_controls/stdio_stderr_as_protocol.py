"""A stdio server's stderr is merged into the stream the client reads as protocol.

The server is spawned with stderr pointed at its stdout pipe (`2>&1`), so what
it logs reaches the JSON-RPC reader: a logged error response answers the
request it names, and a non-JSON line is a parse error. The MCP stdio transport
gives stdout to messages and stderr to logging (contracts/sources.md
mcp-stdio-transport).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-stderr-as-protocol",
    provenance="contract",
    bug="the stdio server's stderr is merged into its stdout, which is read as protocol",
    source="contracts/sources.md mcp-stdio-transport (stderr is logging, never protocol)",
    kills=("mcp.stdio-stderr-not-protocol",),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                "        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)\n"
            ),
            new="        return stdio_client(stdio_parameters(server), errlog=-2)  # subprocess.STDOUT\n",
        ),
    ),
)
