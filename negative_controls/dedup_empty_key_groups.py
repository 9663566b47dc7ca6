"""The empty dedup_key is treated as a key: every server without a key lands in one group.

Config hydration fills an absent key with "" (the zero value of a Go string);
a grouping that does not skip "" then collapses every keyless server into the
first one: the same silent loss of tools the explicit key was meant to avoid.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-empty-key-groups",
    provenance="contract",
    bug='servers with dedup_key "" (or none) are grouped under the key "" and collapse to one',
    source="upstream-contracts §2 (TestEmptyDedupKeyNeverCollapses); CONTRACT.md §16",
    kills=("dedup.empty-key-no-collapse",),
    patches=(
        Patch(
            file="dedup.py",
            old='    return key.strip() != ""\n',
            new='    return key == "" or key.strip() != ""\n',
        ),
    ),
)
