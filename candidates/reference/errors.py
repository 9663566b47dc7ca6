"""Errors the runtime raises, each carrying a protocol v1 error kind."""

from __future__ import annotations

import json

RETRYABLE_STATUS = frozenset({408, 409, 429})
"""HTTP answers worth re-sending besides a 5xx."""


def retryable_status(status: int) -> bool:
    """True for an HTTP answer worth re-sending: a 5xx, 408, 409 or 429 (either model client's)."""
    return status >= 500 or status in RETRYABLE_STATUS


def go_quote(text: str) -> str:
    """Quote `text` the way Go's %q does for printable text (JSON string syntax)."""
    return json.dumps(text, ensure_ascii=False)


class RuntimeError_(Exception):
    """Base class: a failure the adapter reports as `{"kind": kind, "message": ...}`."""

    kind: str = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidConfig(RuntimeError_):
    """The configuration was rejected at build; nothing was contacted."""

    kind = "invalid_config"


class DuplicateTool(RuntimeError_):
    """Two tools were packed under one name."""

    kind = "duplicate_tool"

    def __init__(self, name: str) -> None:
        super().__init__(f"duplicate tool: {go_quote(name)}")
        self.name = name


class DedupConflict(RuntimeError_):
    """Two servers of one dedup group are both marked preferred."""

    kind = "dedup_conflict"

    def __init__(self, key: str, earlier_id: str, later_id: str) -> None:
        super().__init__(
            f"mcp dedup key {go_quote(key)} has multiple preferred configs: "
            f"{go_quote(earlier_id)} and {go_quote(later_id)}"
        )


class ModelError(RuntimeError_):
    """The model endpoint failed (after the client's own retries)."""

    kind = "model_error"


class ToolError(RuntimeError_):
    """An MCP server failed outside a tool call (connect, list)."""

    kind = "tool_error"


class InternalError(RuntimeError_):
    """Anything unexpected."""

    kind = "internal"


def find_runtime_error(exc: BaseException) -> RuntimeError_ | None:
    """`exc` itself, or the first RuntimeError_ inside anyio's exception groups."""
    if isinstance(exc, RuntimeError_):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = find_runtime_error(inner)
            if found is not None:
                return found
    return None
