"""Under `structured_content: call_tool_result`, the CallToolResult reaches the model with
`structuredContent` null.

A content block's unset optional members and a result's unset `structuredContent` read the same
absent or null (the official Python SDK's `model_dump` writes each unset one as null). A runtime that
copies the result into a model of its own, losing the structured value, sends the SDK-style dump
with `structuredContent: null`: null reads as unset, so the structured value the server sent is
still missing (tp-result-structured).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-call-tool-result-structured-null",
    provenance="contract",
    bug="a structuredContent result sent as the SDK-style JSON of its CallToolResult, structuredContent null",
    source=(
        "CONTRACT.md §8.5 (tp-result-structured, structured_content call_tool_result); "
        "sources.md mcp-tools-call-result"
    ),
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
                '        whole = result.model_dump(by_alias=True, mode="json")\n'
                '        whole["structuredContent"] = None\n'
                "        return json.dumps(whole)\n"
                "    return join.join(text_blocks(result.content))\n"
            ),
        ),
    ),
)
