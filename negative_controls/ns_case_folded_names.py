"""Tool names compared case-insensitively: alpha `lookup` and cased `Lookup` become a duplicate."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-case-folded-names",
    provenance="contract",
    bug="claim_name compares case-folded names, so `Lookup` collides with `lookup`",
    source="CONTRACT.md tp-ns-names-exact",
    kills=("ns.case-distinct-offered",),
    patches=(
        Patch(
            file="packing.py",
            old="    if name in claimed:\n",
            new="    if name.casefold() in {c.casefold() for c in claimed}:\n",
        ),
    ),
)
