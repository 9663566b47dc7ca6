"""A result's binary blocks moved after its texts: the order of the blocks is lost.

The runtime collects the text blocks first and appends what stands for the
other blocks at the end (a text part, then the attachments), so text, image,
text reaches the model as text, text, image. One-block results are unchanged.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-order-lost",
    provenance="contract",
    bug="the placeholders of binary blocks are appended after the result's texts",
    source="CONTRACT.md §5d.3 (tp-result-block-order); sources.md mcp-tool-result-blocks",
    kills=("result.block-order",),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    ordered = sorted(result.content, key=lambda b: binary_mime(b) is not None)\n"
                "    return join.join(text_blocks(ordered))\n"
            ),
        ),
    ),
    select="test_result_blocks",
)
