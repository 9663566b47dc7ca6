"""Streamed chat completions (CONTRACT.md §6a; contracts/requirements/stream.yaml).

Under `model_stream: always` every other test of the suite already runs on
streams: the fake answers each request as OpenAI streams it, and the checks
read a streamed turn as the assistant message it stands for. The tests here
judge what only a stream can get wrong: how a reply's chunks are assembled
(tp-stream-assembled: under every chunking, exactly what the reply gives with
each string in one fragment) and what a stream that breaks off, or whose body
ends cleanly before its terminal event, may not do (tp-stream-unfinished,
tp-stream-unterminated). Under `model_stream: never` they are not testable.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, Cut, Plan, Streamed, Text, ToolCalls
from toolproof.fakes.sse import TEXT, call_deltas
from toolproof.plugin.draws import run_drawn
from toolproof.plugin.scenario import Scenario
from toolproof.strategies.streams import plans

from ._calls import (
    FINAL_TEXT,
    answered,
    answers_after_last_assistant,
    as_multiset,
    echoed_calls,
    expect_every_request_answered_with,
    expect_json_equal,
    last_assistant,
    message_text,
    messages_of,
    not_streaming,
    received_arguments,
    sent_calls,
)

ROUTE: Final = "stream"
TEXT_BESIDE_CALLS: Final = '  Checking two cities: Zürich 🌦 & "Genève".\n'
"""Streamed before (or between) the calls: whitespace at both ends and non-ASCII, so trimming shows."""

CALLS: Final = (
    Call("stream/lookup", '{"q": "Zürich 🌦"}'),
    Call("stream/lookup", '{"q": "Genève, \\"CH\\" \\u00e9"}'),
)
RECEIVED: Final[list[Any]] = [{"q": "Zürich 🌦"}, {"q": 'Genève, "CH" é'}]
"""What the tools receive for CALLS, written from the scripted arguments."""

REPLY: Final = ToolCalls(CALLS, text=TEXT_BESIDE_CALLS)
PARAMETERLESS: Final = ToolCalls((Call("stream/ping", ""), Call("stream/lookup", '{"q": "up?"}')))
"""A call to a tool without parameters streams `arguments: ""` and nothing more (its opener only)."""


def one_fragment(reply: ToolCalls) -> Plan:
    """Every string of `reply` in one fragment: the chunking every other is held to."""
    return Plan(arguments=tuple(() for _ in reply.calls))


def every_character(text: str) -> tuple[int, ...]:
    """Cuts before every character but the first: one character per fragment."""
    return tuple(range(1, len(text)))


def round_robin(counts: Sequence[int]) -> tuple[int, ...]:
    """Call positions taking turns delta by delta (interleaved by index) until each is done."""
    turns = itertools.zip_longest(*([i] * n for i, n in enumerate(counts)))
    return tuple(i for turn in turns for i in turn if i is not None)


def eights(text: str) -> tuple[int, ...]:
    """Cuts every eight characters (OpenAI's fragments are a few characters each)."""
    return tuple(range(8, len(text), 8))


EIGHTS: Final = tuple(eights(call.arguments) for call in CALLS)
FIRST, SECOND = call_deltas(REPLY, EIGHTS)
TEXT_FRAGMENTS: Final = len(eights(TEXT_BESIDE_CALLS)) + 1

SHAPES: Final[dict[str, tuple[ToolCalls, Plan]]] = {
    "one-character-fragments": (
        REPLY,
        Plan(
            text=every_character(TEXT_BESIDE_CALLS),
            arguments=tuple(every_character(call.arguments) for call in CALLS),
        ),
    ),
    "interleaved-calls": (ToolCalls(CALLS), Plan(arguments=EIGHTS, order=round_robin((FIRST, SECOND)))),
    # Text after the first call and before the second (gateways send text among calls).
    "text-between-calls": (
        REPLY,
        Plan(
            text=eights(TEXT_BESIDE_CALLS),
            arguments=EIGHTS,
            order=(0,) * FIRST + (TEXT,) * TEXT_FRAGMENTS + (1,) * SECOND,
        ),
    ),
    # The text cut in two by the first call's deltas: content deltas concatenate, whatever
    # comes between them.
    "text-around-a-call": (
        REPLY,
        Plan(
            text=eights(TEXT_BESIDE_CALLS),
            arguments=EIGHTS,
            order=(TEXT,) * 2 + (0,) * FIRST + (TEXT,) * (TEXT_FRAGMENTS - 2) + (1,) * SECOND,
        ),
    ),
    "empty-content-beside-calls": (ToolCalls(CALLS), Plan(arguments=EIGHTS, empty_content=True)),
    "parameterless-call": (PARAMETERLESS, Plan(arguments=((), eights(PARAMETERLESS.calls[1].arguments)))),
    "sse-comments": (REPLY, Plan(text=eights(TEXT_BESIDE_CALLS), arguments=EIGHTS, comments=True)),
    "done-without-space": (REPLY, Plan(text=eights(TEXT_BESIDE_CALLS), arguments=EIGHTS, compact_done=True)),
}
"""Each named shape: the reply, and how its stream is cut and shaped."""

RECEIVED_BY_REPLY: Final[dict[ToolCalls, list[Any]]] = {
    REPLY: RECEIVED,
    ToolCalls(CALLS): RECEIVED,
    PARAMETERLESS: [{}, {"q": "up?"}],
}
"""What the tools receive for each reply, written from its scripted arguments."""

ECHOED_ARGUMENTS: Final[dict[ToolCalls, list[dict[str, Any]]]] = {
    REPLY: [{"arguments": RECEIVED[0]}, {"arguments": RECEIVED[1]}],
    ToolCalls(CALLS): [{"arguments": RECEIVED[0]}, {"arguments": RECEIVED[1]}],
    # The echo of arguments "" is silent (tp-hist-calls-echoed speaks of object arguments).
    PARAMETERLESS: [{}, {"arguments": {"q": "up?"}}],
}
"""Per call of each reply, the echoed arguments the contract pins (none for a call sent "")."""


def echoed(message: Any, reply: ToolCalls) -> list[dict[str, Any]]:
    """id and name of each call an echoed assistant message carries, and its parsed arguments
    where ECHOED_ARGUMENTS pins them."""
    pinned = ECHOED_ARGUMENTS[reply]
    return [
        {key: value for key, value in call.items() if key != "arguments" or i >= len(pinned) or pinned[i]}
        for i, call in enumerate(echoed_calls(message))
    ]


def expected_echo(sent: list[dict[str, Any]], reply: ToolCalls) -> list[dict[str, Any]]:
    """The calls the fake sent (id, name), with the arguments ECHOED_ARGUMENTS pins."""
    return [
        {"id": call["id"], "name": call["name"], **pinned}
        for call, pinned in zip(sent, ECHOED_ARGUMENTS[reply], strict=True)
    ]


def judge_streamed_reply(tp: Scenario, check_id: str, reply: ToolCalls, plan: Plan, *, what: str) -> None:
    """Script `reply` streamed under `plan`, then the final text; pin what the run did.

    Pinned: the run completes with the final text, two model turns, the tools receive
    exactly the scripted arguments (in any order: the calls of one batch may run at
    once), and the second request echoes the reply's text and calls and answers each
    call. Each is what the same reply gives with every string in one fragment.
    """
    tp.script(Streamed(reply, plan), Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Check both cities, please.", judged=True)
    tp.expect_outcome(
        check_id,
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what=f"{what}: the run",
    )
    turns = answered(tp)
    second = messages_of(turns[1]) if len(turns) > 1 else []
    expect_json_equal(
        tp,
        check_id,
        as_multiset(received_arguments(tp, ROUTE)),
        as_multiset(RECEIVED_BY_REPLY[reply]),
        what=f"{what}: the arguments the tools received (any order)",
    )
    tp.expect(
        check_id,
        {
            "model turns": len(turns),
            "echoed text": message_text(last_assistant(second)),
            "echoed calls": echoed(last_assistant(second), reply),
            "answered calls": answers_after_last_assistant(second),
        },
        {
            "model turns": 2,
            "echoed text": reply.text or "",
            # The ids and names are the fake's own (its record of what it sent).
            "echoed calls": expected_echo(sent_calls(turns[0]), reply),
            "answered calls": sorted(call["id"] for call in sent_calls(turns[0])),
        },
        what=f"{what}: the second request (the echo of the streamed reply and its tool messages)",
    )


@pytest.mark.checks("stream.chunking-invariant")
@pytest.mark.capability("openai.chat")
def test_any_chunking_gives_the_same_calls_text_and_end(tp: Scenario) -> None:
    """Hypothesis draws where each string is cut and how calls (and text) interleave."""
    if not_streaming(tp, "stream.chunking-invariant"):
        return

    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        # Each example is a whole build and run: shrinking a failure would cost minutes.
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(plan=plans(REPLY))
    def example(plan: Plan) -> None:
        judge_streamed_reply(tp.sibling(), "stream.chunking-invariant", REPLY, plan, what=f"chunking {plan}")

    # The unchunked reply first: the one every drawn chunking is held to.
    judge_streamed_reply(
        tp, "stream.chunking-invariant", REPLY, one_fragment(REPLY), what="one fragment each"
    )
    run_drawn(example)  # on the run's seeds (toolproof.plugin.draws)


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.checks("stream.named-shapes")
@pytest.mark.capability("openai.chat")
def test_historical_stream_shapes(tp: Scenario, shape: str) -> None:
    """Each shape broke a real accumulator or parser (contracts/sources.md, upstream-stream-*)."""
    if not_streaming(tp, "stream.named-shapes"):
        return
    reply, plan = SHAPES[shape]
    judge_streamed_reply(tp, "stream.named-shapes", reply, plan, what=shape)


CUTS: Final = {
    "inside-the-arguments-dropped": Cut(REPLY, call=0, at=9, ending="abort"),
    "inside-the-arguments-error-event": Cut(REPLY, call=0, at=9, ending="error"),
    "after-a-complete-call-dropped": Cut(REPLY, call=1, at=6, ending="abort"),
    "after-a-complete-call-error-event": Cut(REPLY, call=1, at=6, ending="error"),
}


def judge_unfinished(tp: Scenario, check_id: str, cut: Cut, *, what: str) -> None:
    """Every attempt is `cut`: pin that no tool runs and that the run ends model_error."""
    tp.script(cut)
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome: Outcome = tp.run("Check both cities, please.", judged=True)
    expect_every_request_answered_with(tp, check_id, cut.note(), what=what)
    tp.expect(
        check_id,
        len(tp.tool_calls_received()),
        0,
        what=f"{what}: tools/call requests while every stream was unfinished",
    )
    tp.expect_outcome(
        check_id,
        outcome,
        {"ok": False, "kind": "model_error"},
        what=f"{what}: the run whose every model stream was unfinished",
    )


@pytest.mark.parametrize("cut", list(CUTS))
@pytest.mark.checks("stream.unfinished-never-run")
@pytest.mark.capability("model.*")
def test_a_stream_that_breaks_off_runs_no_tool(tp: Scenario, cut: str) -> None:
    """Every attempt breaks off: no tool runs, and the run ends model_error.

    After a complete first call, its arguments already parse as JSON: a runtime that
    finalises a call on a parsable prefix runs it (upstream-stream-partial-json).
    """
    if not_streaming(tp, "stream.unfinished-never-run"):
        return
    judge_unfinished(tp, "stream.unfinished-never-run", CUTS[cut], what=cut)


ENDED_EARLY: Final = {
    "inside-the-arguments": Cut(REPLY, call=0, at=9, ending="clean"),
    "after-a-complete-call": Cut(REPLY, call=1, at=6, ending="clean"),
    # Every delta of the reply but the finish_reason chunk and [DONE] (on the Responses wire the
    # second call's `.done` events and `response.completed`; on the Messages wire the second
    # block's `content_block_stop`, `message_delta` and `message_stop`): both calls' arguments are whole.
    "every-argument-sent": Cut(REPLY, call=1, at=len(CALLS[1].arguments), ending="clean"),
}


@pytest.mark.parametrize("cut", list(ENDED_EARLY))
@pytest.mark.checks("stream.unterminated-never-run")
@pytest.mark.capability("model.*")
def test_a_stream_that_ends_before_its_terminal_event_runs_no_tool(tp: Scenario, cut: str) -> None:
    """Every attempt's body ends normally, at an event boundary, before the stream's terminal event
    (no finish_reason and no [DONE]; no response.completed; no message_stop): no tool runs, the run
    ends model_error (upstream-stream-no-terminal-event)."""
    if not_streaming(tp, "stream.unterminated-never-run"):
        return
    judge_unfinished(tp, "stream.unterminated-never-run", ENDED_EARLY[cut], what=f"ended early, {cut}")
