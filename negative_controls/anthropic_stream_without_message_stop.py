"""A Messages stream whose body ends before `message_stop` is read as a finished message.

The Messages wire's case of upstream-stream-no-terminal-event: the blocks
read so far are taken for the turn when the iteration ends, whatever the
terminal event, so a body that ends cleanly after a complete call runs it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-stream-without-message-stop",
    provenance="public-bug",
    bug="a Messages stream that ends without message_stop is read from the blocks that arrived",
    source="upstream-stream-no-terminal-event (stefandevo/glm-acp-agent PR #113)",
    kills=("stream.unterminated-never-run",),
    profile="reference-anthropic-stream",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                "    if not stream.stopped:\n"
                '        raise ModelError("model stream ended before message_stop: '
                'the reply is incomplete")\n'
            ),
            new="",
        ),
    ),
    select="test_a_stream_that_ends_before_its_terminal_event_runs_no_tool",
)
