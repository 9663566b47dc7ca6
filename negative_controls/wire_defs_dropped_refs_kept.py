"""`$defs` dropped from the parameters schema while the `$ref`s into it are kept.

Provenance: issue 12: a runtime dropped $defs and kept the references. Its
schema converter copied the keywords it knew and left `$defs` (and
`definitions`) behind, so every `{"$ref": "#/$defs/..."}` on the wire points
at nothing. Each such schema still passes the 2020-12 metaschema (a `$ref`
is only a URI reference to it), so `wire.parameters-valid-schema` passed
until it resolved the local references it sees.

Kills `wire.parameters-valid-schema`. The patch makes the reference's
`lowercase_schema_types` (schema.py, used for every tool's `parameters`)
skip the `$defs` and `definitions` keywords at every depth. `shapes/schema_refs`
(`amount` and `fee` are `$ref: #/$defs/money`) is offered by
`test_every_tool_is_offered_once_with_its_description`. In a full run the
schema-meaning checks fail too: no validator can classify an instance under
a dangling `$ref`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-defs-dropped-refs-kept",
    provenance="contract",
    bug="the parameters schema loses `$defs`/`definitions` but keeps the `$ref`s that point into them",
    source="issue 12: a runtime dropped $defs and kept the references",
    kills=("wire.parameters-valid-schema",),
    collateral=("wire.schema-meaning", "wire.schema-meaning-generated"),
    patches=(
        Patch(
            file="schema.py",
            old='        if key == "type":\n            if value == UNSPECIFIED_TYPE:\n',
            new=(
                '        if key in ("$defs", "definitions"):\n'
                "            continue\n"
                '        if key == "type":\n'
                "            if value == UNSPECIFIED_TYPE:\n"
            ),
        ),
    ),
    select="test_every_tool_is_offered_once_with_its_description",
)
