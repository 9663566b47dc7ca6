"""A `type` list keeps its upper-case names (seed ru §8 P1-a, for `["STRING", "NULL"]`).

The converter lowercases `"type": "STRING"` but passes a list of types
through as it is: a nullable Gemini-style property still reaches OpenAI as
`["STRING", "NULL"]`, which it rejects (tp-wire-schema-repair, a SHOULD: the
server's schema was never valid).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-type-list-not-lowercased",
    provenance="seed",
    bug="a `type` given as a list of names is not lowercased (only a single name is)",
    source="contracts/CONTRACT.md §6.13 tp-wire-schema-repair; seed ru §8 P1-a",
    # Only the server's invalid schema has an upper-case type list: the SHOULD's tool, which the MUST
    # invariants skip.
    kills=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="schema.py",
            old="        return [item.lower() if isinstance(item, str) else item for item in value]\n",
            new="        return list(value)\n",
        ),
    ),
    select="test_upper_case_types_of_a_server_are_lowercased",
)
