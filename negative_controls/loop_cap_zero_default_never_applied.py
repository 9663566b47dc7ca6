"""`zero_max_tool_turns: default_cap` declared, but 0 still runs without a cap.

A runtime that reads 0 as "not set" (a falsy-zero check, `cap or DEFAULT`) declares default_cap;
this one declares it while its loop still takes 0 as no cap at all, so a model that keeps asking
for tools is never stopped (the seed's unbounded loop, behind a declaration that promises the
default cap).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-zero-default-never-applied",
    provenance="contract",
    bug="hello declares zero_max_tool_turns default_cap; max_tool_turns 0 is still no cap",
    source="CONTRACT.md §11.5 (tp-loop-cap-zero-unlimited, default_cap); sources.md runtime-cap-below-one",
    kills=("loop.cap-zero-unlimited",),
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
                '        "zero_max_tool_turns": "default_cap",\n'
            ),
        ),
    ),
)
