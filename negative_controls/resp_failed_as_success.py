"""A Responses answer whose `status` is `failed` or `incomplete` is taken as a completed turn.

Its output items are read as any reply's: the call it carries runs, and the
run goes on as if the model had answered.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-failed-as-success",
    provenance="public-bug",
    bug="a response with status failed or incomplete is read as a completed turn",
    source="upstream-resp-failed-terminal (openai/openai-agents-python PR #4516)",
    kills=("responses.failed-is-model-error",),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='    if status != "completed":\n',
            new='    if status not in ("completed", "failed", "incomplete"):\n',
        ),
    ),
    select="test_a_failed_or_incomplete_response_is_a_model_error",
)
