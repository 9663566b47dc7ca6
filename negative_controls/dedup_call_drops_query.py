"""tools/call goes to the server URL without its query string (seed ru §3: the token never arrives).

Listing tools reaches the scoped URL, but the call is made on the bare
endpoint, so a session-scoped server answers without its scope (or fails
closed) and one tenant's call can land on another's default.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-call-drops-query",
    provenance="seed",
    bug="call_server_tool opens its session on server.url without the query string",
    source="seed ru §3-§4a (balda_context must arrive); CONTRACT.md tp-dedup-tenant-isolation",
    kills=(
        "dedup.balda-call-carries-token",
        "dedup.isolation-own-query-and-headers",
        "dedup.survivor-own-endpoint",
    ),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                "    return await on_server(\n"
                "        server, lambda client: client.call_tool(name, arguments, "
                "read_timeout_seconds=timeout)\n"
            ),
            new=(
                '    bare = ServerConfig(server.id, server.url.split("?", 1)[0], server.headers)\n'
                "    return await on_server(\n"
                "        bare, lambda client: client.call_tool(name, arguments, "
                "read_timeout_seconds=timeout)\n"
            ),
        ),
    ),
)
