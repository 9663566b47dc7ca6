"""The reference, sending `tools/call` without `arguments` when the tool gets none ({}), for
tests/precision/test_absent_arguments.py.

MCP's schema makes `arguments` optional, and strands-agents sends no key for a call whose
arguments are `"null"`; the reference always sends the object. This fauxmplementation wraps the
reference's MCP call (a test double reaching into the reference, never a pattern for an adapter).
"""

from __future__ import annotations

from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import calls

_call_server_tool = calls.call_server_tool


async def _without_empty_arguments(server: Any, name: str, arguments: dict[str, Any]) -> Any:
    # The mcp client leaves `arguments` out of the request when it is None.
    return await _call_server_tool(server, name, arguments or None)  # type: ignore[arg-type]


def _act() -> None:
    """Patch the reference to leave `arguments` out of a call that passes none."""
    calls.call_server_tool = _without_empty_arguments  # type: ignore[assignment]


def omits_empty_arguments() -> Declaring:
    """Passes no `arguments` where the tool receives {}: must pass (§7, an absent key is {})."""
    return Declaring({}, _act)
