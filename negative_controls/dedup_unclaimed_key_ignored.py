"""A runtime that does not claim toolsets.dedup_key accepts dedup_key instead of rejecting it."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-unclaimed-key-ignored",
    provenance="contract",
    bug="toolsets.dedup_key is not claimed, yet a dedup_key in CONFIG is accepted without error",
    source="CONTRACT.md tp-dedup-unsupported-rejected (accepting the key and ignoring it)",
    kills=("dedup.unsupported-key-rejected",),
    patches=(Patch(file="adapter.py", old='    "toolsets.dedup_key",\n', new=""),),
)
