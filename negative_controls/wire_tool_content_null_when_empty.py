"""`content: null` in the tool message of an empty result (llama.cpp #13471, autogen #4506).

"Expected a string, got null": an empty result turned into a missing value.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-tool-content-null-when-empty",
    provenance="public-bug",
    bug="the tool message of an empty result carries content null",
    source="docker/docker-agent #63; llama.cpp #13471; autogen #4506",
    kills=("wire.tool-message-content", "wire.request-schema", "result.empty"),
    # Its empty results (one empty block, no block) lose their content too.
    collateral=("receipt.no-synthesized-status", "result.no-content-block"),
    patches=(
        Patch(
            file="messages.py",
            old='    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": text})\n',
            new=(
                "    content = text or None\n"
                '    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": content})\n'
            ),
        ),
    ),
)
