"""The Responses API with server-side state (CONTRACT.md §6e; contracts/requirements/responses_state.yaml).

The fake keeps every completed response it answers (unless `store: false`) and
reads a chained request as the whole conversation it stands for, so every
wire-neutral test of the suite judges a chained runtime unchanged (through the
view). Four invariants judge every request of every test:
`responses.previous-id-never-null`, `responses.references-resolve`,
`responses.chain-outputs-paired`, `responses.unstored-never-referenced`. The
tests here judge what only a stored conversation can get wrong: which response
a request names, what it sends again beside it, a refused chain, a chain
carried into the next run. A stateless candidate (`responses_state:
stateless`) is not testable on them: its requests name nothing stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any, Final

import pytest

from toolproof.fakes import Call, Forgotten, ModelRequest, Reasoned, Text, ToolCalls
from toolproof.fakes.views import chat_view
from toolproof.plugin.scenario import Scenario

from ._calls import FINAL_TEXT, input_items

ROUTE: Final = "stream"
CALL: Final = Call("stream/lookup", '{"q": "Zürich"}')
SECOND_CALL: Final = Call("stream/lookup", '{"q": "Genève"}')
BESIDE_CALL: Final = "Checking Zürich."
STORED: Final = ("previous_response_id", "item_reference")
REFUSED_STATUS: Final = {"previous_response_id": 400, "item_reference": 404}
"""How the API refuses a request naming an expired response: by previous_response_id, 400
(`previous_response_not_found`); by item_reference, 404 (an unknown item)."""


def state_not_declared(tp: Scenario, states: tuple[str, ...], *check_ids: str) -> bool:
    """Record not_testable unless `responses_state` is one of `states`; True when it is not."""
    state = tp.option("responses_state")
    if state in states:
        return False
    for check_id in check_ids:
        tp.not_testable(check_id, f"declares responses_state {state}: its requests name no stored response")
    return True


def reasoning_config(tp: Scenario) -> dict[str, Any]:
    """CONFIG for the `stream` route under the declared reasoning model's name."""
    config = tp.config({"stream": tp.server(ROUTE)})
    config["model"]["name"] = tp.option("reasoning_model_name")
    return config


def body_of(request: ModelRequest) -> Mapping[str, Any]:
    """A request's JSON body ({} when it is no JSON object: the request schema judges that)."""
    return request.json if isinstance(request.json, Mapping) else {}


def sent_again(first: ModelRequest, second: ModelRequest) -> list[Any]:
    """What the chained request `second` sends of what the response to `first` holds: a message of
    the conversation `first` stood for or of its answer (as the view reads it), a function call by
    its `call_id`, a reasoning item by its `id`."""
    held_messages = [*(first.view or {}).get("messages", []), first.message]
    output = first.response.get("output", []) if isinstance(first.response, Mapping) else []
    held_reasoning = [item.get("id") for item in output if item.get("type") == "reasoning"]
    held_calls = [call["id"] for call in (first.message or {}).get("tool_calls", [])]
    items = input_items(second)
    found: list[Any] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        kind = item.get("type")
        if kind == "reasoning":
            if item.get("id") in held_reasoning:
                found.append(item)
        elif kind == "function_call":
            if item.get("call_id") in held_calls:
                found.append(item)
        else:  # a message, as the view reads it (a tool result is new: its output was never held)
            messages = chat_view({"input": [item]})["messages"]
            if messages and messages[0] in held_messages and messages[0].get("role") != "tool":
                found.append(item)
    return found


@pytest.mark.parametrize("opening", ["call", "reasoning"])
@pytest.mark.checks("responses.chain-names-last-response", "responses.chain-no-resend")
@pytest.mark.capability("openai.responses")
def test_each_request_names_the_last_response(tp: Scenario, opening: str) -> None:
    """Two tool turns, then a text reply: each request sending a tool result names the response
    that asked for it, the last one, not the first (upstream-resp-chain-not-updated), and sends
    nothing that response holds again: not the user message, not a call, not the reasoning item
    that preceded the first call (upstream-resp-chain-resend)."""
    checks = ("responses.chain-names-last-response", "responses.chain-no-resend")
    if state_not_declared(tp, ("previous_response_id",), *checks):
        return
    if opening == "reasoning":
        tp.script(Reasoned(CALL), SECOND_CALL, Text(FINAL_TEXT))
        config = reasoning_config(tp)
    else:
        tp.script(CALL, SECOND_CALL, Text(FINAL_TEXT))
        config = tp.config({"stream": tp.server(ROUTE)})
    tp.build(config)
    outcome = tp.run("Look up Zürich, then Genève, please.", judged=True)
    requests = tp.model_requests()
    # First: a resent item the API refuses ends the run early, and this is its root cause.
    tp.expect(
        "responses.chain-no-resend",
        [sent_again(first, second) for first, second in pairwise(requests)],
        [[], []],
        what="items of each chained request that the response before it already holds",
    )
    tp.expect_needed(
        "responses.chain-names-last-response",
        len(requests),
        3,
        what="model requests of a run answered with two tool turns, then text",
    )
    tp.expect(
        "responses.chain-names-last-response",
        [body_of(request).get("previous_response_id", "(absent)") for request in requests[1:]],
        [f"resp_{tp.token}_0", f"resp_{tp.token}_1"],
        what="previous_response_id of the two requests that send tool results",
    )
    tp.expect_outcome(
        "responses.chain-names-last-response",
        outcome,
        {"ok": True, "output": FINAL_TEXT},
        what="the chained run",
    )


