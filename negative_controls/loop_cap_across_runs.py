"""The cap counts tool turns across runs instead of per run.

The loop counts the batches in the whole conversation history, which (with
runs_per_build "conversation") still holds the earlier runs: a second run on
the build starts with its cap already used up and gets no tool turn at all.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-across-runs",
    provenance="contract",
    bug="batches are counted from the conversation history, so earlier runs use up the cap",
    source="plausible (CONTRACT.md §16: the cap counts per run)",
    kills=("loop.cap-per-run",),
    patches=(
        Patch(
            file="loop.py",
            old="    batches_done = 0\n",
            new=(
                "    batches_done = sum(\n"
                "        1 for entry in history\n"
                '        if entry.role == "assistant" and entry.message.get("tool_calls")\n'
                "    )\n"
            ),
        ),
    ),
)
