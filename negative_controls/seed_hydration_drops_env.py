"""Hydration drops a stdio server's `env` (after the seed's hydration bug, seed-dedup-hydration).

The seed's hydration step copied url and headers and forgot the dedup fields: a
config field the runtime accepted was dropped on the real build path. The same
slip on `env`: the server is spawned with the runtime's environment alone, so
no configured variable reaches it, and a variable of the runtime's own keeps
the runtime's value where the config set another.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="seed-hydration-drops-env",
    provenance="seed",
    bug="hydrate_server_config does not copy a stdio server's env",
    source="contracts/sources.md seed-dedup-hydration (the same hydration slip, on env)",
    kills=("mcp.stdio-env-config-wins",),
    patches=(Patch(file="hydrate.py", old="        env=dict(registered.env),\n", new=""),),
)
