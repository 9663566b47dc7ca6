"""dedup_preferred without a key is accepted (the presence test runs after the key was defaulted to "").

Preferring a server only means something inside a group; upstream rejects
it with `dedup_preferred requires dedup_key`. Accepting it silently leaves a
config that looks scoped and is not.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-preferred-without-key-accepted",
    provenance="contract",
    bug="validate_dedup_preferred checks `key is None`, which never holds once the key defaults to empty",
    source="upstream-contracts §2 (`dedup_preferred requires dedup_key`)",
    kills=("dedup.preferred-requires-key", "err.reference-message-validation"),
    patches=(
        Patch(
            file="config.py",
            old='    if preferred and key.strip() == "":\n',
            new="    if preferred and key is None:\n",
        ),
    ),
)
