"""Schema types lowercased at the top level only (adk-python #1389; seed ru §8 P1-a).

A Gemini-style MCP schema (`STRING`, `ARRAY`, ... below a lower-case top
level) is "fixed" by lowercasing the top-level `type` alone: a shallow check
of `parameters.type` passes, OpenAI rejects the nested `"type": "STRING"`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-upper-case-nested-types",
    bug="only the top-level `type` of parameters is lowercased; nested ones keep STRING, ARRAY, ...",
    source="seed ru §8 P1-a; adk-python #1389 ('BOOLEAN' is not valid under any of the given schemas)",
    kills=("wire.parameters-lowercase-types", "wire.parameters-valid-schema"),
    patches=(
        Patch(
            file="schema.py",
            old="            result[key] = _subschema(key, value)\n",
            new="            result[key] = copy.deepcopy(value)\n",
        ),
    ),
    # Named mode: shapes/gemini_types is offered.
    select="test_parameters_keep_the_meaning_of_input_schema",
)
