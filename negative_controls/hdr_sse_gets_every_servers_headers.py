"""Every server's headers reach each SSE server of the build (its own values win).

A runtime that fills the headers of its SSE connections from one store shared
by every configured server sends one server's credentials to another, as
MCPJungle sent a Bearer token to upstream servers configured without one
(contracts/sources.md#upstream-headers-leak-across-servers). Only SSE servers
are affected here: streamable HTTP servers keep exactly their own.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-sse-gets-every-servers-headers",
    provenance="public-bug",
    bug="after dedup, each sse server's headers are merged with every other server's (own values win)",
    source="contracts/sources.md#upstream-headers-leak-across-servers (mcpjungle/MCPJungle#252)",
    kills=("hdr.sse-no-foreign-headers",),
    patches=(
        Patch(
            file="runtime.py",
            old="        servers = dedup_servers(hydrate_servers(agent_config.servers))\n",
            new=(
                "        servers = dedup_servers(hydrate_servers(agent_config.servers))\n"
                "        shared = {k: v for s in servers for k, v in s.headers.items()}\n"
                "        servers = [\n"
                "            __import__('dataclasses').replace(s, headers={**shared, **s.headers})\n"
                "            if s.type == 'sse'\n"
                "            else s\n"
                "            for s in servers\n"
                "        ]\n"
            ),
        ),
    ),
)
