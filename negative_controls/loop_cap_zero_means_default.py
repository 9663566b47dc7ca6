"""`max_tool_turns: 0` falls back to the default instead of meaning unlimited.

The falsy-value bug: `max_tool_turns or default` treats the explicit 0
(unlimited, upstream's meaning) like an absent value, so a long legitimate
task is cut off at the default.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-zero-means-default",
    provenance="contract",
    bug="max_tool_turns 0 is replaced by default_max_tool_turns (`value or default`)",
    source="plausible; upstream-contracts §4 (0 = unlimited)",
    kills=("loop.cap-zero-unlimited",),
    patches=(
        Patch(
            file="runtime.py",
            old="                max_tool_turns=self.config.max_tool_turns,\n",
            new=(
                "                max_tool_turns=self.config.max_tool_turns\n"
                "                or self.profile.default_max_tool_turns,\n"
            ),
        ),
    ),
)
