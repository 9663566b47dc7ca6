"""Hydration drops a stdio server's `args` (after the seed's hydration bug, seed-dedup-hydration).

The command is spawned with no arguments: the interpreter reads the protocol
from stdin as its program, so no stdio server ever starts and every build with
a stdio server fails once the runtime's MCP read timeout (30 s) runs out. The
args check fails on its judged build. The control runs that test alone: every
other stdio build would wait out the same timeout and fail with it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="seed-hydration-drops-args",
    provenance="seed",
    bug="hydrate_server_config does not copy a stdio server's args",
    source="contracts/sources.md seed-dedup-hydration (the same hydration slip, on args)",
    kills=("mcp.stdio-args-verbatim",),
    # The args test alone: every stdio build waits out the MCP read timeout, so one build is enough.
    select="test_stdio_server_args_arrive_verbatim",
    # The build sits on the interpreter reading the protocol as its program until the MCP read
    # timeout: with no MCP traffic for that long, the idle judge fires too.
    collateral=("proto.answers-when-idle",),
    patches=(Patch(file="hydrate.py", old="        args=registered.args,\n", new=""),),
)
