"""Dedup groups are formed per transport: an http and an sse (or stdio) member of one key both survive.

A runtime that keeps one registry per transport (stdio launchers beside
remote clients) and dedups inside each finds no group across them: every
member of a mixed group is contacted and offered, where the seed's rule is
one survivor per key, whatever the transport.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="mcp-dedup-grouped-per-transport",
    provenance="contract",
    bug="the dedup group key is the server's type plus its dedup_key",
    source="CONTRACT.md tp-mcp-sse-dedup, tp-mcp-stdio-dedup (seed-dedup-scoped-survivor: by key alone)",
    kills=(
        "mcp.sse-dedup-preferred-survives",
        "mcp.sse-dedup-smallest-id-survives",
        "mcp.stdio-dedup-preferred-survives",
        "mcp.stdio-dedup-smallest-id-survives",
        "hdr.sse-own-headers",
    ),
    patches=(
        Patch(
            file="dedup.py",
            old="    return server.dedup_key\n",
            new=('    key = server.dedup_key\n    return f"{server.type}/{key}" if key.strip() else key\n'),
        ),
    ),
)
