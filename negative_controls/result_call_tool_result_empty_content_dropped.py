"""Under `tool_result_encoding: call_tool_result`, a result with no block loses its `content` member.

The declared encoding of zero blocks is a CallToolResult whose `content` is `[]` (MCP requires the
member). A serialiser that maps empty lists to null and drops nulls (`content or None`,
`exclude_none`) sends `{"isError": false}`: the model cannot tell an empty result from a broken one
(tp-result-no-block).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-call-tool-result-empty-content-dropped",
    provenance="contract",
    bug="the CallToolResult sent as JSON text has no content member when the result has no block",
    source="CONTRACT.md §8.6 (tp-result-no-block, call_tool_result: content [])",
    kills=("result.no-content-block",),
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
                "    whole = {key: value for key, value in whole.items() if value != []}\n"
                "    return json.dumps(whole)\n"
            ),
        ),
    ),
)
