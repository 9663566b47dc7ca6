"""Under `error_result_encoding: call_tool_result`, an isError result reaches the model without its flag.

The declared encoding of an isError result is the JSON text of the whole CallToolResult with
`isError: true`. A runtime that rebuilds the object from its `content` alone sends the error's text
as if the call had succeeded (MCP: an absent isError is false), so the model cannot see the error
(tp-result-is-error).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-call-tool-result-error-flag-lost",
    provenance="contract",
    bug="an isError result sent as the JSON text of a CallToolResult without isError",
    source="CONTRACT.md §8.4 (tp-result-is-error, error_result_encoding call_tool_result); mcp-tool-errors",
    kills=("result.is-error",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_result_pointer": "",\n',
            new='        "tool_result_pointer": "",\n        "error_result_encoding": "call_tool_result",\n',
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    if result.is_error:\n"
                "        import json\n"
                "\n"
                '        blocks = [{"type": "text", "text": text} for text in text_blocks(result.content)]\n'
                '        return json.dumps({"content": blocks})\n'
                "    return join.join(text_blocks(result.content))\n"
            ),
        ),
    ),
)
