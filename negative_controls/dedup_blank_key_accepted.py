"""A whitespace-only dedup_key is accepted (and then groups nothing) instead of invalid_config."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-blank-key-accepted",
    provenance="contract",
    bug="validate_dedup_key is missing: a blank key passes validation and silently means no key",
    source="upstream-contracts §2 (`dedup_key must have at least 1 character`)",
    kills=("dedup.blank-key-rejected", "err.reference-message-validation"),
    patches=(
        Patch(
            file="config.py",
            old=(
                '    if key != "" and key.strip() == "":\n'
                '        return ["dedup_key must have at least 1 character"]\n'
            ),
            new="",
        ),
    ),
)
