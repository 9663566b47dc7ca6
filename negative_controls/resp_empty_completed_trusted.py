"""A streamed `response.completed` with `output: []` is trusted, though the items came in
`response.output_item.done` events.

The runtime sees an empty turn: the call never runs, against its declared
`items_from_done_events: yes`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-empty-completed-trusted",
    provenance="public-bug",
    bug="the turn is response.completed's output only, even when it is [] and the items were streamed",
    source="upstream-resp-empty-completed (openai/openai-agents-python PR #3000)",
    kills=("responses.items-from-done-events",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="responses.py",
            old="    return output if output else [item for _, item in sorted(stream.done.items())]\n",
            new="    return output\n",
        ),
    ),
    select="test_completed_with_an_empty_output_is_read_as_declared",
)
