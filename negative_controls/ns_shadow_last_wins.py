"""Duplicate tool names silently shadowed: the last server's tool wins, one declaration is sent.

adk-python's old toolset merge (upstream-contracts §5) overwrote a name in a
dict: no error, the model sees one `lookup`, and every call goes to
whichever server came last.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-shadow-last-wins",
    provenance="seed",
    bug="pack_tools replaces an earlier tool of the same name instead of raising DuplicateTool",
    source="upstream-contracts §5 (adk-python silently overwrote); seed ru §2",
    kills=(
        "ns.duplicate-error-outcome",
        "dedup.empty-key-no-collapse",
        "dedup.no-key-identical-endpoints-stay-two",
        "err.reference-message-duplicate-tool",
        # The same shadowing whatever the servers' transports (CONTRACT.md §5b):
        "mcp.sse-duplicate-tools-per-option",
        "mcp.stdio-duplicate-tools-per-option",
    ),
    patches=(
        Patch(
            file="packing.py",
            old=(
                "        claim_name(names, packed_name)\n"
                "        packed = pack_tool(tool, packed_name)\n"
                "        # An alias could, in theory, equal another tool's literal name.\n"
                "        claim_name(wire_names, packed.wire_name)\n"
                "        table.tools.append(packed)\n"
            ),
            new=(
                "        packed = pack_tool(tool, packed_name)\n"
                "        table.tools = [t for t in table.tools if t.wire_name != packed.wire_name]\n"
                "        table.tools.append(packed)\n"
            ),
        ),
    ),
)
