"""On the Responses wire an embedded blob's data URL is sent as output text, though output_parts is
declared.

The runtime gives the blob an `input_text` part holding `data:<mimeType>;base64,<blob>` instead of
an `input_file` part: the PDF's bytes reach the model as base64 text (the bug class of
anthropics/claude-code#31208, on this wire).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-responses-blob-as-text",
    provenance="public-bug",
    bug="binary_result_responses output_parts declared, an embedded blob sent as an input_text data URL",
    source="CONTRACT.md §5d.1 (tp-result-binary-block); sources.md upstream-binary-as-text "
    "(https://github.com/anthropics/claude-code/issues/31208)",
    kills=("result.block-blob",),
    profile="reference-responses",
    patches=(
        Patch(
            file="results.py",
            old='            "type": "input_file",\n            "file_data": f"data:',
            new='            "type": "input_text",\n            "text": f"data:',
        ),
    ),
    select="test_result_blocks",
)
