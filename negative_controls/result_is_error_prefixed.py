"""An isError result reaches the model with a runtime-made prefix ("tool error: ...").

The run goes on, but the model no longer receives the tool's own text byte
for byte (tp-result-is-error: as in tp-result-verbatim).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-is-error-prefixed",
    provenance="contract",
    bug="the text of an isError result is sent as 'tool error: <text>'",
    source="CONTRACT.md §8.4 (tp-result-is-error)",
    kills=("result.is-error",),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    text = join.join(text_blocks(result.content))\n"
                '    return f"tool error: {text}" if result.is_error else text\n'
            ),
        ),
    ),
)
