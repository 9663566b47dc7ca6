"""Each group member is replaced by the survivor instead of dropped: the survivor's toolset N times.

The survivor is the only server contacted, but its tools are registered
once per member of the group, so the same tool names are packed twice and
the build fails with duplicate_tool (or, in a shadowing runtime, the model
sees the survivor's tools repeated).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-members-replaced-by-survivor",
    provenance="contract",
    bug="dedup_servers returns the group's survivor once per member instead of once per group",
    source="CONTRACT.md tp-dedup-collapse-to-one (its tools are offered once)",
    kills=(
        "dedup.collapse-tools-offered-once",
        "dedup.balda-scoped-only",
        "dedup.preferred-survives",
        "dedup.smallest-id-survives",
        "dedup.survivor-own-endpoint",
        "dedup.preferred-survives-any-ids",
    ),
    patches=(
        Patch(
            file="dedup.py",
            old="    kept = survivors + list(keepers.values())\n",
            new=(
                "    kept = survivors + [\n"
                "        keepers[dedup_group_key(s)] for s in servers if key_groups(dedup_group_key(s))\n"
                "    ]\n"
            ),
        ),
    ),
)
