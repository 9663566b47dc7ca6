"""The adapter logs each request it handled to the protocol stream.

A debug line written with the stream the responses go to (instead of stderr)
lands between two responses: a harness that reads one line per request takes
it for the next answer.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-stdout-log-line",
    provenance="contract",
    bug="the stdio adapter writes a log line to stdout after each response",
    source="contracts/PROTOCOL.md (stdout carries NOTHING but protocol lines; log to stderr)",
    kills=("proto.stdout-protocol-only",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old="            write_response(out, response)\n",
            new=(
                "            write_response(out, response)\n"
                '            out.write(b"handled one request\\n")\n'
                "            out.flush()\n"
            ),
        ),
    ),
)
