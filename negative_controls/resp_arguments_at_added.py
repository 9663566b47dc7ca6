"""Streamed Responses calls are taken from `response.output_item.added`.

That event opens the item: its `arguments` is still `""`. A runtime that takes
the call there (and never from the finished item) calls the tool with nothing.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-arguments-at-added",
    provenance="public-bug",
    bug='streamed function_call items read at response.output_item.added (arguments "")',
    source="upstream-resp-added-arguments (openai/openai-agents-python #1629, PR #1636)",
    kills=("responses.streamed-arguments-from-done",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="responses.py",
            old='    if kind == "response.output_item.done":\n',
            new='    if kind == "response.output_item.added":\n',
        ),
        Patch(
            file="responses.py",
            old="    return output if output else [item for _, item in sorted(stream.done.items())]\n",
            new="    return [item for _, item in sorted(stream.done.items())]\n",
        ),
    ),
    select="test_streamed_arguments_come_from_the_finished_item",
)
