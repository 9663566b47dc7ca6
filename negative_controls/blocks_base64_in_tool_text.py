"""A binary block's base64 pasted into the tool text, though a placeholder is declared.

The runtime serialises the MCP block into the tool message (`{"type": "image",
"data": "<base64>", ...}`) in the block's place: the model gets the base64 as
text, tens of thousands of tokens it cannot see as an image (Claude Code,
anthropics/claude-code#31208; Cherry Studio, CherryHQ/cherry-studio#13184).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-base64-in-tool-text",
    provenance="public-bug",
    bug="a binary block's JSON, base64 included, is the tool text in its place (placeholder declared)",
    source="CONTRACT.md §5d.1 (tp-result-binary-block); sources.md upstream-binary-as-text "
    "(https://github.com/anthropics/claude-code/issues/31208)",
    kills=("result.block-image", "result.block-audio", "result.block-blob", "result.block-order"),
    patches=(
        Patch(
            file="results.py",
            old='        return BINARY_PLACEHOLDER.replace("{type}", kind).replace("{mimeType}", mime)\n',
            new='        return str(getattr(block, "model_dump_json")(by_alias=True, exclude_none=True))\n',
        ),
    ),
    select="test_result_blocks",
)
