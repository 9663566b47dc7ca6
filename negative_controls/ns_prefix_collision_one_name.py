"""`<server>_<tool>` names that collide are all offered under the one name.

Issue 22 §6: a runtime that names tools `<server>_<tool>` lets server `a_b`
with tool `c` and server `a` with tool `b_c` shadow each other silently:
both are offered as `a_b_c`, and every call of that name reaches the first.

The patch makes the reference's prefix separator `_`, drops its collision
rule (a prefixed name already taken is aliased) and lets a name be claimed
twice. Kills the prefix checks of tp-ns-duplicate-tools on the collision
scenario (the `_` case), and the whole-suite `wire.unique-function-names`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-prefix-collision-one-name",
    provenance="contract",
    bug="prefix names are `<server>_<tool>`, and two pairs that spell one name are both packed under it",
    source="issue 22 §6 (prefixed names that collide: `a_b` + `c` and `a` + `b_c`)",
    kills=(
        "ns.duplicate-prefix-offered",
        "ns.duplicate-prefix-call-own-server",
        "wire.unique-function-names",
    ),
    profile="reference-prefix",
    patches=(
        Patch(file="packing.py", old='NAMESPACE_SEPARATOR = "__"\n', new='NAMESPACE_SEPARATOR = "_"\n'),
        Patch(
            file="packing.py",
            old='        if namespacing == "prefix" and packed_name in names:\n',
            new="        if False:\n",
        ),
        Patch(
            file="packing.py",
            old="    if name in claimed:\n        raise DuplicateTool(name)\n",
            new="",
        ),
    ),
    select="test_prefixed_names_that_collide_stay_apart",
)
