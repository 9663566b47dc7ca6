"""Keys trimmed before comparing: `" tenant-a "` joins the group of `"tenant-a"`.

Trimming looks harmless ("users add stray spaces"), but keys are opaque:
two tenants whose keys differ only by whitespace are two tenants, and
collapsing them hands one tenant's server to the other.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-key-stripped",
    provenance="contract",
    bug="dedup_group_key compares dedup_key.strip() instead of the raw key",
    source="upstream-contracts §2.3 (keys compared raw); TestDedupKeyIsOpaque",
    kills=("dedup.keys-opaque", "dedup.key-variants-never-collapse"),
    patches=(
        Patch(
            file="dedup.py",
            old="    return server.dedup_key\n",
            new="    return server.dedup_key.strip()\n",
        ),
    ),
)
