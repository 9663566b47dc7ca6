"""A tool message without `content` when the result is empty (seed ru §8 P1-b).

`omitempty`-style serialisation drops `content: ""`; OpenAI rejects a tool
message without content (docker/docker-agent #63).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-tool-content-omitted-when-empty",
    provenance="seed",
    bug='the tool message of an empty result has no content key (omitempty on "")',
    source="seed ru §8 P1-b; docker/docker-agent #63",
    kills=("wire.tool-message-content", "wire.request-schema", "result.empty"),
    # Its empty results (one empty block, no block) lose their content too.
    collateral=("receipt.no-synthesized-status", "result.no-content-block"),
    patches=(
        Patch(
            file="messages.py",
            old='    return HistoryEntry({"role": "tool", "tool_call_id": call_id, "content": text})\n',
            new=(
                '    message = {"role": "tool", "tool_call_id": call_id}\n'
                "    if text:\n"
                '        message["content"] = text\n'
                "    return HistoryEntry(message)\n"
            ),
        ),
    ),
)
