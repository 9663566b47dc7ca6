"""Prefix namespacing that keeps only the first server's tool of a name (the others are skipped)."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-prefix-first-only",
    provenance="contract",
    bug="pack_tools skips a tool whose MCP name an earlier server already offered",
    source="CONTRACT.md tp-ns-duplicate-tools (prefix: every one of those tools is offered)",
    kills=(
        "ns.duplicate-prefix-offered",
        "dedup.empty-key-no-collapse",
        "dedup.no-key-identical-endpoints-stay-two",
    ),
    profile="reference-prefix",
    patches=(
        Patch(
            file="packing.py",
            old="        packed_name = namespaced_name(tool.server_id, tool.name, namespacing)\n",
            new=(
                "        if any(t.original_name == tool.name for t in table.tools):\n"
                "            continue\n"
                "        packed_name = namespaced_name(tool.server_id, tool.name, namespacing)\n"
            ),
        ),
    ),
)
