"""Under `tool_result_encoding: json_texts`, the array of texts leaves out the empty blocks.

A declared JSON encoding is judged as exactly as the joined text: every
block's text, in order (tp-result-multi-block). This control declares
json_texts (pydantic-ai's encoding) and loses the empty block.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-json-texts-drops-empty-blocks",
    provenance="contract",
    bug="several text blocks are sent as a JSON array of their texts with the empty ones left out",
    source="CONTRACT.md §8.3 (tp-result-multi-block: no block's text lost, order kept)",
    kills=("result.multi-block",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "multi_block_join": profile.multi_block_join,\n',
            new=(
                '        "multi_block_join": profile.multi_block_join,\n'
                '        "tool_result_encoding": "json_texts",\n'
            ),
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    import json\n"
                "\n"
                "    texts = text_blocks(result.content)\n"
                "    return json.dumps([t for t in texts if t]) if len(texts) > 1 else join.join(texts)\n"
            ),
        ),
    ),
)
