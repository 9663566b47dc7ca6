"""Without a preferred member, the first server in config order survives, not the smallest id.

Upstream visits server ids in byte-wise sorted order; visiting them in the
order the config lists them makes the survivor depend on how a user happened
to write the file (and on a JSON library's map order).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-survivor-config-order",
    provenance="contract",
    bug="dedup_visit_order keeps the config order instead of sorting ids byte-wise",
    source=(
        "upstream-contracts §2.1 (ids visited in byte-wise order); "
        "TestDedupWithoutPreferenceIsLexicographicallySmallest"
    ),
    kills=("dedup.smallest-id-survives", "dedup.order-independent", "err.reference-message-dedup-conflict"),
    patches=(
        Patch(
            file="dedup.py",
            old='    return sorted(servers, key=lambda server: server.id.encode("utf-8"))\n',
            new="    return list(servers)\n",
        ),
    ),
)
