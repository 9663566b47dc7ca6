"""Validation messages joined in the order found, not sorted (the reference pins upstream's sort)."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-messages-unsorted",
    provenance="contract",
    bug="server_validation_error joins the messages in encounter order instead of sorted",
    source="upstream-contracts §2 (messages sorted, joined with '; ', wrapped)",
    kills=("err.reference-message-validation",),
    patches=(
        Patch(
            file="config.py",
            old='    joined = "; ".join(sorted(set(messages)))\n',
            new='    joined = "; ".join(dict.fromkeys(messages))\n',
        ),
    ),
)
