"""Under `tool_result_encoding: json_blocks`, only the first content block is sent.

The declared encoding is the JSON array of the content blocks, in order; a
runtime that keeps `content[0]` loses every later block's text
(tp-result-multi-block). This control declares json_blocks with the pointer
`/0/text` (the Vercel AI SDK's encoding) and sends the first block only.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-json-blocks-first-only",
    provenance="contract",
    bug="a multi-block result is sent as the JSON array of its first content block only",
    source="CONTRACT.md §8.3 (tp-result-multi-block: no block's text lost, order kept)",
    kills=("result.multi-block",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_result_pointer": "",\n',
            new='        "tool_result_pointer": "/0/text",\n        "tool_result_encoding": "json_blocks",\n',
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    import json\n"
                "\n"
                '    blocks = [{"type": "text", "text": t} for t in text_blocks(result.content)]\n'
                "    return json.dumps(blocks[:1])\n"
            ),
        ),
    ),
)
