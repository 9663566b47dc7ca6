"""A result with no content block reaches the model as "[]" under `tool_result_encoding: text`.

openai-agents 0.24 turns the empty list of parts into its `str()` (agents/items.py
`_convert_tool_output`), so the model reads "[]" where the declared encoding
gives zero blocks the empty text (tp-result-no-block, a SHOULD).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-no-block-sent-as-brackets",
    provenance="public-bug",
    bug='a result with no content block is sent as "[]" while tool_result_encoding text is declared',
    source="openai-agents agents/items.py _convert_tool_output (str of an empty list); CONTRACT.md §8.6",
    kills=("result.no-content-block",),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new='    return join.join(text_blocks(result.content)) if result.content else "[]"\n',
        ),
    ),
)
