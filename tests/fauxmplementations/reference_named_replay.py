"""The reference adding its agent's participant `name` to the assistant messages it replays (issue 22
§3), for tests/precision/test_named_replay_variant.py.

Every assistant message but the newest is rendered from storage with `"name": AGENT_NAME`, so a
request carries an echo without the name, and the next request (or the next run's first) carries
the same echo with it. The published chat-completions schema makes `name` an optional participant
name (contracts/sources.md `openai-message-name`): no history check compares it. Nothing is
declared: it is not an option.

A test double reaching into the reference (its loop module), never a pattern for a real adapter.
"""

from __future__ import annotations

from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import loop
from toolproof.candidates.reference.messages import HistoryEntry

AGENT_NAME = "reference_agent"


def _name_replayed_messages() -> None:
    """Patch the reference: every assistant message but the newest carries the agent's name."""

    def messages(history: list[HistoryEntry]) -> list[dict[str, Any]]:
        rendered = [dict(entry.message) for entry in history]
        assistants = [i for i, message in enumerate(rendered) if message["role"] == "assistant"]
        for i in assistants[:-1]:
            rendered[i]["name"] = AGENT_NAME
        return rendered

    loop.request_messages = messages


def names_replayed_messages() -> Declaring:
    """Adds the agent's name to replayed assistant messages: must pass."""
    return Declaring({}, _name_replayed_messages)
