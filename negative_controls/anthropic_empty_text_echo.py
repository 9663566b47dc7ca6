"""A textless tool-use turn echoed with an empty text block beside its `tool_use`.

The assistant turn is rebuilt as its text (`""` when it had none) plus its
calls (vercel/ai #5576, run-llama/LlamaIndexTS #1665: "text content blocks
must be non-empty").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-empty-text-echo",
    provenance="public-bug",
    bug="an assistant turn with calls and no text is echoed with a text block whose text is empty",
    source="upstream-anth-empty-text (vercel/ai #5576; run-llama/LlamaIndexTS #1665)",
    kills=("anthropic.no-empty-text",),
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
                '        blocks.append({"type": "text", "text": message.get("content") or ""})\n'
            ),
        ),
    ),
    # Named mode: one textless batch of calls, echoed in the next request.
    select="test_tool_text_reaches_the_model_byte_for_byte",
)
