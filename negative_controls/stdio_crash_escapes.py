"""A stdio server that exits mid-call makes the run fail with an unexpected error.

Only the stdio transport's failure escapes: the runtime catches the errors it
knows from HTTP servers, and the closed pipe of a server process that exited
goes up uncaught, ending the run with kind internal instead of going the
declared tool_failure way.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-crash-escapes",
    provenance="contract",
    bug="the failure of a tools/call whose stdio server process exited is not caught",
    source="CONTRACT.md §5b (tp-mcp-stdio-crash), §10 (tp-err-tool-failure)",
    kills=("mcp.stdio-crash-tool-failure",),
    patches=(
        Patch(
            file="calls.py",
            old=("    except Exception as exc:\n        return tool_failure_text(exc)\n"),
            new=(
                "    except Exception as exc:\n"
                '        if servers[tool.server_id].type == "stdio":\n'
                "            raise\n"
                "        return tool_failure_text(exc)\n"
            ),
        ),
    ),
)
