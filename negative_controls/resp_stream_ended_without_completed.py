"""A streamed response whose body ends before `response.completed` is read from its finished items.

Without a terminal event the turn is taken from the `response.output_item.done`
events that did arrive: a body that ends cleanly after a complete first call
runs that call, though the model never finished the response.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-stream-ended-without-completed",
    provenance="public-bug",
    bug="a Responses stream that ends without response.completed is read from its output_item.done events",
    source="upstream-stream-no-terminal-event (ltmoerdani/opencode-copilot-chat PR #188)",
    kills=("stream.unterminated-never-run",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="responses.py",
            old=(
                "    if stream.completed is None:\n"
                '        raise ModelError("model stream ended before response.completed: '
                'the reply is incomplete")\n'
                "    output = list(stream.completed.output or ())\n"
            ),
            new=(
                "    if stream.completed is None:\n"
                "        return [item for _, item in sorted(stream.done.items())]\n"
                "    output = list(stream.completed.output or ())\n"
            ),
        ),
    ),
    select="test_a_stream_that_ends_before_its_terminal_event_runs_no_tool",
)
