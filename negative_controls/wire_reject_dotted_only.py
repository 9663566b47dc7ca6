"""invalid_tool_name declared `reject`, but only a dotted name is refused: a long one goes out raw.

Issue 22 §4: one test server held a dotted name and a 70-character name
together, so a runtime refusing the dotted one passed
`wire.invalid-name-reject` without the long name ever being judged. Each
kind of name now has a build of its own: the long one is built, run and
offered unchanged.

The patch declares `reject`, refuses names holding a dot at build
(`invalid_config`) and offers every other name as it is (no alias).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-reject-dotted-only",
    provenance="contract",
    bug="declared reject refuses dotted names only; a name over 64 characters is offered unchanged",
    source="issue 22 §4 (a dotted and a 70-character name on one server); CONTRACT.md §6.9",
    kills=("wire.invalid-name-reject", "wire.function-name-pattern"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "invalid_tool_name": "alias",\n',
            new='        "invalid_tool_name": "reject",\n',
        ),
        Patch(
            file="packing.py",
            old="from .errors import DuplicateTool\n",
            new="from .errors import DuplicateTool, InvalidConfig\n",
        ),
        Patch(
            file="packing.py",
            old=("    if is_valid_wire_name(name):\n        return name\n    return alias_wire_name(name)\n"),
            new=(
                '    if "." in name:\n'
                '        raise InvalidConfig(f"invalid tool name {name!r}")\n'
                "    return name\n"
            ),
        ),
    ),
    select="test_invalid_tool_names_are_rejected_when_declared",
)
