"""Synthetic continuation messages (contracts/requirements/loop.yaml, CONTRACT.md §12).

Seed: HomeAgent appended one more identical `请根据以上工具结果继续。` user
message at the top of every tool round and never removed the earlier ones,
so after N rounds the prompt held N copies. Its proposed fix removes earlier
placeholders by comparing text, which would also delete a real user message
with the same words. A synthetic continuation message is a role "user"
message the runtime inserted (not a run's input) whose text equals the
declared `continuation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from toolproof.fakes import Call, Text
from toolproof.plugin.scenario import Scenario

from ._calls import role

SEED_CONTINUATION = "请根据以上工具结果继续。"
"""HomeAgent's placeholder: the input of the user-message test when the candidate declares none."""


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a message (CONTRACT.md §2): string content, or its text parts joined with ""."""
    if not isinstance(message, Mapping):
        return f"<not a message: {message!r}>"
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def messages_of(body: Any) -> list[dict[str, Any]]:
    """The `messages` of one request body ([] when it has none)."""
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def synthetic_positions(body: Any, continuation: str) -> list[int]:
    """Indexes of the user messages whose text is the continuation (synthetic when no input has that text)."""
    return [
        i for i, m in enumerate(messages_of(body)) if role(m) == "user" and message_text(m) == continuation
    ]


def lookups(count: int, tag: str) -> list[Call]:
    """`count` lookup calls, arguments differing per call."""
    return [Call("alpha/lookup", f'{{"q": "{tag} {k}"}}') for k in range(count)]


@pytest.mark.checks("cont.none-when-null")
@pytest.mark.capability("loop.continuation")
def test_no_synthetic_message_when_declared_null(tp: Scenario) -> None:
    """`continuation: null`: request k+1 is request k plus the assistant message and its tool messages."""
    if tp.option("continuation") is not None:
        tp.not_testable("cont.none-when-null", "the candidate declares a continuation text")
        return
    tp.script(*lookups(3, "round"), Text("done"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run("Look three things up.")
    bodies = tp.model_bodies()
    start = len(messages_of(bodies[0])) if bodies else 0
    # A user message shows its text too: a synthetic one names the continuation a runtime sends.
    added = [
        [role(m) if role(m) != "user" else f"user: {message_text(m)}" for m in messages_of(body)[start:]]
        for body in bodies
    ]
    tp.expect(
        "cont.none-when-null",
        added,
        [[], ["assistant", "tool"], ["assistant", "tool"] * 2, ["assistant", "tool"] * 3],
        what="roles of the messages after the first request's, request by request (3 tool rounds;"
        " a user message with its text)",
    )


@pytest.mark.checks("cont.at-most-one", "cont.none-in-first-request")
@pytest.mark.capability("loop.continuation")
def test_at_most_one_synthetic_message_and_none_first(tp: Scenario) -> None:
    """Seed: one more identical placeholder per round. At most one, only last, never in a first request."""
    continuation = tp.option("continuation")
    if continuation is None:
        reason = "the candidate declares continuation null (cont.none-when-null covers it)"
        tp.not_testable("cont.at-most-one", reason)
        tp.not_testable("cont.none-in-first-request", reason)
        return
    inputs = ("Look four things up.", "Look one more thing up.")
    tp.script(*lookups(4, "first"), Text("first done"), *lookups(1, "second"), Text("second done"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run(inputs[0])
    first_of_second_run = len(tp.model_requests())
    tp.run(inputs[1])
    bodies = tp.model_bodies()
    violations = []
    for k, body in enumerate(bodies):
        found = synthetic_positions(body, str(continuation))
        last = len(messages_of(body)) - 1
        if len(found) > 1 or any(i != last for i in found):
            violations.append({"request": k, "synthetic at": found, "last message at": last})
    tp.expect(
        "cont.at-most-one",
        violations,
        [],
        what=f"requests with more than one synthetic message or one not last (of {len(bodies)} requests)",
    )
    firsts = [bodies[k] if k < len(bodies) else {} for k in (0, first_of_second_run)]
    tp.expect(
        "cont.none-in-first-request",
        [synthetic_positions(body, str(continuation)) for body in firsts],
        [[], []],
        what="synthetic message positions in the first request of run 1 and of run 2",
    )


@pytest.mark.checks("cont.user-message-kept")
@pytest.mark.capability("loop.continuation")
def test_user_message_with_the_continuation_text_is_kept(tp: Scenario) -> None:
    """A real input whose text equals the continuation text stays, unaltered, in every request."""
    continuation = tp.option("continuation")
    text = SEED_CONTINUATION if continuation is None else str(continuation)
    tp.script(*lookups(3, "round"), Text("done"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run(text)
    bodies = tp.model_bodies()
    first = messages_of(bodies[0]) if bodies else []
    # Where the first request put the input (a synthetic message there is another check's concern).
    at = next((i for i, m in enumerate(first) if role(m) == "user" and message_text(m) == text), 0)
    observed = []
    for body in bodies:
        messages = messages_of(body)
        message = messages[at] if at < len(messages) else {}
        observed.append([role(message), message_text(message)])
    tp.expect(
        "cont.user-message-kept",
        observed,
        [["user", text]] * 4,
        what=f"the message at the input's position in each of the 4 requests (input {text!r})",
    )
