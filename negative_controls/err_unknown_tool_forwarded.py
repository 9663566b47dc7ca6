"""A call to an unknown tool name is forwarded to the first server anyway.

Instead of answering "unknown tool", the runtime sends the name the model
made up to its first (default) MCP server and relays whatever comes back.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-unknown-tool-forwarded",
    provenance="contract",
    bug="a call to a name that was not offered becomes a tools/call on the first server",
    source="CONTRACT.md §10.1 (tp-err-unknown-tool)",
    kills=("err.unknown-tool-per-option",),
    patches=(
        Patch(
            file="calls.py",
            old="    if tool is None:\n        return unknown_tool_text(call.name)\n",
            new=(
                "    if tool is None:\n"
                "        first = next(iter(servers.values()))\n"
                "        try:\n"
                "            forwarded = await call_server_tool("
                "first, call.name, decode_arguments(call.arguments))\n"
                "        except Exception as exc:\n"
                "            return tool_failure_text(exc)\n"
                "        return tool_result_text(forwarded, join)\n"
            ),
        ),
    ),
)
