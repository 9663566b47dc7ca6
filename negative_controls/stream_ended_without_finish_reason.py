"""A streamed reply is taken as finished when its body ends, with or without a `finish_reason`.

The calls assembled so far are handed on for execution when the iteration over
the chunks ends, whatever the stream's last chunk said: a body that ends
cleanly before the finish chunk and `data: [DONE]` runs calls the model never
finished (some with arguments that parse as JSON, some cut).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-ended-without-finish-reason",
    provenance="public-bug",
    bug="a stream whose body ends without a finish_reason or [DONE] is read as a finished reply",
    source=(
        "upstream-stream-no-terminal-event "
        "(stefandevo/glm-acp-agent PR #113, OpenRouterTeam/ai-sdk-provider #558)"
    ),
    kills=("stream.unterminated-never-run",),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old=(
                "    if reply.finish_reason is None:\n"
                '        raise ModelError("model stream ended before a finish_reason: '
                'the reply is incomplete")\n'
            ),
            new="",
        ),
    ),
    select="test_a_stream_that_ends_before_its_terminal_event_runs_no_tool",
)
