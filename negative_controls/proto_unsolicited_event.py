"""The adapter announces a finished build with an extra JSON line.

An event line nobody asked for ({"event": "built"}) is valid JSON, so only
counting responses against requests catches it: every later answer is read as
the answer to the wrong request.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-unsolicited-event",
    provenance="contract",
    bug='the stdio adapter writes {"event": "built"} after each successful build response',
    source="contracts/PROTOCOL.md (Framing: exactly one response per request, in order)",
    kills=("proto.response-order",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old="            write_response(out, response)\n",
            new=(
                "            write_response(out, response)\n"
                '            built = line is not None and b\'"op":"build"\' in line\n'
                '            if built and response == {"ok": True}:\n'
                '                write_response(out, {"event": "built"})\n'
            ),
        ),
    ),
)
