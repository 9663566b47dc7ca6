"""Two preferred members of one group: the first one silently wins instead of dedup_conflict.

Upstream fails the build with `mcp dedup key "<k>" has multiple preferred
configs` before any transport exists; a runtime that keeps the first
preferred member hides a misconfiguration and may bind the wrong tenant.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-two-preferred-first-wins",
    provenance="contract",
    bug="a second preferred member of a group is ignored instead of raising DedupConflict",
    source="upstream-contracts §2.5 (multiple preferred configs)",
    kills=("dedup.conflict-at-build", "err.reference-message-dedup-conflict"),
    patches=(
        Patch(
            file="dedup.py",
            old=(
                "            if keeper.dedup_preferred:\n"
                "                raise DedupConflict(key, keeper.id, server.id)\n"
                "            keepers[key] = server\n"
            ),
            new="            if not keeper.dedup_preferred:\n                keepers[key] = server\n",
        ),
    ),
)
