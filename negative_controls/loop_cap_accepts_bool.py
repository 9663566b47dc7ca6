"""`max_tool_turns: true` is accepted as a cap of 1.

In Python `bool` is a subclass of `int`, so `isinstance(True, int)` holds:
a validator that forgets to exclude booleans takes JSON `true` as 1.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-accepts-bool",
    provenance="contract",
    bug="validate_max_tool_turns does not exclude bool, so true becomes a cap of 1",
    source="plausible (CONTRACT.md §16: boolean max_tool_turns is invalid_config)",
    kills=("loop.cap-invalid",),
    patches=(
        Patch(
            file="config.py",
            old="isinstance(value, bool) or not isinstance(value, int)",
            new="not isinstance(value, int)",
        ),
    ),
)