@pytest.mark.checks("responses.item-references-as-declared")
@pytest.mark.capability("openai.responses")
def test_the_turns_items_are_named_by_reference(tp: Scenario) -> None:
    """Under item_reference, the request sending the tool result names the turn's message item (its
    text beside the call) by reference, `msg_...`, and sends no previous_response_id. How it sends
    the call is silent: by reference or in full without its item id are both valid input, and the
    AI SDK sends client calls in full on purpose (upstream-resp-call-id, vercel/ai PR #15795)."""
    check = "responses.item-references-as-declared"
    if state_not_declared(tp, ("item_reference",), check):
        return
    tp.script(ToolCalls((CALL,), text=BESIDE_CALL), Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Look up Zürich, please.", judged=True)
    requests = tp.model_requests()
    tp.expect_needed(
        check, len(requests), 2, what="model requests of a run answered with a tool turn, then text"
    )
    body = body_of(requests[1])
    items = input_items(requests[1])
    tp.expect(
        check,
        {
            "message items named": [
                item.get("id")
                for item in items
                if isinstance(item, Mapping)
                and item.get("type") == "item_reference"
                and str(item.get("id")).startswith("msg_")
            ],
            "assistant messages sent in full": [
                item.get("content")
                for item in items
                if isinstance(item, Mapping) and item.get("role") == "assistant"
            ],
            "previous_response_id": body.get("previous_response_id", "(absent)"),
        },
        {
            "message items named": [f"msg_{tp.token}_0"],
            "assistant messages sent in full": [],
            "previous_response_id": "(absent)",
        },
        what="how the request sending the tool result carries the turn's text",
    )
    tp.expect_outcome(check, outcome, {"ok": True, "output": FINAL_TEXT}, what="the run")


@pytest.mark.checks("responses.chain-refused-is-model-error")
@pytest.mark.capability("openai.responses")
def test_a_refused_chain_ends_the_run_model_error(tp: Scenario) -> None:
    """The stored response expires before the tool result is sent: the API refuses the chained
    request (400 previous_response_not_found; an expired referenced item: 404). The run ends
    model_error, and no tool runs after it."""
    check = "responses.chain-refused-is-model-error"
    if state_not_declared(tp, STORED, check):
        return
    # Text beside the call: a runtime under item_reference names its message item (a call it may
    # send in full), so the expired response is named either way.
    tp.script(ToolCalls((CALL,), text=BESIDE_CALL), Forgotten(Text(FINAL_TEXT)))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Look up Zürich, please.", judged=True)
    tp.expect_needed(
        check,
        [request.status for request in tp.model_requests()][:2],
        [200, REFUSED_STATUS[tp.option("responses_state")]],
        what="how the API answered the run's first two model requests (the second chains to an expired one)",
    )
    tp.expect(
        check, len(tp.tool_calls_received()), 1, what="tools/call requests (the one before the refusal)"
    )
    tp.expect_outcome(
        check, outcome, {"ok": False, "kind": "model_error"}, what="the run whose chained request was refused"
    )


@pytest.mark.checks("responses.chain-across-runs")
@pytest.mark.capability("openai.responses")
def test_the_next_run_continues_the_stored_conversation(tp: Scenario) -> None:
    """Two runs of one build (runs_per_build conversation): the second run's first request names
    the first run's last response (previous_response_id), or its message item (item_reference)."""
    check = "responses.chain-across-runs"
    if state_not_declared(tp, STORED, check):
        return
    if tp.option("runs_per_build") != "conversation":
        tp.not_testable(check, f"declares runs_per_build {tp.option('runs_per_build')}: runs share nothing")
        return
    tp.script(Text("First answer."), Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    tp.run("First question.")
    second = tp.run("Second question.", judged=True)
    requests = tp.model_requests()
    tp.expect_needed(check, len(requests), 2, what="model requests of two runs answered with text")
    body = body_of(requests[1])
    if tp.option("responses_state") == "previous_response_id":
        tp.expect(
            check,
            body.get("previous_response_id", "(absent)"),
            f"resp_{tp.token}_0",
            what="previous_response_id of the second run's first request",
        )
    else:
        items = input_items(requests[1])
        tp.expect(
            check,
            [
                item.get("id")
                for item in items
                if isinstance(item, Mapping) and item.get("type") == "item_reference"
            ],
            [f"msg_{tp.token}_0"],
            what="the item references of the second run's first request",
        )
    tp.expect_outcome(check, second, {"ok": True, "output": FINAL_TEXT}, what="the second run")
