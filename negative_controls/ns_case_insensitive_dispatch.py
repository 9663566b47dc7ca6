"""Calls resolved case-insensitively: a call to `Lookup` reaches the first tool named `lookup`."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-case-insensitive-dispatch",
    provenance="contract",
    bug="ToolTable.lookup matches wire names case-insensitively",
    source="CONTRACT.md tp-ns-names-exact (each call reaches its own server)",
    kills=("ns.case-distinct-call-own-server",),
    patches=(
        Patch(
            file="packing.py",
            old="            if tool.wire_name == wire_name:\n",
            new="            if tool.wire_name.lower() == wire_name.lower():\n",
        ),
    ),
)
