"""`zero_max_tool_turns: no_tool_runs` declared, but a cap of 0 still runs one batch.

"0 means do not run tools automatically" (Semantic Kernel, Google's Gen AI SDK) asks the model once
and returns its calls unrun. This loop checks the cap only after a batch (`max(cap, 1)`), so the
model's first calls run before the run stops.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-zero-no-tool-runs-runs-a-batch",
    provenance="contract",
    bug="hello declares zero_max_tool_turns no_tool_runs; max_tool_turns 0 runs one tool batch",
    source="CONTRACT.md §11.5 (tp-loop-cap-zero-unlimited, no_tool_runs); sources.md runtime-cap-below-one",
    kills=("loop.cap-zero-unlimited",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "default_max_tool_turns": profile.default_max_tool_turns,\n',
            new=(
                '        "default_max_tool_turns": profile.default_max_tool_turns,\n'
                '        "zero_max_tool_turns": "no_tool_runs",\n'
            ),
        ),
        Patch(
            file="loop.py",
            old="return max_tool_turns != 0 and batches_done >= max_tool_turns",
            new="return batches_done >= max(max_tool_turns, 1)",
        ),
    ),
)
