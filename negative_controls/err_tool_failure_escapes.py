"""An MCP failure in the middle of a call escapes the tool loop.

The transport error of a failing server (HTTP 500, connection dropped) is
not caught around the call: it ends the run as an unexpected exception
(kind internal) instead of going the declared tool_failure way.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-tool-failure-escapes",
    provenance="contract",
    bug="exceptions of tools/call are not caught: the run ends with kind internal",
    source="CONTRACT.md §10.2 (tp-err-tool-failure); open-questions (wire)",
    kills=(
        "err.tool-failure-http-500",
        "err.tool-failure-connection-dropped",
        # The same escape when the failed request was an SSE message POST (CONTRACT.md §5b):
        "mcp.sse-post-500-tool-failure",
        "mcp.sse-post-dropped-tool-failure",
        # Over stdio too: a server process that exits mid-call fails the call the same way.
        "mcp.stdio-crash-tool-failure",
    ),
    patches=(
        Patch(
            file="calls.py",
            old=(
                "    try:\n"
                "        # The server knows the tool by its original MCP name, not the wire name.\n"
                "        result = await call_server_tool("
                "servers[tool.server_id], tool.original_name, arguments)\n"
                "    except Exception as exc:\n"
                "        return tool_failure_text(exc)\n"
            ),
            new=(
                "    result = await call_server_tool("
                "servers[tool.server_id], tool.original_name, arguments)\n"
            ),
        ),
    ),
)
