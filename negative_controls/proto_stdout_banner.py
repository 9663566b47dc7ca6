"""The adapter greets on stdout before it answers hello.

A startup banner ("ready", a version line, a library's import-time print) is
the commonest way an adapter breaks the JSON Lines stream: the harness reads
it as the answer to hello. The reference guards stdout first (protect_stdout);
this puts a print before the guard.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-stdout-banner",
    provenance="contract",
    bug="the stdio adapter prints a banner on stdout before the hello response",
    source="contracts/PROTOCOL.md (stdout carries NOTHING but protocol lines)",
    kills=("proto.hello-first", "proto.stdout-protocol-only"),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old="    args = parser.parse_args(argv)\n    out = protect_stdout()\n",
            new=(
                "    args = parser.parse_args(argv)\n"
                '    print(f"toolproof-reference adapter ready (profile {args.profile})", flush=True)\n'
                "    out = protect_stdout()\n"
            ),
        ),
    ),
)
