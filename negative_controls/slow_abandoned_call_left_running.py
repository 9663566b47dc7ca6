"""The runtime stops waiting for a slow call but never cancels it.

It races the call against its own timer and, when the timer wins, reports
the timeout and moves on, leaving the request running on its session: no
`notifications/cancelled`, and (on streamable HTTP at 2026-07-28) the
request's response stream left open, until the server answers on its own.
The MCP Python SDK's `send_request` sent no cancellation on a timeout or a
caller's cancellation (python-sdk#2507, fixed by #2514); the Ruby MCP client
sent none at all (ruby-mcp-client#178). One failing check: the SHOULD
mcp.slow-call-cancelled (the call is abandoned in time, and the next call is
answered on a session of its own).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="slow-abandoned-call-left-running",
    provenance="public-bug",
    bug="a timed-out tools/call is abandoned without notifications/cancelled, its request left running",
    source="CONTRACT.md §5e.2 (tp-mcp-slow-cancelled); sources.md upstream-timeout-not-cancelled "
    "(https://github.com/modelcontextprotocol/python-sdk/pull/2514)",
    kills=("mcp.slow-call-cancelled",),
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
                "    import asyncio\n"
                "\n"
                "    call = asyncio.ensure_future(\n"
                "        on_server(server, lambda client: client.call_tool(name, arguments))\n"
                "    )\n"
                "    wait = server.tool_timeout_s or MCP_TIMEOUT_SECONDS\n"
                "    done, _ = await asyncio.wait({call}, timeout=wait)\n"
                "    if not done:\n"
                "        # The call runs on, uncancelled.\n"
                '        raise TimeoutError(f"tools/call {name} timed out")\n'
                "    return call.result()\n"
            ),
        ),
    ),
)
