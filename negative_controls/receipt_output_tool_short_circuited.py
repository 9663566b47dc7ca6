"""The runtime answers output-channel tools itself, without calling the MCP server.

A runtime that treats `output_send__*` as its own channel (HomeAgent routed
output tools through a separate output bridge) replies `ok` to the model
without the call ever reaching the tool: the receipt looks right, but no
message was sent.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="receipt-output-tool-short-circuited",
    provenance="contract",
    bug="output_send__* calls are answered 'ok' by the runtime and never reach the MCP server",
    source="plausible; seed homeagent-qq-output-send-loop §2.2 (output tools went through their own bridge)",
    kills=("receipt.output-tool-called",),
    # The loop checks count the output_send__qq batches that reach the MCP server.
    collateral=("loop.cap-default", "loop.cap-exact", "loop.cap-property"),
    patches=(
        Patch(
            file="runtime.py",
            old="        async def execute(call: ToolCall) -> ToolContent:\n",
            new=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                '            if "output_send__" in call.name:\n'
                '                return "ok"\n'
            ),
        ),
    ),
)
