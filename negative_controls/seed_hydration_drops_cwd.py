"""Hydration drops a stdio server's `cwd` (after the seed's hydration bug, seed-dedup-hydration).

The server runs in the runtime's own working directory instead of the one
configured (public instances: contracts/sources.md upstream-stdio-cwd-ignored).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="seed-hydration-drops-cwd",
    provenance="seed",
    bug="hydrate_server_config does not copy a stdio server's cwd",
    source="contracts/sources.md seed-dedup-hydration, upstream-stdio-cwd-ignored",
    kills=("mcp.stdio-cwd",),
    patches=(Patch(file="hydrate.py", old="        cwd=registered.cwd,\n", new=""),),
)
