"""`required` dropped while converting an MCP schema for the wire (upstream keeps it, seed ru §8).

A converter that copies only the keywords it knows (`type`, `properties`,
`items`, `description`) loses `required`: the model may omit arguments the
tool needs, and nothing on the wire says so.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-required-dropped",
    provenance="seed",
    bug="the parameters schema sent to the model has no `required` keywords (at any depth)",
    source="upstream-contracts §3 (`required` is kept); seed ru §8",
    kills=("wire.schema-meaning", "wire.schema-meaning-generated"),
    # gemini/upper_case_types requires `query`: its repaired parameters lose that too.
    collateral=("wire.upper-case-types-repaired",),
    patches=(
        Patch(
            file="schema.py",
            old='        if key == "type":\n            if value == UNSPECIFIED_TYPE:\n',
            new=(
                '        if key == "required":\n'
                "            continue\n"
                '        if key == "type":\n'
                "            if value == UNSPECIFIED_TYPE:\n"
            ),
        ),
    ),
)
