"""Hydration drops `headers` (the seed's hydration bug, on another field).

The seed's second dedup fix was dead in production because hydration copied
some fields of the registered server into the build-time config and not
others (seed ru §5a: `DedupKey` and `DedupPreferred` were left behind). The
same omission for `headers` builds every http and sse server without the
headers it was configured with: each server is reached bare, tenants that
differ only by their `Authorization` become one, and every header check sees
the configured values missing.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-hydration-drops-headers",
    provenance="seed",
    bug="hydrate_server_config copies url and the dedup fields but not headers",
    source="contracts/sources.md#seed-dedup-hydration (seed ru §5a, the same omission for another field)",
    kills=(
        "dedup.isolation-own-query-and-headers",
        "dedup.survivor-own-endpoint",
        "dedup.no-key-tenants-stay-separate",
        "hdr.sse-own-headers",
        "hdr.inner-whitespace-exact",
        "hdr.non-ascii-per-option",
    ),
    patches=(Patch(file="hydrate.py", old="        headers=dict(registered.headers),\n", new=""),),
)
