"""Hydration drops `tool_timeout_s` (the seed's hydration bug, on another field).

The seed's dedup fix was dead in production because hydration copied some
fields of the registered server into the build-time config and not others
(seed ru §5a). The same omission for `tool_timeout_s` leaves every call at
the client's default (30 s): the configured timeout is a key nobody reads, as
the seed's turn cap was, and as openclaw's MCP `toolTimeout` never reached
`callTool`. The `stall` call is waited on until the server answers it (10 s):
the next step comes late. One failing check: mcp.slow-call-abandoned-in-time
(the cancellation check stands on it and is undecided, blocked by it).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="slow-hydration-drops-timeout",
    provenance="seed",
    bug="hydrate_server_config copies every field but tool_timeout_s: the configured timeout is never read",
    source="contracts/sources.md#seed-dedup-hydration (seed ru §5a, the same omission for another field); "
    "sources.md upstream-tool-timeout-config-ignored (https://github.com/openclaw/openclaw/issues/85581)",
    kills=("mcp.slow-call-abandoned-in-time",),
    patches=(Patch(file="hydrate.py", old="        tool_timeout_s=registered.tool_timeout_s,\n", new=""),),
)
