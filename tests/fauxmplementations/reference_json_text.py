"""The reference, re-serialising a tool's text that is a JSON object or array compactly (as
pydantic-ai does: pydantic_ai/mcp.py, _map_mcp_tool_result), `json_tool_text: reserialised`
declared or not, for tests/precision/test_json_tool_text_variant.py.

A test double reaching into the reference (its tool-call module), never a pattern for a real
adapter.
"""

from __future__ import annotations

import json
from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import calls
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


def _act() -> None:
    """Patch the reference to act the variant out."""
    calls.tool_result_text = _reserialised  # type: ignore[assignment]


def reserialises_json_text() -> Declaring:
    """Declares json_tool_text reserialised and acts it out: must pass."""
    return Declaring(RESERIALISED, _act)


def reserialises_json_text_undeclared() -> Declaring:
    """Re-serialises JSON object text without declaring it: must fail."""
    return Declaring({}, _act)


def json_text_reserialised_declared_only() -> Declaring:
    """Declares json_tool_text reserialised but sends the text byte for byte: must pass (the
    text itself is JSON-equal to itself, which is all `reserialised` asks)."""
    return Declaring(RESERIALISED, None)
