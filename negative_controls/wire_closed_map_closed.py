"""A closing runtime that also closes a map: `additionalProperties` schema replaced by `false`.

Declared `parameters_strict: closed` closes only the objects that leave
`additionalProperties` unset. A converter that sets it to `false` on every
object also overwrites a map's value schema (`{"type": "object",
"additionalProperties": {"type": "integer"}}`), so the only map the model may
send is the empty one: https://github.com/openai/openai-agents-python/pull/4310
fixed that narrowing of free-form MCP objects.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-closed-map-closed",
    provenance="public-bug",
    bug="declared parameters_strict closed, but a map's additionalProperties schema is replaced by false",
    source=(
        "upstream: https://github.com/openai/openai-agents-python/pull/4310;"
        " CONTRACT.md §15 parameters_strict"
    ),
    # The generated check draws too few maps beside an otherwise valid transfer (25 examples in CI)
    # to find it reliably: the literal corpus ("every optional property") does.
    kills=("wire.schema-meaning",),
    # The gemini tool's repaired parameters are compared whole, and they are closed too.
    collateral=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "structured_content": "text",\n',
            new='        "structured_content": "text",\n        "parameters_strict": "closed",\n',
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
                "    if schema.get('type') == 'object':\n"
                "        out['additionalProperties'] = False  # a map's value schema too\n"
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
