"""The preferred survivor inherits the headers of the member it replaces (a "merged" config).

Merging group members into one config looks like a convenience; it sends
the displaced member's credentials along with every request the survivor
gets.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-survivor-merges-group-headers",
    provenance="contract",
    bug="when a preferred member replaces the keeper, the keeper's headers are merged into it",
    source="CONTRACT.md tp-dedup-survivor-endpoint (nothing is taken from another member)",
    kills=("dedup.survivor-own-endpoint", "dedup.isolation-no-foreign-headers"),
    patches=(
        Patch(
            file="dedup.py",
            old=(
                "                raise DedupConflict(key, keeper.id, server.id)\n"
                "            keepers[key] = server\n"
            ),
            new=(
                "                raise DedupConflict(key, keeper.id, server.id)\n"
                "            keepers[key] = type(server)(\n"
                "                server.id, server.url, {**keeper.headers, **server.headers}, key, True\n"
                "            )\n"
            ),
        ),
    ),
)
