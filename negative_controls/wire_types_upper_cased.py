"""Lower-case in, upper-case out: the converter upper-cases every type name (seed ru §8 P1-a).

The seed's bug: tool schemas were serialised through a schema type whose
constants are upper case (as Gemini's are), so a valid MCP schema with
`"type": "object"`, `"string"`, ... reached OpenAI as `"OBJECT"`, `"STRING"`:
the runtime made a valid schema invalid (tp-wire-parameters-json-schema, a
MUST). A single type name is upper-cased; a type list is left as it is.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-types-upper-cased",
    provenance="seed",
    bug="every single `type` name of parameters is upper-cased (lower-case in, upper-case out)",
    source="seed ru §8 P1-a (seed-openai-schema-case); adk-python #1389",
    kills=("wire.parameters-lowercase-types",),
    # "OBJECT" is no type name of the 2020-12 metaschema either, so no instance can be classified
    # against the parameters (jsonschema raises on an unknown type); the Gemini-style tool's
    # upper-case names stay upper-case.
    collateral=(
        "wire.parameters-valid-schema",
        "wire.schema-meaning",
        "wire.schema-meaning-generated",
        "wire.upper-case-types-repaired",
    ),
    patches=(
        Patch(
            file="schema.py",
            old="    if isinstance(value, str):\n        return value.lower()\n",
            new="    if isinstance(value, str):\n        return value.upper()\n",
        ),
    ),
    # Named mode: alpha's and shapes' valid schemas are offered.
    select="test_every_tool_is_offered_once_with_its_description",
)
