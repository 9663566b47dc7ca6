"""A `type` list keeps its upper-case names (seed ru §8 P1-a, for `["STRING", "NULL"]`).

The converter lowercases `"type": "STRING"` but passes a list of types
through as it is: a nullable Gemini-style property still reaches OpenAI as
`["STRING", "NULL"]`, which it rejects.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-type-list-not-lowercased",
    bug="a `type` given as a list of names is not lowercased (only a single name is)",
    source="contracts/CONTRACT.md §6.4 tp-wire-parameters-json-schema; seed ru §8 P1-a",
    kills=("wire.parameters-lowercase-types",),
    # "STRING" is not a type name of the 2020-12 metaschema either.
    collateral=("wire.parameters-valid-schema",),
    patches=(
        Patch(
            file="schema.py",
            old="        return [item.lower() if isinstance(item, str) else item for item in value]\n",
            new="        return list(value)\n",
        ),
    ),
    select="test_every_tool_is_offered_once_with_its_description",
)
