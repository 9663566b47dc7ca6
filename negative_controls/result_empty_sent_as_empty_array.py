"""The tool message of an empty result carries `content: []` (an empty array of parts).

OpenAI accepts a string or an array of text parts, but rejects an empty
array; openai-agents guards against emitting one for an empty result
(agents/items.py `_convert_tool_output_as_structured`). The other results
stay strings, so only the empty ones break (tp-wire-tool-content).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-empty-sent-as-empty-array",
    provenance="public-bug",
    bug="the tool message of an empty result carries content [] (an empty array of text parts)",
    source="CONTRACT.md §6.10 (OpenAI rejects an empty content array); openai-agents agents/items.py",
    kills=("wire.tool-message-content", "wire.request-schema", "result.empty", "result.no-content-block"),
    collateral=("receipt.no-synthesized-status",),  # its empty result is an empty array too
    patches=(
        Patch(
            file="messages.py",
            old='    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": text})\n',
            new='    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": text or []})\n',
        ),
    ),
)
