"""Under `tool_result_encoding: call_tool_result`, the blocks are keyed by type: one text block is left.

The declared encoding is the JSON text of the whole CallToolResult, every content block present, in
order, unchanged. A runtime that gathers blocks into a mapping by their `type` keeps the last text
block only: a one-block result reads right, and every earlier block of a multi-block result is lost
(tp-result-multi-block).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-call-tool-result-blocks-keyed-by-type",
    provenance="contract",
    bug="the CallToolResult sent as JSON text keeps one content block per type (the last text block)",
    source="CONTRACT.md §8.3 (tp-result-multi-block, call_tool_result: every block, in order)",
    kills=("result.multi-block",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_result_pointer": "",\n',
            new=(
                '        "tool_result_pointer": "/content/0/text",\n'
                '        "tool_result_encoding": "call_tool_result",\n'
            ),
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    import json\n"
                "\n"
                '    whole = result.model_dump(by_alias=True, mode="json", exclude_none=True)\n'
                '    whole["content"] = list({block["type"]: block for block in whole["content"]}.values())\n'
                "    return json.dumps(whole)\n"
            ),
        ),
    ),
)
