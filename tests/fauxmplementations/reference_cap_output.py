"""The reference, its graceful stop at the cap outputting batch N's tool results joined with "\\n"
(`turn_cap_output: tool_results`), declared or not, for tests/precision/test_cap_output_variant.py.

Some runtimes return the latest tool output when the model never produced a final answer, by
design; the reference does not, so this fauxmplementation wraps its loop (a test double reaching
into the reference, never a pattern for a real adapter).
"""

from __future__ import annotations

from typing import Any

from toolproof.candidates.reference import adapter, runtime
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


class _Declaring:
    """The reference adapter, declaring `declared` on top of its own options."""

    def __init__(self, declared: dict[str, Any], acted: bool) -> None:
        self.inner = adapter.factory("reference")
        self.declared = declared
        if acted:
            runtime.run_tool_loop = _results_at_cap  # type: ignore[assignment]

    async def hello(self) -> dict[str, Any]:
        answer = await self.inner.hello()
        return {**answer, "options": {**answer["options"], **self.declared}}

    async def build(self, id: str, config: Any) -> dict[str, Any]:
        return await self.inner.build(id, config)

    async def run(self, id: str, input: str) -> dict[str, Any]:
        return await self.inner.run(id, input)

    async def close(self, id: str) -> dict[str, Any]:
        return await self.inner.close(id)


def joins_cap_results() -> _Declaring:
    """Declares turn_cap_output tool_results and acts it out: must pass."""
    return _Declaring(RESULTS, acted=True)


def joins_cap_results_undeclared() -> _Declaring:
    """Outputs batch N's tool results at the cap without declaring it: must fail."""
    return _Declaring({}, acted=True)


def cap_results_declared_only() -> _Declaring:
    """Declares turn_cap_output tool_results but outputs the last reply's text: must fail."""
    return _Declaring(RESULTS, acted=False)
