"""Declares `never`, yet lists every server again at the start of each run.

The declaration says the list read at build stays for the agent's life; the
runtime re-reads it every run, so a changed list reaches the model at the next
run, and a server without tools.listChanged is listed again each run. A
declaration that does not match the behaviour fails both the refresh check, on
its `never` branch, and the needless-listing SHOULD.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="lists-never-but-per-run",
    provenance="contract",
    bug="declares tool_list_refresh never but lists every server again each run",
    source="CONTRACT.md §5c.1 and §5c.3 (tp-mcp-list-refresh, tp-mcp-list-no-needless-relist)",
    kills=("mcp.list-refresh", "mcp.list-no-needless-relist"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "tool_list_refresh": "per_run",\n',
            new='        "tool_list_refresh": "never",\n',
        ),
    ),
)
