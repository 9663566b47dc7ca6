"""`max_tool_turns: -1` is accepted and never fires: the loop runs unbounded.

A step-count stop condition `steps == N` is never true for N = -1 (vercel-ai's
`stepCountIs(-1)`), and a validator that lets negative values through leaves
the run with no cap at all: the seed's bug (a cap that is never applied).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-negative-unlimited",
    provenance="seed",
    bug="a negative max_tool_turns passes validation and the cap check never fires for it",
    source="contracts/sources.md seed-qq-no-cap; vercel-ai stepCountIs (ai/dist/index.mjs, 6.0.325)",
    kills=("loop.cap-negative-not-run", "loop.cap-invalid"),
    patches=(
        Patch(file="config.py", old=" or value < 0:", new=":"),
        Patch(
            file="loop.py",
            old="return max_tool_turns != 0 and batches_done >= max_tool_turns",
            new="return max_tool_turns > 0 and batches_done >= max_tool_turns",
        ),
    ),
)
