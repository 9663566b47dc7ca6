"""An unknown op is acknowledged with ok true instead of an error.

A harness talking to such an adapter cannot tell a typo'd or newer op from
one that worked. Only observable on a wire, so this control runs over cmd:.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-unknown-op-accepted",
    provenance="contract",
    bug='the stdio adapter answers an unknown op with {"ok": true}',
    source="contracts/PROTOCOL.md (adapter conduct)",
    kills=("proto.unknown-op",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old='        raise BadRequest(f"unknown op: {json.dumps(op)}")',
            new='        return {"ok": True}',
        ),
    ),
)
