"""Ids ordered by UTF-16 code units (JavaScript's `<`), not UTF-8 bytes: U+1F600 sorts before U+FF61."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-survivor-utf16-order",
    provenance="contract",
    bug="dedup_visit_order sorts ids by their UTF-16 encoding instead of their UTF-8 bytes",
    source="PROTOCOL.md §8 (byte-wise order is not JavaScript's string order)",
    kills=("dedup.smallest-id-survives",),
    patches=(
        Patch(
            file="dedup.py",
            old='    return sorted(servers, key=lambda server: server.id.encode("utf-8"))\n',
            new='    return sorted(servers, key=lambda server: server.id.encode("utf-16-be"))\n',
        ),
    ),
)
