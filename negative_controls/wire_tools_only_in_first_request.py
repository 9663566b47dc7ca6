"""Tools offered in a run's first model request only (a "seen" set that outlives one request).

After the first tool round the model is asked to go on with no tools at all.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-tools-only-in-first-request",
    provenance="contract",
    bug="requests after a tool round are sent without tools",
    source="CONTRACT.md §6.6 (tp-wire-tools-offered); upstream-contracts §1 (tools packed before every call)",
    kills=("wire.tools-offered",),
    patches=(
        Patch(
            file="runtime.py",
            old="                messages,\n                tools,\n",
            new=(
                "                messages,\n"
                '                tools if messages[-1].get("role") == "user" else [],\n'
            ),
        ),
    ),
)
