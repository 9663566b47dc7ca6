"""invalid_tool_name declared `reject`, but the runtime aliases the name and runs anyway.

"Accepting the value and then ignoring it": the suite asserts the declared
choice, so an undeclared fallback is caught.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-reject-declared-but-aliased",
    provenance="contract",
    bug="hello declares invalid_tool_name reject; invalid names are still aliased and offered",
    source="CONTRACT.md §6.9 (tp-wire-invalid-tool-name, reject)",
    kills=("wire.invalid-name-reject",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "invalid_tool_name": "alias",\n',
            new='        "invalid_tool_name": "reject",\n',
        ),
    ),
)
