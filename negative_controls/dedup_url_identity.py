"""URL-derived server identity: servers are grouped by host+path, query and headers ignored (seed ru §4).

The first dedup fix keyed servers by their endpoint instead of an explicit
key. Distinct tenants of one MCP endpoint (`?tenant=a` vs `?tenant=b`, or
two Authorization values) then collapse into one, and so do keyless servers
with identical URLs. The seed's own negative control: putting it back makes
TestDistinctQueryParamsNeverCollapse fail ("expected 2 toolsets for distinct
tenants, got 1"). The balda pair still passes: both share the path.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-url-identity",
    provenance="seed",
    bug="dedup_group_key returns the server URL without its query string instead of the dedup_key",
    source="seed ru §4 (URL-derived identity); upstream TestDistinctQueryParamsNeverCollapse",
    kills=(
        "dedup.no-key-tenants-stay-separate",
        "dedup.no-key-identical-endpoints-stay-two",
        "dedup.empty-key-no-collapse",
        "dedup.keys-opaque",
        "dedup.distinct-keys-never-collapse",
        # every tenant-route server shares one path, so distinct keys merge into one group
        "dedup.smallest-id-survives",
        "dedup.smallest-id-survives-any-ids",
        # the conflict is reported under the URL, not under the key
        "err.reference-message-dedup-conflict",
    ),
    patches=(
        Patch(
            file="dedup.py",
            old="    return server.dedup_key\n",
            new='    return server.url.split("?", 1)[0]\n',
        ),
    ),
)
