"""Only the first page of a server's tool list is offered.

`tools/list` is paginated (nextCursor). A client that reads one page and stops
silently drops every later tool: the model never sees it, no error anywhere.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-tools-first-page-only",
    provenance="contract",
    bug="list_server_tools ignores nextCursor and keeps the first page of tools/list",
    source="MCP spec (tools/list pagination); CONTRACT.md tp-wire-tools-offered (every tool of every server)",
    kills=("wire.tools-offered",),
    patches=(
        Patch(
            file="toolsets.py",
            old="            cursor = page.next_cursor\n",
            new="            cursor = None\n",
        ),
    ),
)
