"""Schema types lowercased at the top level only (adk-python #1389; seed ru §8 P1-a).

A Gemini-style MCP schema (`STRING`, `ARRAY`, ... below a lower-case top
level) is "fixed" by lowercasing the top-level `type` alone: a shallow check
of `parameters.type` passes, OpenAI rejects the nested `"type": "STRING"`.
Since the server's schema is itself invalid, this fails the SHOULD
tp-wire-schema-repair, not the MUST invariants.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-upper-case-nested-types",
    provenance="seed",
    bug="only the top-level `type` of parameters is lowercased; nested ones keep STRING, ARRAY, ...",
    source="seed ru §8 P1-a; adk-python #1389 ('BOOLEAN' is not valid under any of the given schemas)",
    # The server's schema is invalid, so the MUSTs of tp-wire-parameters-json-schema skip that tool
    # (CONTRACT.md §6.13); the repair is the SHOULD's.
    kills=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="schema.py",
            old="            result[key] = _subschema(key, value)\n",
            new="            result[key] = copy.deepcopy(value)\n",
        ),
    ),
    # Named mode: the one test offering gemini/upper_case_types.
    select="test_upper_case_types_of_a_server_are_lowercased",
)
