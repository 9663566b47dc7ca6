"""A boolean subschema (`"anything": true`) becomes `null` on the wire.

A schema converter that only expects objects maps every other subschema to
nothing: `true` and `false` are valid JSON Schemas (2020-12), `null` is not,
and the whole `parameters` is rejected.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-boolean-subschema-nulled",
    provenance="contract",
    bug="a boolean subschema (true/false) is converted to null",
    source="contracts/CONTRACT.md §6.4 tp-wire-parameters-json-schema (draft 2020-12 metaschema)",
    kills=("wire.parameters-valid-schema",),
    # gemini/upper_case_types has one too (`anything: true`): its repair keeps nothing else unchanged.
    collateral=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="schema.py",
            old="    if not isinstance(schema, dict):\n        return copy.deepcopy(schema)\n",
            new=(
                "    if isinstance(schema, bool):\n"
                "        return None\n"
                "    if not isinstance(schema, dict):\n"
                "        return copy.deepcopy(schema)\n"
            ),
        ),
    ),
    select="test_every_tool_is_offered_once_with_its_description",
)
