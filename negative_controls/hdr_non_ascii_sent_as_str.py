"""Header values handed to the HTTP client as text: a value outside ASCII crashes the request.

httpx encodes a `str` header value as ASCII and raises UnicodeEncodeError on
anything else, when the request (or the client) is made: Open WebUI's MCP
connection failed this way for users with a non-ASCII display name
(open-webui #29907), and Gemini CLI's and LibreChat's MCP clients with a
ByteString error (contracts/sources.md#upstream-header-non-ascii). The
runtime declares `header_non_ascii: utf8`, so the value had to arrive as its
UTF-8 bytes.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-non-ascii-sent-as-str",
    provenance="public-bug",
    bug="configured header values are passed to httpx as str, not as their UTF-8 bytes",
    source="contracts/sources.md#upstream-header-non-ascii (open-webui/open-webui#29907)",
    kills=("hdr.non-ascii-per-option",),
    patches=(
        Patch(
            file="toolsets.py",
            old='    return {name: value.encode("utf-8") for name, value in server.headers.items()}\n',
            new="    return dict(server.headers)\n",
        ),
    ),
)
