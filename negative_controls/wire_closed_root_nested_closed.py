"""A runtime declaring `parameters_strict: closed_root` that closes nested objects as well.

Closing only the root (what @ai-sdk/mcp does) leaves every nested object as
the server wrote it. A converter that recurses closes the branches of a
`oneOf` too, so an argument the tool accepts (a target whose second branch
matches, with a key of the first) is one the model is told not to send: the
declared variant no longer describes what is offered.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-closed-root-nested-closed",
    provenance="contract",
    bug="declared parameters_strict closed_root, but every nested object is closed too",
    source="plausible; CONTRACT.md §15 parameters_strict (closed_root: the root only)",
    kills=("wire.schema-meaning",),
    # The gemini tool's repaired parameters are compared whole, and they are closed too.
    collateral=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "structured_content": "text",\n',
            new='        "structured_content": "text",\n        "parameters_strict": "closed_root",\n',
        ),
        Patch(
            file="packing.py",
            old="def pack_tool(tool: McpTool, packed_name: str) -> PackedTool:\n",
            new=(
                "def closed_schema(schema: Any) -> Any:\n"
                "    if isinstance(schema, list):\n"
                "        return [closed_schema(s) for s in schema]\n"
                "    if not isinstance(schema, dict):\n"
                "        return schema\n"
                "    out = {k: closed_schema(v) if k in ('items', 'anyOf', 'oneOf', 'allOf') else v\n"
                "           for k, v in schema.items()}\n"
                "    for key in ('properties', '$defs'):\n"
                "        if isinstance(schema.get(key), dict):\n"
                "            out[key] = {k: closed_schema(v) for k, v in schema[key].items()}\n"
                "    if schema.get('type') == 'object' and 'additionalProperties' not in schema:\n"
                "        out['additionalProperties'] = False  # at every depth, not only the root\n"
                "    return out\n"
                "\n"
                "\n"
                "def pack_tool(tool: McpTool, packed_name: str) -> PackedTool:\n"
            ),
        ),
        Patch(
            file="packing.py",
            old="        parameters=lowercase_schema_types(tool.input_schema),\n",
            new="        parameters=closed_schema(lowercase_schema_types(tool.input_schema)),\n",
        ),
    ),
)
