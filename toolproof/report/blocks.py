"""The matrix's block-kind table: what each runtime declares for each non-text MCP block, and the
verdict of that block's check in its column (CONTRACT.md §5d).

Read from the column's hello options and its report's check rows only: a runtime's declaration is
what it says, and the verdict is what the suite saw; nothing is inferred from a runtime's name.
"""

from __future__ import annotations

from typing import Any

BLOCK_CHECKS: dict[str, str] = {
    "image": "result.block-image",
    "audio": "result.block-audio",
    "embedded blob": "result.block-blob",
    "embedded text": "result.block-text-resource",
    "resource_link": "result.block-link",
}
"""Each block kind of the table, and the check that judges it."""

BINARY_KINDS = frozenset({"image", "audio", "embedded blob"})

WHOLE_RESULT_ENCODINGS = frozenset({"json_blocks", "call_tool_result"})
"""tool_result_encoding values under which every block is sent as its MCP JSON (options.yaml)."""

BLOCKS_NOTE = (
    "What each runtime declares for the non-text blocks of an MCP tool result (`binary_result_chat` and "
    "`binary_result_responses` for image, audio and embedded blobs, on the wires it claims; "
    "`embedded_text_resource`; `resource_link_result`; `MCP JSON` where `tool_result_encoding` sends "
    "every block as its MCP JSON), and after the colon the verdict of that block's check in the column "
    "(CONTRACT.md §5d). A default the runtime did not declare reads as the default."
)
"""The words above the block-kind table (markdown and HTML)."""

_DEFAULTS = {
    "binary_result_chat": "placeholder",
    "binary_result_responses": "placeholder",
    "embedded_text_resource": "text",
    "resource_link_result": "json_block",
    "tool_result_encoding": "text",
}


def _declared(options: dict[str, Any], capabilities: list[str], kind: str) -> str:
    def option(name: str) -> str:
        return str(options.get(name, _DEFAULTS[name]))

    if option("tool_result_encoding") in WHOLE_RESULT_ENCODINGS:
        return "MCP JSON"
    if kind == "embedded text":
        return option("embedded_text_resource")
    if kind == "resource_link":
        return option("resource_link_result")
    wires = [
        f"{wire}: {option(f'binary_result_{wire}')}"
        for wire in ("chat", "responses")
        if f"openai.{wire}" in capabilities
    ]
    return ", ".join(wires) or "—"


def block_kinds(report: dict[str, Any], hello: dict[str, Any]) -> dict[str, dict[str, str]] | None:
    """Per block kind: `declared` (the runtime's declared handling) and `status` (its check's status in
    the report, "not_run" when the column did not run it). None without a hello: nothing is known."""
    if not hello:
        return None
    statuses = {str(row["id"]): str(row["status"]) for row in report.get("checks", [])}
    options = dict(hello.get("options", {}))
    capabilities = list(hello.get("capabilities", []))
    return {
        kind: {"declared": _declared(options, capabilities, kind), "status": statuses.get(check, "not_run")}
        for kind, check in BLOCK_CHECKS.items()
    }


def block_cell(runtime: dict[str, Any], kind: str) -> str:
    """One cell of the block-kind table: "<declared>: <status>", or "—" (no hello: nothing known)."""
    known = runtime.get("blocks")
    if known is None:
        return "—"
    cell = known[kind]
    return f"{cell['declared']}: {cell['status'].replace('_', ' ')}"
