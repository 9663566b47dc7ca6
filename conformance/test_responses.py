"""The Responses API wire, stateless (CONTRACT.md §6b; contracts/requirements/responses.yaml).

A candidate claiming `openai.responses` runs every `openai.*` test of the suite
on this wire: the fake answers `POST /v1/responses` from the same scripts, and
the checks read its requests through the view. Its three invariants
(`responses.endpoint`, `responses.request-schema`,
`responses.call-outputs-paired`) judge every request of every test. The tests
here judge what only this wire's answers can carry: a response that ends
failed or incomplete (tp-resp-terminal-failure), a streamed call's arguments
(tp-resp-stream-arguments), and a `response.completed` whose output is empty
(tp-resp-completed-output). The two streamed ones are not testable under
`model_stream: never`. A message item whose text comes in several
`output_text` parts, which only this wire can carry, is judged by the
wire-neutral rules it could break (tp-hist-assistant-text-kept,
tp-loop-completed).
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from toolproof.fakes import Call, DoneEventsOnly, Ended, Text, TextParts, ToolCalls
from toolproof.plugin.scenario import Scenario

from ._calls import (
    FINAL_TEXT,
    answered,
    expect_every_request_answered_with,
    last_assistant,
    message_text,
    messages_of,
    not_streaming,
    received_arguments,
)

ROUTE: Final = "stream"
CALL: Final = Call("stream/lookup", '{"q": "Zürich 🌦, \\"CH\\""}')
RECEIVED: Final[dict[str, Any]] = {"q": 'Zürich 🌦, "CH"'}
"""What the tool receives for CALL, written from the scripted arguments."""


@pytest.mark.parametrize("status", ["failed", "incomplete"])
@pytest.mark.checks("responses.failed-is-model-error")
@pytest.mark.capability("openai.responses")
def test_a_failed_or_incomplete_response_is_a_model_error(tp: Scenario, status: str) -> None:
    """Every attempt ends `status` with a call in its output: no tool runs, and a failed one ends
    the run model_error (upstream-resp-failed-terminal: taken for a completed turn, the call ran).
    After an incomplete one, how the run ends is silent (runtimes differ)."""
    ended = Ended(CALL, status)
    tp.script(ended)
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Look up Zürich, please.", judged=True)
    expect_every_request_answered_with(tp, "responses.failed-is-model-error", ended.note(), what=status)
    tp.expect(
        "responses.failed-is-model-error",
        len(tp.tool_calls_received()),
        0,
        what=f"{status}: tools/call requests while every response ended {status}",
    )
    # The run must have ended by itself: a runtime re-asking forever ran no tool either.
    tp.expect(
        "responses.failed-is-model-error",
        tp.safety_nets(),
        [],
        what=f"{status}: the harness's safety nets that ended the run",
    )
    if status == "failed":
        tp.expect_outcome(
            "responses.failed-is-model-error",
            outcome,
            {"ok": False, "kind": "model_error"},
            what="the run whose every response ended failed",
        )


@pytest.mark.checks("responses.streamed-arguments-from-done")
@pytest.mark.capability("openai.responses")
def test_streamed_arguments_come_from_the_finished_item(tp: Scenario) -> None:
    """`response.output_item.added` carries `arguments: ""`; the finished item carries them all
    (upstream-resp-added-arguments: read at added, the tool got nothing)."""
    if not_streaming(tp, "responses.streamed-arguments-from-done"):
        return
    tp.script(CALL, Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Look up Zürich, please.")
    tp.expect(
        "responses.streamed-arguments-from-done",
        received_arguments(tp, ROUTE),
        [RECEIVED],
        what="what the tool received for the one streamed call",
    )
    tp.expect_outcome(
        "responses.streamed-arguments-from-done",
        outcome,
        {"ok": True, "output": FINAL_TEXT},
        what="the run after the streamed call",
    )


@pytest.mark.checks("responses.items-from-done-events")
@pytest.mark.capability("openai.responses")
def test_completed_with_an_empty_output_is_read_as_declared(tp: Scenario) -> None:
    """The call arrives only in `response.output_item.done`; `response.completed` says
    `output: []` (upstream-resp-empty-completed). yes: it runs; no: it does not."""
    if not_streaming(tp, "responses.items-from-done-events"):
        return
    tp.script(DoneEventsOnly(CALL), Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    tp.run("Look up Zürich, please.", judged=True)
    # Under `no` nothing runs either way: the run must have met the stream (a runtime that failed
    # before asking the model would otherwise pass).
    tp.expect(
        "responses.items-from-done-events",
        [request.note for request in tp.model_requests()][:1],
        [DoneEventsOnly.NOTE],
        what="what answered the run's first model request (none: the model was never asked)",
    )
    reads_done_events = tp.option("items_from_done_events") == "yes"
    tp.expect(
        "responses.items-from-done-events",
        received_arguments(tp, ROUTE),
        [RECEIVED] if reads_done_events else [],
        what=(
            "what the tool received for the call of a response.completed with output [] "
            f"(declared items_from_done_events {tp.option('items_from_done_events')})"
        ),
    )


BESIDE_CALL: Final = "  Checking Zürich 🌦 for you:\n "
"""Text beside the call, whitespace at both ends; split inside the whitespace and inside a word."""
LAST_REPLY: Final = " Zürich: 12 °C,  Genève: 14 °C.\n"


@pytest.mark.checks("hist.assistant-text-kept", "loop.completed-output")
@pytest.mark.capability("openai.responses")
def test_text_in_several_output_text_parts_is_kept_whole(tp: Scenario) -> None:
    """Both replies' text comes in several `output_text` parts of one message item: the echo of the
    first (beside its call) and the run's output (the last) are each the whole text, its parts
    joined with nothing between, as the official client's `output_text` joins them."""
    tp.script(
        TextParts(ToolCalls((CALL,), text=BESIDE_CALL), at=(1, 12, 20)),
        TextParts(Text(LAST_REPLY), at=(8, 16)),
    )
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Look up Zürich, please.", judged=True)
    turns = answered(tp)
    tp.expect(
        "hist.assistant-text-kept",
        message_text(last_assistant(messages_of(turns[1]) if len(turns) > 1 else [])),
        BESIDE_CALL,
        what="the text of the echo of a reply whose text came in four output_text parts beside its call",
    )
    tp.expect_outcome(
        "loop.completed-output",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": LAST_REPLY},
        what="the run whose last reply's text came in three output_text parts",
    )
