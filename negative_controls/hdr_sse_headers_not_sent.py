"""An SSE server is reached without its configured headers.

MCP clients have opened the SSE stream, or every request of an SSE server,
without the headers the user configured for it (rust-mcp-sdk #45: not on the
GET; Cherry Studio before PR #5240 and the legacy SSE path reviewed in
Codewhale PR #2301: none at all). Here the SSE transport is opened with no
headers: the GET stream and every message POST go out bare, while streamable
HTTP servers keep theirs.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-sse-headers-not-sent",
    provenance="public-bug",
    bug="the SSE transport is opened without the server's configured headers (GET stream and POSTs)",
    source=(
        "contracts/sources.md#upstream-sse-headers-dropped (rust-mcp-stack/rust-mcp-sdk#45, "
        "CherryHQ/cherry-studio#5240)"
    ),
    kills=("hdr.sse-own-headers", "hdr.inner-whitespace-exact", "hdr.non-ascii-per-option"),
    patches=(
        Patch(
            file="toolsets.py",
            old="            server.url,\n            headers=header_bytes(server),\n",
            new="            server.url,\n            headers=None,\n",
        ),
    ),
)
