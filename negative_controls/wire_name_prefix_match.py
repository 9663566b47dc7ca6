"""Wire-name validity tested with an unanchored match: invalid names go out as they are.

`re.match(r"[a-zA-Z0-9_-]{1,64}", name)` accepts any name that merely starts
with a valid character: `balda.control.shutdown` and a 70-character name are
offered raw, and OpenAI rejects the request.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-name-prefix-match",
    provenance="contract",
    bug="is_valid_wire_name uses re.match (prefix) instead of fullmatch, so invalid names are never aliased",
    source="upstream-contracts §3 (^[a-zA-Z0-9_-]{1,64}$); OpenAI function name rule",
    kills=("wire.function-name-pattern", "wire.invalid-name-alias-offered"),
    patches=(
        Patch(
            file="packing.py",
            old="    return WIRE_NAME.fullmatch(name) is not None\n",
            new="    return WIRE_NAME.match(name) is not None\n",
        ),
    ),
)
