"""The output tool's `ok` is wrapped in a rich receipt (seed §2.3).

HomeAgent's core returned `已通过 [qq] 通道发送: <result>` ("sent via the
[qq] channel: ...") to the model for every output_send call. The model read
the success receipt as "go on" and called output_send__qq again and again.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="receipt-rich-receipt",
    provenance="seed",
    bug="output_send__<channel> results reach the model as '已通过 [<channel>] 通道发送: <result>'",
    source="seed homeagent-qq-output-send-loop §2.3 (internal/agent/core/output.go:81)",
    kills=("receipt.ok-verbatim",),
    patches=(
        Patch(
            file="runtime.py",
            old="        async def execute(call: ToolCall) -> ToolContent:\n",
            new=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            text = await execute_plain(call)\n"
                '            channel = call.name.partition("output_send__")[2]\n'
                '            return f"已通过 [{channel}] 通道发送: {text}" if channel else text\n'
                "\n"
                "        async def execute_plain(call: ToolCall) -> ToolContent:\n"
            ),
        ),
    ),
)
