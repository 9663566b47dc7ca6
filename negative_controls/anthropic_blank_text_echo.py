"""A textless tool-use turn echoed with a text block of one space beside its `tool_use`.

The runtime pads a turn without text so that no text block is empty, and the
API answers "text content blocks must contain non-whitespace text"
(anthropics/claude-code #23440; anomalyco/opencode #31259 replayed a
whitespace-only assistant message).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-blank-text-echo",
    provenance="public-bug",
    bug="an assistant turn with calls and no text is echoed with a text block of one space",
    source="upstream-anth-blank-text (anthropics/claude-code #23440; anomalyco/opencode #31259)",
    kills=("anthropic.no-blank-text",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    if message.get("content"):\n'
                '        blocks.append({"type": "text", "text": message["content"]})\n'
            ),
            new=(
                '    if message.get("content") or message.get("tool_calls"):\n'
                '        blocks.append({"type": "text", "text": message.get("content") or " "})\n'
            ),
        ),
    ),
    # Named mode: one textless batch of calls, echoed in the next request.
    select="test_tool_text_reaches_the_model_byte_for_byte",
)
