"""stdio servers are left out of dedup: a displaced stdio member is spawned and offered all the same.

A runtime whose dedup pass only looks at URL-based servers (it was written for
http and sse, where the seed's incident happened) lets every stdio server
through, keyed or not.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="mcp-dedup-skips-stdio",
    provenance="contract",
    bug="dedup_servers keeps every stdio server, whatever its dedup_key",
    source="CONTRACT.md tp-mcp-stdio-dedup (seed-dedup-scoped-survivor: by key alone)",
    kills=("mcp.stdio-dedup-preferred-survives", "mcp.stdio-dedup-smallest-id-survives"),
    patches=(
        Patch(
            file="dedup.py",
            old="        if not key_groups(key):\n",
            new='        if not key_groups(key) or server.type == "stdio":\n',
        ),
    ),
)
