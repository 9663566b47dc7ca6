"""A tool-use turn's thinking blocks are sent back after its text and tool_use blocks.

opencode #3077: the echoed turn did not open with its thinking blocks, and
the API answered "Expected `thinking` or `redacted_thinking`, but found
`tool_use`". Here the blocks are all there, moved behind the calls.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-thinking-after-calls",
    provenance="public-bug",
    bug="the echoed tool-use turn carries its thinking blocks after its text and tool_use blocks",
    source="contracts/sources.md#upstream-anth-thinking-replay (anomalyco/opencode#3077)",
    kills=("anthropic.thinking-replayed",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    blocks.extend(tool_use_block(call) for call in message.get("tool_calls", ()))\n'
                "    return blocks\n"
            ),
            new=(
                '    blocks.extend(tool_use_block(call) for call in message.get("tool_calls", ()))\n'
                '    return [b for b in blocks if b["type"] not in THINKING_BLOCKS] + [\n'
                '        b for b in blocks if b["type"] in THINKING_BLOCKS\n'
                "    ]\n"
            ),
        ),
    ),
    select="test_thinking_blocks_go_back_unchanged_before_the_calls",
)
