"""Without a preferred member, each later member overwrites the keeper: the largest id survives.

The classic map-assignment slip (`keepers[key] = server` on every visit):
preference still works, config order does not matter, and yet the wrong
server of every unpreferred group is the one contacted.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-last-member-wins",
    provenance="contract",
    bug="a later unpreferred member replaces an unpreferred keeper, so max(ids) survives instead of min",
    source="upstream-contracts §2.4 (the first id seen keeps the key)",
    kills=("dedup.smallest-id-survives", "dedup.smallest-id-survives-any-ids"),
    patches=(
        Patch(
            file="dedup.py",
            old="        if keeper is None:\n",
            new="        if keeper is None or not (keeper.dedup_preferred or server.dedup_preferred):\n",
        ),
    ),
)
