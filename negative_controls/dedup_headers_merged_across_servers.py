"""One server's headers are sent to every other server of the build (shared HTTP client defaults).

A runtime that puts every configured header on one shared client (or merges
them "for convenience") sends tenant A's credentials to tenant B's server.
Each server keeps its own value for a header name it configures itself, so
only the pairs configured for other servers leak.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-headers-merged-across-servers",
    provenance="contract",
    bug="after dedup, every server's headers are merged into every other server's (own values win)",
    source="CONTRACT.md tp-dedup-tenant-isolation; upstream TestDistinctHeadersNeverCollapse",
    kills=("dedup.isolation-no-foreign-headers",),
    patches=(
        Patch(
            file="runtime.py",
            old="        servers = dedup_servers(hydrate_servers(agent_config.servers))\n",
            new=(
                "        servers = dedup_servers(hydrate_servers(agent_config.servers))\n"
                "        shared = {k: v for s in servers for k, v in s.headers.items()}\n"
                "        servers = [\n"
                "            ServerConfig(\n"
                "                s.id, s.url, {**shared, **s.headers}, s.dedup_key, s.dedup_preferred\n"
                "            )\n"
                "            for s in servers\n"
                "        ]\n"
            ),
        ),
    ),
)
