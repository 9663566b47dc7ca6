"""Several validation failures surface as a generic error (kind internal) instead of invalid_config.

An aggregate of validation errors (Go's errors.Join, a Python
ExceptionGroup) that the adapter does not recognise as a validation failure
is reported as an adapter fault.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-several-invalid-internal",
    provenance="contract",
    bug="server_validation_error raises a plain ValueError when more than one rule failed",
    source="CONTRACT.md tp-err-several-invalid",
    kills=(
        "err.several-invalid-config",
        "err.reference-message-validation",
        # preferred with a blank key breaks two rules at once, so it hits the bug too
        "dedup.preferred-requires-key",
    ),
    patches=(
        Patch(
            file="config.py",
            old='    joined = "; ".join(sorted(set(messages)))\n',
            new=(
                "    if len(set(messages)) > 1:\n"
                '        raise ValueError(f"{len(set(messages))} validation errors")\n'
                '    joined = "; ".join(sorted(set(messages)))\n'
            ),
        ),
    ),
)
