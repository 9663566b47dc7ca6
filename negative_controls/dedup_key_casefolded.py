"""Keys compared case-insensitively: `"Tenant-A"` joins the group of `"tenant-a"`."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-key-casefolded",
    provenance="contract",
    bug="dedup_group_key compares dedup_key.casefold() instead of the raw key",
    source="CONTRACT.md tp-dedup-key-opaque (no case folding); upstream TestDedupKeyIsOpaque",
    kills=("dedup.keys-opaque", "dedup.key-variants-never-collapse"),
    patches=(
        Patch(
            file="dedup.py",
            old="    return server.dedup_key\n",
            new="    return server.dedup_key.casefold()\n",
        ),
    ),
)
