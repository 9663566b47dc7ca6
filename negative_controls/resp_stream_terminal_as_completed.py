"""A streamed `response.incomplete` (or `response.failed`) ends the stream like `response.completed`.

The terminal event's response is kept as the completed one: its items are the
turn, and the call it carries runs.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-stream-terminal-as-completed",
    provenance="public-bug",
    bug="response.failed and response.incomplete events are read as response.completed",
    source="upstream-resp-failed-terminal (openai/openai-agents-python PR #3107)",
    kills=("responses.failed-is-model-error",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="responses.py",
            old='FAILED_STREAM_EVENTS = frozenset({"error", "response.failed", "response.incomplete"})\n',
            new='FAILED_STREAM_EVENTS = frozenset({"error"})\n',
        ),
        Patch(
            file="responses.py",
            old='    elif kind == "response.completed":\n',
            new='    elif kind in ("response.completed", "response.failed", "response.incomplete"):\n',
        ),
    ),
    select="test_a_failed_or_incomplete_response_is_a_model_error",
)
