"""Under a declared `error_result_pointer`, the isError text inside the document is trimmed.

A runtime may mark an isError result as `{"error": <text>}` (pydantic-ai does,
for providers without an error channel) and declare `/error`; the text at that
pointer is still the tool's text byte for byte (tp-result-is-error).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-error-pointer-text-trimmed",
    provenance="contract",
    bug='an isError result is sent as {"error": <text stripped>} with error_result_pointer /error declared',
    source="CONTRACT.md §8.4 (tp-result-is-error: its text as in tp-result-verbatim)",
    kills=("result.is-error",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_result_pointer": "",\n',
            new='        "tool_result_pointer": "",\n        "error_result_pointer": "/error",\n',
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    import json\n"
                "\n"
                "    text = join.join(text_blocks(result.content))\n"
                '    return json.dumps({"error": text.strip()}) if result.is_error else text\n'
            ),
        ),
    ),
)
