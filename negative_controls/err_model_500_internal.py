"""A model endpoint that keeps failing surfaces as an internal error.

The client's exception is re-raised as it is instead of as the runtime's
model error, so the adapter can only report kind internal where the
contract names model_error.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-model-500-internal",
    provenance="contract",
    bug="after the last retry the openai exception escapes unwrapped (kind internal, not model_error)",
    source="CONTRACT.md §10.4 (tp-err-model-error); §3.4 (internal is for adapter faults only)",
    kills=("err.model-error-kind",),
    patches=(
        Patch(
            file="model.py",
            old='                raise ModelError(f"model request failed: {exc}") from exc\n',
            new="                raise\n",
        ),
    ),
)
