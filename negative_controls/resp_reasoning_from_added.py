"""A streamed reasoning item is taken from `response.output_item.added`.

That event opens the item: its summary is still empty and its encrypted content
partial. Items taken from an event before the finished one were a public bug
(arguments read at `added`); a reasoning item left without its whole encrypted
content broke the next request.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reasoning-from-added",
    provenance="public-bug",
    bug="streamed reasoning items read at response.output_item.added (partial, no summary)",
    source="upstream-resp-store-false-reasoning (vercel/ai PR #13234); upstream-resp-added-arguments",
    kills=("responses.reasoning-from-done",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="responses.py",
            old=(
                '    if kind == "response.output_item.done":\n'
                "        stream.done[event.output_index] = event.item\n"
            ),
            new=(
                '    if kind == "response.output_item.added" and event.item.type == "reasoning":\n'
                "        stream.done[event.output_index] = event.item\n"
                '    elif kind == "response.output_item.done" and event.item.type != "reasoning":\n'
                "        stream.done[event.output_index] = event.item\n"
            ),
        ),
        Patch(
            file="responses.py",
            old="    return output if output else [item for _, item in sorted(stream.done.items())]\n",
            new="    return [item for _, item in sorted(stream.done.items())]\n",
        ),
    ),
    select="test_streamed_reasoning_is_the_finished_item",
)
