"""Binary result blocks silently dropped: only the texts reach the model.

The runtime hands the model the text of every text block and nothing for an
image, audio or embedded blob block, no placeholder in its place, as the AI
SDK's MCP client did (vercel/ai#6073) and as the reference did before §5d
(`text_blocks` skipped every block that was not text). An image-only result
reaches the model as "", and a text, image, text result as its two texts.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-binary-dropped",
    provenance="public-bug",
    bug="image, audio and blob blocks are dropped without the declared placeholder",
    source="CONTRACT.md §5d.1, §5d.3 (tp-result-binary-block, tp-result-block-order); sources.md "
    "upstream-binary-blocks-dropped (https://github.com/vercel/ai/issues/6073)",
    kills=("result.block-image", "result.block-audio", "result.block-blob", "result.block-order"),
    patches=(
        Patch(
            file="results.py",
            old='        return BINARY_PLACEHOLDER.replace("{type}", kind).replace("{mimeType}", mime)\n',
            new='        return ""\n',
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    kept = [b for b in result.content if binary_mime(b) is None]\n"
                "    return join.join(text_blocks(kept))\n"
            ),
        ),
    ),
    select="test_result_blocks",
)
