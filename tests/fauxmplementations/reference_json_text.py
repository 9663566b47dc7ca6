"""The reference, re-serialising a tool's text that is a JSON object or array compactly (as
pydantic-ai does: pydantic_ai/mcp.py, _map_mcp_tool_result), `json_tool_text: reserialised`
declared or not, for tests/precision/test_json_tool_text_variant.py.

A test double reaching into the reference (its tool-call module), never a pattern for a real
adapter.
"""

from __future__ import annotations

import json
from typing import Any

from toolproof.candidates.reference import adapter, calls
from toolproof.candidates.reference.results import tool_result_text

RESERIALISED = {"json_tool_text": "reserialised"}


def _reserialised(result: Any, join: str = "\n") -> str:
    """The reference's tool text; a JSON object or array text as its value, compact."""
    text = tool_result_text(result, join)
    if not text.startswith(("{", "[")):
        return text
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class _Declaring:
    """The reference adapter, declaring `declared` on top of its own options."""

    def __init__(self, declared: dict[str, Any], acted: bool) -> None:
        self.inner = adapter.factory("reference")
        self.declared = declared
        if acted:
            calls.tool_result_text = _reserialised  # type: ignore[assignment]

    async def hello(self) -> dict[str, Any]:
        answer = await self.inner.hello()
        return {**answer, "options": {**answer["options"], **self.declared}}

    async def build(self, id: str, config: Any) -> dict[str, Any]:
        return await self.inner.build(id, config)

    async def run(self, id: str, input: str) -> dict[str, Any]:
        return await self.inner.run(id, input)

    async def close(self, id: str) -> dict[str, Any]:
        return await self.inner.close(id)


def reserialises_json_text() -> _Declaring:
    """Declares json_tool_text reserialised and acts it out: must pass."""
    return _Declaring(RESERIALISED, acted=True)


def reserialises_json_text_undeclared() -> _Declaring:
    """Re-serialises JSON object text without declaring it: must fail."""
    return _Declaring({}, acted=True)


def json_text_reserialised_declared_only() -> _Declaring:
    """Declares json_tool_text reserialised but sends the text byte for byte: must pass (the
    text itself is JSON-equal to itself, which is all `reserialised` asks)."""
    return _Declaring(RESERIALISED, acted=False)
