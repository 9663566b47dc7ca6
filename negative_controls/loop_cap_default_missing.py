"""The cap is read, but an absent max_tool_turns means unlimited instead of the default.

HomeAgent registered the default (10) in its config registry; a runtime that
reads the key but falls back to 0 (unlimited) when it is absent caps only
the users who set it: everyone else gets the seed's runaway loop.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-default-missing",
    provenance="seed",
    bug="max_tool_turns absent or null falls back to 0 (unlimited), not default_max_tool_turns",
    source="seed homeagent-qq-output-send-loop §2.4 (the default lived only in the config layer)",
    kills=("loop.cap-default",),
    # A runaway fails its checks as soon as it passes the cap the test set, and the harness never
    # sets a test's cap below the declared default + 4 (14 for the reference): it may end the run at
    # 16 model requests instead of 64.
    pytest_args=("--toolproof-safety-cap=16",),
    patches=(
        Patch(
            file="runtime.py",
            old="parse_config(config, self.profile.default_max_tool_turns)",
            new="parse_config(config, 0)",
        ),
    ),
)
