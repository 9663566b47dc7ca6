"""The text of an isError result, and of a result with structuredContent, trimmed (`.trim()`).

A runtime that builds the error message and the structured result's text
through `text.trim()` sends the tool's text without its surrounding
whitespace: the model no longer receives the tool's text byte for byte. One
line, two checks (issue 22 §2: one finding, charged to result.is-error).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-error-structured-trimmed",
    provenance="contract",
    bug="the text of isError and structuredContent results reaches the model without surrounding whitespace",
    source="CONTRACT.md §8.4 (tp-result-is-error), §8.5 (tp-result-structured); their text as in §8.1",
    kills=("result.is-error", "result.structured"),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    text = join.join(text_blocks(result.content))\n"
                "    trim = result.is_error or result.structured_content is not None\n"
                "    return text.strip() if trim else text\n"
            ),
        ),
    ),
)
