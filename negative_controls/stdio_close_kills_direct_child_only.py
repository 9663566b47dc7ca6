"""Closing a stdio server signals only the process the runtime started, never its tree.

As the MCP TypeScript SDK's `close()` and the Java SDK's `closeGracefully()` did
(contracts/sources.md upstream-stdio-orphans): a server started through a
wrapper (`npx`, `uvx`) that runs it as a child and forwards no signal loses its
wrapper, and the server itself runs on, orphaned.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-close-kills-direct-child-only",
    provenance="public-bug",
    bug="closing a stdio server terminates only the direct child process, not its process group",
    source=(
        "contracts/sources.md upstream-stdio-orphans (modelcontextprotocol/typescript-sdk#2023, java-sdk#966)"
    ),
    kills=("mcp.stdio-processes-gone-after-close",),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                "        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)\n"
            ),
            new=(
                "        import mcp.client.stdio as sdk_stdio\n"
                "\n"
                "        async def terminate_direct_child(process: Any) -> None:\n"
                "            process.terminate()  # the process itself, not its group\n"
                "\n"
                "        sdk_stdio._terminate_process_tree = terminate_direct_child\n"
                "        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)\n"
            ),
        ),
    ),
)
