"""A declared `empty_array_arguments: empty_object` that nothing reads.

The candidate declares that arguments `[]` give the tool `{}`, but the decoder never looks at the
option, so `[]` is wrapped like any other array: the seed's pattern of a configured behaviour that
nothing implements.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-empty-array-declared-not-read",
    provenance="seed",
    bug="empty_array_arguments empty_object declared, but [] is still wrapped as {'value': []}",
    source=(
        "seed homeagent-qq-output-send-loop (a configured behaviour nothing reads);"
        " CONTRACT.md tp-args-non-object"
    ),
    kills=("args.non-object-per-option",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "non_object_arguments": "wrap_value",\n',
            new=(
                '        "non_object_arguments": "wrap_value",\n'
                '        "empty_array_arguments": "empty_object",\n'
            ),
        ),
    ),
)
