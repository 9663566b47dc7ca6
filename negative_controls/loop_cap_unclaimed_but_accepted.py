"""A runtime without a turn cap accepts max_tool_turns and ignores it (seed §2.4).

HomeAgent defined `core.agent.max_tool_turns` (the local DB even held 1000)
while nothing read it. A runtime that does not claim loop.turn_cap must
reject the key instead of accepting it silently.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-unclaimed-but-accepted",
    provenance="seed",
    bug="loop.turn_cap is not claimed, yet a max_tool_turns in CONFIG is accepted without error",
    source="seed homeagent-qq-output-send-loop §2.4 (a key defined in config, never read)",
    kills=("loop.unsupported-rejected",),
    patches=(
        Patch(
            file="adapter.py",
            old='    "loop.turn_cap",\n',
            new="",
        ),
    ),
)
