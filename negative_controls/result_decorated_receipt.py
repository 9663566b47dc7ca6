"""Every tool result wrapped in a delivery receipt: `已通过 [x] 通道发送: <text>` (seed zh).

"Sent via the [x] channel: ..." around the tool's text: the model reads the
receipt, not the result, and (in HomeAgent) sends again and again.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-decorated-receipt",
    provenance="seed",
    bug="tool_result_text prefixes every result with '已通过 [x] 通道发送: '",
    source="seed homeagent-qq-output-send-loop (the 已通过 receipt); upstream-contracts §4",
    kills=(
        "result.verbatim",
        "result.empty",
        "result.no-content-block",
        "result.multi-block",
        "result.is-error",
    ),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new='    return "已通过 [x] 通道发送: " + join.join(text_blocks(result.content))\n',
        ),
    ),
)
