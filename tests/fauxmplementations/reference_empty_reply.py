"""The reference, asking the model once more after a reply without tool calls whose text is ""
(`empty_reply: reprompts`), declared or not, for tests/precision/test_empty_reply_variant.py.

pydantic-ai re-prompts an empty text reply by design (its output must be a non-empty `str`); the
reference completes with "", so this fauxmplementation wraps its loop (a test double reaching into
the reference, never a pattern for a real adapter).
"""

from __future__ import annotations

from typing import Any

from toolproof.candidates.reference import adapter, runtime
from toolproof.candidates.reference.loop import RunResult, run_tool_loop
from toolproof.candidates.reference.messages import user_message

REPROMPTS = {"empty_reply": "reprompts"}
RETRY_PROMPT = "Your reply was empty. Please answer."


async def _reprompting(history: list[Any], *args: Any, **kwargs: Any) -> RunResult:
    """The reference's loop; after a completed run with output "", one more request (a real user
    message, so it stays in the history as pydantic-ai's retry prompt does), whose end is the run's."""
    result = await run_tool_loop(history, *args, **kwargs)
    if result.stop_reason != "completed" or result.output != "":
        return result
    history.append(user_message(RETRY_PROMPT))
    return await run_tool_loop(history, *args, **kwargs)


class _Declaring:
    """The reference adapter, declaring `declared` on top of its own options."""

    def __init__(self, declared: dict[str, Any], acted: bool) -> None:
        self.inner = adapter.factory("reference")
        self.declared = declared
        if acted:
            runtime.run_tool_loop = _reprompting  # type: ignore[assignment]

    async def hello(self) -> dict[str, Any]:
        answer = await self.inner.hello()
        return {**answer, "options": {**answer["options"], **self.declared}}

    async def build(self, id: str, config: Any) -> dict[str, Any]:
        return await self.inner.build(id, config)

    async def run(self, id: str, input: str) -> dict[str, Any]:
        return await self.inner.run(id, input)

    async def close(self, id: str) -> dict[str, Any]:
        return await self.inner.close(id)


def reprompts_empty_reply() -> _Declaring:
    """Declares empty_reply reprompts and acts it out: must pass."""
    return _Declaring(REPROMPTS, acted=True)


def reprompts_empty_reply_undeclared() -> _Declaring:
    """Re-prompts an empty reply without declaring it: must fail."""
    return _Declaring({}, acted=True)


def reprompts_declared_only() -> _Declaring:
    """Declares empty_reply reprompts but completes with "": must fail."""
    return _Declaring(REPROMPTS, acted=False)
