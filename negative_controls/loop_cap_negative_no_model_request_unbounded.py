"""`negative_max_tool_turns: no_model_request` declared, but -1 never fires: the loop runs unbounded.

The declaration promises that a negative cap, like 0, leaves no model request to make; the cap
check `cap > 0 and ...` never stops a negative cap, and validation lets it through: the seed's bug
behind a declaration of the bounded reading.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-negative-no-model-request-unbounded",
    provenance="seed",
    bug="hello declares negative_max_tool_turns no_model_request; max_tool_turns -1 never stops the loop",
    source="sources.md seed-qq-no-cap, runtime-cap-below-one; CONTRACT.md §11.6 (tp-loop-cap-negative)",
    kills=("loop.cap-negative-not-run", "loop.cap-invalid"),
    # A runaway fails its checks as soon as it passes the cap the test set, and the harness never
    # sets a test's cap below the declared default + 4 (14 for the reference): it may end the run at
    # 16 model requests instead of 64.
    pytest_args=("--toolproof-safety-cap=16",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "default_max_tool_turns": profile.default_max_tool_turns,\n',
            new=(
                '        "default_max_tool_turns": profile.default_max_tool_turns,\n'
                '        "negative_max_tool_turns": "no_model_request",\n'
            ),
        ),
        Patch(file="config.py", old=" or value < 0:", new=":"),
        Patch(
            file="loop.py",
            old="return max_tool_turns != 0 and batches_done >= max_tool_turns",
            new="return max_tool_turns > 0 and batches_done >= max_tool_turns",
        ),
    ),
)
