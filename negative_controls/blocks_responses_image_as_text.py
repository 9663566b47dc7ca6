"""On the Responses wire an image's data URL is sent as output text, though output_parts is declared.

The runtime builds the `function_call_output` array but gives an image an
`input_text` part holding its data URL instead of an `input_image` part: the
base64 reaches the model as text (anthropics/claude-code#31208 on another
wire), and the model never sees the image.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-responses-image-as-text",
    provenance="public-bug",
    bug="binary_result_responses output_parts declared, the image sent as an input_text data URL",
    source="CONTRACT.md §5d.1, §5d.3 (tp-result-binary-block, tp-result-block-order); sources.md "
    "upstream-binary-as-text (https://github.com/anthropics/claude-code/issues/31208)",
    kills=("result.block-image", "result.block-order"),
    profile="reference-responses",
    patches=(
        Patch(
            file="results.py",
            old='        return {"type": "input_image", "image_url": f"data:',
            new='        return {"type": "input_text", "text": f"data:',
        ),
    ),
    select="test_result_blocks",
)
