"""The reference, its graceful stop at the cap outputting batch N's tool results joined with "\\n"
(`turn_cap_output: tool_results`), declared or not, for tests/precision/test_cap_output_variant.py.

Some runtimes return the latest tool output when the model never produced a final answer, by
design; the reference does not, so this fauxmplementation wraps its loop (a test double reaching
into the reference, never a pattern for a real adapter).
"""

from __future__ import annotations

from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import runtime
from toolproof.candidates.reference.loop import RunResult, run_tool_loop

RESULTS = {"turn_cap_output": "tool_results"}


async def _results_at_cap(history: list[Any], *args: Any, **kwargs: Any) -> RunResult:
    """The reference's loop; at the cap, the texts of the trailing tool messages (batch N)."""
    result = await run_tool_loop(history, *args, **kwargs)
    if result.stop_reason != "max_tool_turns":
        return result
    texts: list[str] = []
    for entry in reversed(history):
        if entry.message.get("role") != "tool":
            break
        texts.insert(0, str(entry.message["content"]))
    return RunResult("\n".join(texts), result.stop_reason)


def _act() -> None:
    """Patch the reference to act the variant out."""
    runtime.run_tool_loop = _results_at_cap  # type: ignore[assignment]


def joins_cap_results() -> Declaring:
    """Declares turn_cap_output tool_results and acts it out: must pass."""
    return Declaring(RESULTS, _act)


def joins_cap_results_undeclared() -> Declaring:
    """Outputs batch N's tool results at the cap without declaring it: must fail."""
    return Declaring({}, _act)


def cap_results_declared_only() -> Declaring:
    """Declares turn_cap_output tool_results but outputs the last reply's text: must fail."""
    return Declaring(RESULTS, None)
