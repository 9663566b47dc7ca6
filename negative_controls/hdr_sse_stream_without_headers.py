"""The SSE GET stream is opened without the server's configured headers; only the POSTs carry them.

rust-mcp-sdk #45: "When the MCP client makes a request to a remote MCP
server's SSE endpoint, it doesn't include custom headers. Custom headers only
appear to be included in subsequent POST requests to the message endpoint."
Here the SSE transport's HTTP client adds the configured headers to its
message POSTs only: a server that authenticates the stream sees it bare.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-sse-stream-without-headers",
    provenance="public-bug",
    bug="the SSE transport adds the configured headers to its message POSTs only, not to the GET stream",
    source="contracts/sources.md#upstream-sse-headers-dropped (rust-mcp-stack/rust-mcp-sdk#45)",
    kills=("hdr.sse-own-headers", "hdr.inner-whitespace-exact", "hdr.non-ascii-per-option"),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                "        return httpx2.AsyncClient(headers=headers, timeout=timeout, auth=auth,"
                " transport=failures)\n"
            ),
            new=(
                "        async def on_posts_only(request: httpx2.Request) -> None:\n"
                '            if request.method == "POST":\n'
                "                request.headers.update(headers or {})\n"
                "\n"
                "        return httpx2.AsyncClient(\n"
                "            timeout=timeout,\n"
                "            auth=auth,\n"
                "            transport=failures,\n"
                '            event_hooks={"request": [on_posts_only]},\n'
                "        )\n"
            ),
        ),
    ),
)
