"""Every `type` key is lowercased, data included (CONTRACT.md §6.4: values inside `const` are data).

A converter that walks every object of an MCP schema and lowercases any
`type` key it finds also rewrites a `const` (or `default`, `examples`) whose
value happens to be an object with a `type` member: the instance the tool
asks for is no longer valid against what the model is offered.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-const-data-lowercased",
    provenance="contract",
    bug="`type` keys inside a `const` object are lowercased as if the object were a schema",
    source="contracts/CONTRACT.md §6.4 (const is data, not schema), §6.8 tp-wire-schema-meaning",
    kills=("wire.schema-meaning",),
    patches=(
        Patch(
            file="schema.py",
            old="    if key in SCHEMA_KEYWORDS and isinstance(value, dict):\n",
            new='    if (key in SCHEMA_KEYWORDS or key == "const") and isinstance(value, dict):\n',
        ),
    ),
)
