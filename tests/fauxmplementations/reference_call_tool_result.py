"""The reference handing the model the whole MCP CallToolResult as JSON text (issue 22 §3:
`{"content": [...], "isError": false, ...}`, every block present, in order, unchanged), for every
kind of result or for isError results only, declared or not, for
tests/precision/test_call_tool_result_variant.py.

The result is dumped as the MCP client parsed it (`model_dump(by_alias=True, exclude_none=True)`),
so `isError: false` and the SDK's own `resultType` member come along: the contract reads `content`,
`isError` and `structuredContent` and leaves the rest silent. `sends_sdk_dumps` dumps it as Haystack
does (`model_dump_json(by_alias=True)`, haystack_integrations/tools/mcp/mcp_tool.py:322): every
unset optional member written as null (`_meta`, a block's `annotations` and `_meta`,
`structuredContent`), which reads as unset.

A test double reaching into the reference (its tool-call module), never a pattern for a real
adapter.
"""

from __future__ import annotations

import json
from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import calls
from toolproof.candidates.reference.results import tool_result_text

WHOLE_RESULTS = {
    "tool_result_encoding": "call_tool_result",
    "tool_result_pointer": "/content/0/text",
    "error_result_encoding": "call_tool_result",
    "structured_content": "call_tool_result",
}
WHOLE_ERRORS = {"error_result_encoding": "call_tool_result"}


def _whole(result: Any) -> str:
    return json.dumps(result.model_dump(by_alias=True, mode="json", exclude_none=True), ensure_ascii=False)


def _every_result_whole() -> None:
    """Patch the reference: every result reaches the model as the JSON text of the whole result."""

    def text(result: Any, join: str = "\n") -> str:
        return _whole(result)

    calls.tool_result_text = text


def _every_result_dumped() -> None:
    """Patch the reference: every result reaches the model as the SDK model's JSON, nulls included."""

    def text(result: Any, join: str = "\n") -> str:
        return str(result.model_dump_json(by_alias=True))

    calls.tool_result_text = text


def _errors_whole() -> None:
    """Patch the reference: an isError result reaches the model whole, any other as its text."""

    def text(result: Any, join: str = "\n") -> str:
        return _whole(result) if result.is_error else tool_result_text(result, join)

    calls.tool_result_text = text


def sends_whole_results() -> Declaring:
    """Declares call_tool_result for every kind of result and acts it out: must pass."""
    return Declaring(WHOLE_RESULTS, _every_result_whole)


def sends_sdk_dumps() -> Declaring:
    """Declares call_tool_result for every kind of result and sends the SDK model's JSON with its
    unset members as null (Haystack's dump): must pass."""
    return Declaring(WHOLE_RESULTS, _every_result_dumped)


def sends_whole_results_undeclared() -> Declaring:
    """Sends every result whole without declaring it: must fail."""
    return Declaring({}, _every_result_whole)


def sends_whole_errors() -> Declaring:
    """Declares call_tool_result for isError results only, and sends only those whole: must pass."""
    return Declaring(WHOLE_ERRORS, _errors_whole)


def sends_whole_errors_undeclared() -> Declaring:
    """Sends isError results whole without declaring it: must fail."""
    return Declaring({}, _errors_whole)


def whole_errors_declared_only() -> Declaring:
    """Declares call_tool_result for isError results but sends their text: must fail."""
    return Declaring(WHOLE_ERRORS, None)
