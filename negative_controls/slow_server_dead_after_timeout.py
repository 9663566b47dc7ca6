"""After one call timed out, the runtime treats its server as dead.

A timeout on a call leaves the runtime's connection to that server unusable:
every later call to the same server fails at once without reaching it, as
OpenHands' later MCP calls failed after one stuck call
(OpenHands/OpenHands#11726) and nanobot's process restarted on the timeout
path (HKUDS/nanobot#1055). One failing check: mcp.slow-next-call-answered
(the abandoned call itself goes the declared way, in time, and is cancelled).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="slow-server-dead-after-timeout",
    provenance="public-bug",
    bug="after a tools/call timed out, every later call to that server fails without being sent",
    source="CONTRACT.md §5e.3 (tp-mcp-slow-next-call); sources.md upstream-stall-after-tool-timeout "
    "(https://github.com/OpenHands/OpenHands/issues/11726)",
    kills=("mcp.slow-next-call-answered",),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                "    timeout = server.tool_timeout_s\n"
                "    return await on_server(\n"
                "        server, lambda client: client.call_tool(name, arguments, "
                "read_timeout_seconds=timeout)\n"
                "    )\n"
            ),
            new=(
                "    timeout = server.tool_timeout_s\n"
                "    key = (server.id, server.url, server.args)  # the URL or args hold the build token\n"
                "    if key in DEAD_SERVERS:\n"
                '        raise ToolError(f"mcp server {server.id} is unavailable after a timeout")\n'
                "    try:\n"
                "        return await on_server(\n"
                "            server, lambda client: client.call_tool(name, arguments, "
                "read_timeout_seconds=timeout)\n"
                "        )\n"
                "    except Exception:\n"
                "        DEAD_SERVERS.add(key)\n"
                "        raise\n"
                "\n"
                "\n"
                "DEAD_SERVERS: set[tuple[str, str, tuple[str, ...]]] = set()\n"
            ),
        ),
    ),
)
