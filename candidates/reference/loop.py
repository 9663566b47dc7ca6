"""The tool loop: model call, tool batch, repeat; turn cap and continuation.

A "tool turn" is one model reply with at least one tool call (one batch).
The cap is checked before each model call and counts per run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .messages import (
    HistoryEntry,
    ModelReply,
    ToolCall,
    ToolContent,
    assistant_message,
    request_messages,
    synthetic_user_message,
    tool_message,
)

AskModel = Callable[[list[dict[str, Any]]], Awaitable[ModelReply]]
ExecuteCall = Callable[[ToolCall], Awaitable[ToolContent]]


@dataclass(frozen=True)
class RunResult:
    """How a run ended: its output text and stop_reason."""

    output: str
    stop_reason: str


def turn_cap_reached(batches_done: int, max_tool_turns: int) -> bool:
    """True once N batches have run (N = max_tool_turns; 0 means unlimited)."""
    return max_tool_turns != 0 and batches_done >= max_tool_turns


def graceful_stop_output(last_text: str | None, notice: str | None, max_tool_turns: int) -> str:
    """The output at the cap: the last reply's text unless blank, else the notice.

    Without a notice the last reply's text is the output as it is (blank included).
    """
    if last_text is not None and last_text.strip() != "":
        return last_text
    if notice is None:
        return last_text or ""
    return notice.replace("{n}", str(max_tool_turns))


def apply_continuation(history: list[HistoryEntry], text: str | None) -> None:
    """Drop earlier synthetic continuations; add one if the last message is assistant/tool.

    Synthetic messages are found by their marker, never by text: a real user
    message with the same words stays.
    """
    history[:] = [entry for entry in history if not entry.synthetic]
    if text is not None and history and history[-1].role in ("assistant", "tool"):
        history.append(synthetic_user_message(text))


async def run_tool_loop(
    history: list[HistoryEntry],
    ask_model: AskModel,
    execute_call: ExecuteCall,
    max_tool_turns: int,
    continuation: str | None,
    notice: str | None,
) -> RunResult:
    """Run model/tool rounds on `history` (appended in place) until a final reply or the cap."""
    batches_done = 0
    last_text: str | None = None
    while True:
        if turn_cap_reached(batches_done, max_tool_turns):
            return RunResult(graceful_stop_output(last_text, notice, max_tool_turns), "max_tool_turns")
        apply_continuation(history, continuation)
        reply = await ask_model(request_messages(history))
        history.append(assistant_message(reply))
        last_text = reply.content
        if not reply.tool_calls:
            return RunResult(reply.content or "", "completed")
        batches_done += 1
        for call in reply.tool_calls:
            history.append(tool_message(call.id, await execute_call(call)))
