"""The reference, asking the model once more after a reply without tool calls whose text is ""
(`empty_reply: reprompts`), declared or not, for tests/precision/test_empty_reply_variant.py.

pydantic-ai re-prompts an empty text reply by design (its output must be a non-empty `str`); the
reference completes with "", so this fauxmplementation wraps its loop (a test double reaching into
the reference, never a pattern for a real adapter).
"""

from __future__ import annotations

from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import runtime
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


def _act() -> None:
    """Patch the reference to act the variant out."""
    runtime.run_tool_loop = _reprompting  # type: ignore[assignment]


def reprompts_empty_reply() -> Declaring:
    """Declares empty_reply reprompts and acts it out: must pass."""
    return Declaring(REPROMPTS, _act)


def reprompts_empty_reply_undeclared() -> Declaring:
    """Re-prompts an empty reply without declaring it: must fail."""
    return Declaring({}, _act)


def reprompts_declared_only() -> Declaring:
    """Declares empty_reply reprompts but completes with "": must fail."""
    return Declaring(REPROMPTS, None)
