"""Duplicate tool names are all offered under the one name: two functions called `lookup`.

No duplicate check at all: the request declares two functions with one
name (OpenAI rejects it, or picks one), and calls go to the first.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-shadow-one-name",
    provenance="contract",
    bug="claim_name never raises: tools sharing a name are all packed under it",
    source="upstream-contracts §1 (the first owner keeps the name, a second is an error)",
    kills=(
        "wire.unique-function-names",
        "ns.duplicate-error-outcome",
        "dedup.empty-key-no-collapse",
        "dedup.no-key-identical-endpoints-stay-two",
        "err.reference-message-duplicate-tool",
    ),
    patches=(
        Patch(
            file="packing.py",
            old="    if name in claimed:\n        raise DuplicateTool(name)\n",
            new="",
        ),
    ),
)
