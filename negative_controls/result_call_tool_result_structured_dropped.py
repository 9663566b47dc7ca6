"""Under `structured_content: call_tool_result`, the CallToolResult reaches the model without
`structuredContent`.

The declared encoding of a result that carries structuredContent is the JSON text of the whole
CallToolResult, structuredContent included. A runtime that leaves the structured value out (to save
tokens, say) sends the text blocks only, behind a declaration that promises the whole result
(tp-result-structured).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-call-tool-result-structured-dropped",
    provenance="contract",
    bug="a structuredContent result sent as the JSON text of a CallToolResult without structuredContent",
    source="CONTRACT.md §8.5 (tp-result-structured, structured_content call_tool_result)",
    kills=("result.structured",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "structured_content": "text",\n',
            new='        "structured_content": "call_tool_result",\n',
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    if result.structured_content is not None:\n"
                "        import json\n"
                "\n"
                '        whole = result.model_dump(by_alias=True, mode="json", exclude_none=True)\n'
                '        whole.pop("structuredContent")\n'
                "        return json.dumps(whole)\n"
                "    return join.join(text_blocks(result.content))\n"
            ),
        ),
    ),
)
