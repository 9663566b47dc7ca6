"""Hydration drops a stdio server's `args` (after the seed's hydration bug, seed-dedup-hydration).

The command is spawned with no arguments: the interpreter reads the protocol
from stdin as its program, so no stdio server ever starts and every build with
a stdio server fails once the runtime's MCP read timeout (30 s) runs out. The
args check fails on its judged build; in a full run the other stdio tests fail
or are blocked with it (collateral).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="seed-hydration-drops-args",
    provenance="seed",
    bug="hydrate_server_config does not copy a stdio server's args",
    source="contracts/sources.md seed-dedup-hydration (the same hydration slip, on args)",
    kills=("mcp.stdio-args-verbatim",),
    collateral=(
        # No stdio server starts at all: the judged builds of the env and cwd tests fail their first
        # check, the other stdio tests' needed builds fail the precondition, and each build sits on
        # the interpreter reading the protocol as its program until the MCP read timeout.
        "mcp.stdio-env-config-wins",
        "mcp.stdio-cwd",
        "proto.valid-config-builds-and-runs",
        "proto.answers-when-idle",
    ),
    patches=(Patch(file="hydrate.py", old="        args=registered.args,\n", new=""),),
)
