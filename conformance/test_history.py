"""History and echo: what each model request carries (CONTRACT.md §9; contracts/requirements/calls.yaml).

"Request k" counts model turns (requests answered 200). Synthetic
continuation messages are recognised as §2 defines them (a role "user"
message whose text is the declared `continuation`); no input here ever uses
that text. Whether an assistant message without text has `content` null,
"" or none is silent: only the §2 text of a message is compared.

A message's optional participant `name` (role system, developer, user or assistant) is metadata
the published chat-completions schema defines (contracts/sources.md `openai-message-name`): the
checks that compare whole messages leave exactly that field out (`OPTIONAL_METADATA`), and compare
every other field as it is, `content` and `tool_calls` included. (A Responses request's view
carries a message item's role and content only: the published items have no `name`.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.plugin.scenario import Scenario

from ._calls import (
    FINAL_TEXT,
    added,
    answered,
    carried,
    echoed_calls,
    expect_json_equal,
    last_assistant,
    message_text,
    messages_of,
    parsed_arguments,
    role,
    sent_calls,
)

OPTIONAL_METADATA: Final[Mapping[str, frozenset[str]]] = {
    "system": frozenset({"name"}),
    "developer": frozenset({"name"}),
    "user": frozenset({"name"}),
    "assistant": frozenset({"name"}),
}
"""Per role, the fields the published chat-completions schema makes optional participant metadata
(`ChatCompletionRequest{System,Developer,User,Assistant}Message.name`: "An optional name for the
participant"). A literal list: no history check compares them, and nothing else is left out."""


def compared(message: Any) -> Any:
    """`message` as the history checks compare it: less the `OPTIONAL_METADATA` fields of its role."""
    if not isinstance(message, Mapping):
        return message
    left_out = OPTIONAL_METADATA.get(str(role(message)), frozenset())
    return {key: value for key, value in message.items() if key not in left_out}


def compared_messages(request: Any) -> list[Any]:
    """The `messages` of one recorded request, each as the history checks compare it."""
    return [compared(message) for message in messages_of(request)]


TEXT_BESIDE_CALLS: Final = '  Let me check: Zürich 🌦 & "Genève".\n'
"""Text sent beside tool calls: leading/trailing whitespace and non-ASCII, so trimming shows."""


def _two_tool_rounds(tp: Scenario) -> None:
    """A batch of two calls with text beside them, then one call, then the final text."""
    tp.script(
        ToolCalls(
            (
                Call("alpha/lookup", '{"q": "Zürich", "extra": {"n": [1, -2.5, null]}}'),
                Call("alpha/echo_text", '{"text":"a\\u00a0b"}'),
            ),
            text=TEXT_BESIDE_CALLS,
        ),
        Call("alpha/lookup", '  {"q" : "Genève"}  '),
        Text(FINAL_TEXT),
    )
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run("Look up the weather in two cities.")


@pytest.mark.checks("hist.first-request-ends-with-input")
@pytest.mark.capability("model.*")
def test_each_run_starts_with_its_input(tp: Scenario) -> None:
    inputs = ["  Wie wird das Wetter in Zürich? 🌦\n", "second\trun, same build "]
    tp.script(Text("first answer"), Text("second answer"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    observed = []
    for text in inputs:
        before = len(answered(tp))
        tp.run(text)
        turns = answered(tp)
        last = messages_of(turns[before])[-1:] if len(turns) > before else []
        observed.append([{"role": role(m), "text": message_text(m)} for m in last])
    tp.expect(
        "hist.first-request-ends-with-input",
        observed,
        [[{"role": "user", "text": text}] for text in inputs],
        what="the last message of each run's first model request",
    )


@pytest.mark.checks("hist.append-only")
@pytest.mark.capability("model.*")
def test_history_is_append_only(tp: Scenario) -> None:
    _two_tool_rounds(tp)
    continuation = tp.option("continuation")
    bodies = [compared_messages(r) for r in answered(tp)]
    observed: list[Any] = [len(bodies)]
    expected: list[Any] = [3]
    for previous, current in itertools.pairwise(bodies):
        kept = carried(previous, current, continuation)
        tail = added(previous, current, continuation)
        echo = tail[0] if tail else {}
        observed.append(
            {
                "kept": current[: len(kept)],
                "roles added": [role(m) for m in tail],
                "answers": sorted(str(m.get("tool_call_id")) for m in tail if role(m) == "tool"),
            }
        )
        ids = sorted(str(call["id"]) for call in echoed_calls(echo))
        expected.append({"kept": kept, "roles added": ["assistant"] + ["tool"] * len(ids), "answers": ids})
    tp.expect(
        "hist.append-only",
        observed,
        expected,
        what="model turns, then per request k+1: request k carried unchanged (a message's optional "
        "participant name not compared), then the echo of reply k and the tool messages answering its calls",
    )


@pytest.mark.checks("hist.calls-echoed", "hist.assistant-text-kept")
@pytest.mark.capability("model.*")
def test_echo_keeps_calls_and_text(tp: Scenario) -> None:
    _two_tool_rounds(tp)
    turns = answered(tp)
    observed: list[Any] = [len(turns), *(echoed_calls(last_assistant(messages_of(r))) for r in turns[1:])]
    expected: list[Any] = [
        3,
        *(
            [{**call, "arguments": parsed_arguments(call["arguments"])} for call in sent_calls(r)]
            for r in turns[:-1]
        ),
    ]
    expect_json_equal(
        tp,
        "hist.calls-echoed",
        observed,
        expected,
        what="model turns, then per request k+1 the calls echoing reply k (id, name, parsed arguments)",
    )
    tp.expect(
        "hist.assistant-text-kept",
        message_text(last_assistant(messages_of(turns[1]) if len(turns) > 1 else [])),
        TEXT_BESIDE_CALLS,
        what="the text of the echo of a reply that carried text beside its two calls",
    )


RUN_ONE: Final = "Run one: look up ticket 4711."
RUN_TWO: Final = "Run two: anything new?"
RUN_ONE_REPLY: Final = "Ticket 4711 is open."
REPROMPT_REPLY: Final = "Ticket 4711 is still open."
"""Run one's reply to the re-prompt that follows its empty reply (`empty_reply: reprompts`)."""


def _second_run(tp: Scenario, check_id: str, run_one_reply: str) -> None:
    """Run one (a tool round, then the final reply `run_one_reply`), then run two; judge run two.

    The input, call arguments and tool result of run one carry the marker 4711. A runtime that
    declares `empty_reply: reprompts` asks once more after an empty `run_one_reply`: that request
    gets its own scripted reply, which ends run one (what the re-prompt holds is silent, and
    loop.completed-empty-output judges the re-prompt itself), so run two still meets its reply.
    """
    reprompted = run_one_reply == "" and tp.option("empty_reply") == "reprompts"
    final = REPROMPT_REPLY if reprompted else run_one_reply
    replies = [Call("alpha/lookup", '{"q": "ticket-4711"}'), Text(run_one_reply)]
    tp.script(*replies, *([Text(REPROMPT_REPLY)] if reprompted else []), Text("Nothing new."))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    first = tp.run(RUN_ONE, judged=True)
    # Run one's output is pinned too: a runtime that ends run one elsewhere (a reply too many or
    # too few) fails here, naming run one, and not on what run two's request holds.
    tp.expect_outcome(
        check_id,
        first,
        {"ok": True, "stop_reason": "completed", "output": final},
        what="run one (a completed run is what the rule speaks about)",
    )
    one = len(answered(tp))
    tp.run(RUN_TWO)
    turns = answered(tp)
    if tp.option("runs_per_build") == "independent":
        leaked = [m for r in turns[one:] for m in messages_of(r) if "4711" in json.dumps(m)]
        tp.expect(
            check_id,
            leaked,
            [],
            what="declared independent: messages of run two's requests that come from run one",
        )
        return
    previous = compared_messages(turns[one - 1])
    current = compared_messages(turns[one]) if len(turns) > one else []
    kept = carried(previous, current, tp.option("continuation"))
    tail = [
        {"role": role(m), "text": message_text(m), "tool_calls": len(echoed_calls(m))}
        for m in current[len(kept) :]
    ]
    echo = {"role": "assistant", "text": final, "tool_calls": 0}
    if final == "":
        # A reply with no text and no calls carries nothing: whether a later run echoes it is
        # silent (the chat API accepts the history either way), so the check reads the
        # messages without that empty echo, and judges the rest exactly.
        tail = [m for m in tail if m != echo]
    tp.expect(
        check_id,
        {"kept": current[: len(kept)], "then": tail},
        {
            "kept": kept,
            "then": [
                *([echo] if final else []),
                {"role": "user", "text": RUN_TWO, "tool_calls": 0},
            ],
        },
        what="declared conversation: run two's first request = run one's last request, "
        "the echo of run one's final reply, the new input (a message's optional participant name "
        "not compared)",
    )


@pytest.mark.checks("hist.runs-per-build")
@pytest.mark.capability("model.*")
def test_second_run_follows_runs_per_build(tp: Scenario) -> None:
    _second_run(tp, "hist.runs-per-build", RUN_ONE_REPLY)


@pytest.mark.checks("hist.runs-per-build-textless-reply")
@pytest.mark.capability("model.*")
def test_second_run_after_a_textless_final_reply(tp: Scenario) -> None:
    """Run one ends with a reply whose text is "" and no calls: run two still carries run one and
    the new input, nothing invented. Whether the empty reply is echoed at all is silent."""
    _second_run(tp, "hist.runs-per-build-textless-reply", "")
