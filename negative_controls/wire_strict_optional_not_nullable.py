"""A strict transformation that requires every property but leaves the optional ones non-nullable.

OpenAI's strict mode requires every property, and an optional one is kept
optional by letting it be null. A converter that only copies every key into
`required` turns each optional MCP argument into one the model must invent a
value for (an enum member, a 0): the tool gets arguments its user never chose.
openai-agents' `ensure_strict_json_schema` (its MCP `convert_schemas_to_strict`)
works so; https://github.com/coder/xum/pull/4206 and
https://github.com/Gitlawb/openclaude/pull/1266 fixed the same in two runtimes.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-strict-optional-not-nullable",
    provenance="public-bug",
    bug="declared parameters_strict true, but the optional properties made required are not nullable",
    source=(
        "upstream: https://github.com/coder/xum/pull/4206, https://github.com/Gitlawb/openclaude/pull/1266;"
        " CONTRACT.md §15 parameters_strict"
    ),
    kills=("wire.schema-meaning", "wire.schema-meaning-generated"),
    # The gemini tool's repaired parameters are compared whole, and they are closed too.
    collateral=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "structured_content": "text",\n',
            new='        "structured_content": "text",\n        "parameters_strict": True,\n',
        ),
        Patch(
            file="packing.py",
            old="def pack_tool(tool: McpTool, packed_name: str) -> PackedTool:\n",
            new=(
                "def strict_schema(schema: Any) -> Any:\n"
                "    if isinstance(schema, list):\n"
                "        return [strict_schema(s) for s in schema]\n"
                "    if not isinstance(schema, dict):\n"
                "        return schema\n"
                "    out = {k: strict_schema(v) if k in ('items', 'anyOf', 'oneOf', 'allOf') else v\n"
                "           for k, v in schema.items()}\n"
                "    for key in ('properties', '$defs'):\n"
                "        if isinstance(schema.get(key), dict):\n"
                "            out[key] = {k: strict_schema(v) for k, v in schema[key].items()}\n"
                "    if isinstance(schema.get('properties'), dict):\n"
                "        out['required'] = list(schema['properties'])  # no null for the optional ones\n"
                "    if schema.get('type') == 'object':\n"
                "        out['additionalProperties'] = False\n"
                "    return out\n"
                "\n"
                "\n"
                "def pack_tool(tool: McpTool, packed_name: str) -> PackedTool:\n"
            ),
        ),
        Patch(
            file="packing.py",
            old="        parameters=lowercase_schema_types(tool.input_schema),\n",
            new="        parameters=strict_schema(lowercase_schema_types(tool.input_schema)),\n",
        ),
    ),
)
