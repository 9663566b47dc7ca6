"""Self-tests of the Responses API endings other than `completed`: `Ended` and `DoneEventsOnly`.

`Ended` answers a response whose status is `failed` or `incomplete` (its
items present all the same), on every attempt; `DoneEventsOnly` streams a
`response.completed` with `output: []`, the items only in the
`response.output_item.done` events. Both are Responses API only. Expected
values are literal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai
import pytest
from endpoint_support import (  # tests/fakes
    CHAT_TOOLS,
    RESPONSES_REQUEST,
    RESPONSES_TOOLS,
    TWO_CALLS,
    client,
    run,
    two_calls_message,
)

from toolproof.fakes import Call, DoneEventsOnly, Ended, ModelEndpoint, Text
from toolproof.fakes.responses import done_events_only, ended_events, ended_response

TOOLS = RESPONSES_TOOLS
REQUEST = RESPONSES_REQUEST
CALL = Call("alpha/lookup", '{"q":"weather"}')
FAILED_ERROR: dict[str, Any] = {
    "code": "server_error",
    "message": "toolproof: the response failed (scripted)",
}


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(responses=True) as endpoint:
        yield endpoint


# -- the pure renderer ------------------------------------------------------


def test_ended_status_is_failed_or_incomplete() -> None:
    with pytest.raises(ValueError, match="must be one of") as caught:
        Ended(CALL, "completed")
    assert str(caught.value) == "Ended.status must be one of ('failed', 'incomplete'), got 'completed'"


def two_calls_output(status: str) -> list[dict[str, Any]]:
    """TWO_CALLS' output items answered to request 0 of token tk, each with `status`."""
    return [
        {
            "id": "msg_tk_0",
            "type": "message",
            "status": status,
            "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "On it."}],
            "role": "assistant",
        },
        {
            "id": "fc_tk_0_0",
            "type": "function_call",
            "status": status,
            "arguments": '{"q":"a"}',
            "call_id": "call_tk_0_0",
            "name": "alpha__lookup",
        },
        {
            "id": "fc_tk_0_1",
            "type": "function_call",
            "status": status,
            "arguments": "",
            "call_id": "call_tk_0_1",
            "name": "alpha__output_send__qq",
        },
    ]


def ended(status: str, output: list[dict[str, Any]], **why: Any) -> dict[str, Any]:
    """The response object of TWO_CALLS ended with `status` (`why`: its error or incomplete_details)."""
    return {
        "id": "resp_tk_0",
        "object": "response",
        "created_at": 1767225600,
        "status": status,
        "completed_at": None,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": TOOLS,
        # `input: "hi"` is 1 token, TWO_CALLS' chat message 69.
        "usage": {
            "input_tokens": 1,
            "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0},
            "output_tokens": 69,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 70,
        },
        "metadata": {},
        **why,
    }


FAILED = ended("failed", two_calls_output("completed"), error=FAILED_ERROR)
INCOMPLETE = ended(
    "incomplete", two_calls_output("incomplete"), incomplete_details={"reason": "max_output_tokens"}
)


def test_a_failed_response_keeps_its_items() -> None:
    assert ended_response(Ended(TWO_CALLS, "failed"), REQUEST, "tk", 0) == FAILED


def test_an_incomplete_response_keeps_its_items_incomplete() -> None:
    assert ended_response(Ended(TWO_CALLS, "incomplete"), REQUEST, "tk", 0) == INCOMPLETE


def test_a_failed_stream_ends_with_error_then_failed() -> None:
    stream = ended_events(Ended(TWO_CALLS, "failed"), REQUEST, "tk", 0)
    # TWO_CALLS' 16 events up to its last `response.output_item.done`, then the failure's end.
    assert [e["sequence_number"] for e in stream] == list(range(18))
    assert stream[15] == {
        "type": "response.output_item.done",
        "item": two_calls_output("completed")[2],
        "output_index": 2,
        "sequence_number": 15,
    }
    assert stream[16:] == [
        {
            "type": "error",
            "code": "server_error",
            "message": "toolproof: the response failed (scripted)",
            "param": None,
            "sequence_number": 16,
        },
        {"type": "response.failed", "response": FAILED, "sequence_number": 17},
    ]
    assert [e["type"] for e in stream].count("response.completed") == 0


def test_an_incomplete_stream_ends_with_incomplete() -> None:
    stream = ended_events(Ended(TWO_CALLS, "incomplete"), REQUEST, "tk", 0)
    assert [e["sequence_number"] for e in stream] == list(range(17))
    assert stream[15]["type"] == "response.output_item.done"
    assert stream[16] == {"type": "response.incomplete", "response": INCOMPLETE, "sequence_number": 16}
    assert [e["type"] for e in stream].count("response.completed") == 0


def test_done_events_only_empties_the_completed_output() -> None:
    stream = done_events_only(TWO_CALLS, REQUEST, "tk", 0)
    assert [e["sequence_number"] for e in stream] == list(range(17))
    assert [e["item"] for e in stream if e["type"] == "response.output_item.done"] == two_calls_output(
        "completed"
    )
    completed = ended("completed", [], completed_at=1767225600)
    assert stream[-1] == {"type": "response.completed", "response": completed, "sequence_number": 16}


# -- over HTTP, with the official client ------------------------------------


async def plain(model: ModelEndpoint, token: str) -> Any:
    async with client(model, token) as c:
        return await c.responses.create(model="gpt-test", input="hi", tools=TOOLS)


async def streamed(model: ModelEndpoint, token: str) -> list[Any]:
    async with client(model, token) as c:
        stream = await c.responses.create(model="gpt-test", input="hi", tools=TOOLS, stream=True)
        return [e async for e in stream]


async def chat(model: ModelEndpoint, token: str) -> Any:
    async with client(model, token) as c:
        messages: Any = [{"role": "user", "content": "hi"}]
        return await c.chat.completions.create(model="gpt-test", messages=messages, tools=CHAT_TOOLS)


def calls(output: list[Any]) -> list[tuple[str, str, str]]:
    """(call_id, name, status) of the function call items of `output`, in order."""
    return [(item.call_id, item.name, item.status) for item in output if item.type == "function_call"]


def test_a_failed_plain_response(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Ended(CALL, "failed")])
    answer = run(plain(model, token))
    assert (answer.status, answer.error.code, answer.error.message, answer.incomplete_details) == (
        "failed",
        "server_error",
        "toolproof: the response failed (scripted)",
        None,
    )
    assert calls(answer.output) == [(f"call_{token}_0_0", "alpha__lookup", "completed")]
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (200, "response ended failed", None)
    assert record.note == Ended(CALL, "failed").note()


def test_an_incomplete_plain_response(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Ended(CALL, "incomplete")])
    answer = run(plain(model, token))
    assert (answer.status, answer.error, answer.incomplete_details.reason) == (
        "incomplete",
        None,
        "max_output_tokens",
    )
    assert calls(answer.output) == [(f"call_{token}_0_0", "alpha__lookup", "incomplete")]
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (200, "response ended incomplete", None)


def test_a_failed_stream(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Ended(CALL, "failed")])
    stream = run(streamed(model, token))
    assert [e.type for e in stream] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        # The default plan sends the 15 characters of arguments as two deltas.
        "response.function_call_arguments.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "error",
        "response.failed",
    ]
    assert [e.sequence_number for e in stream] == list(range(9))
    assert (stream[7].code, stream[7].message) == (
        "server_error",
        "toolproof: the response failed (scripted)",
    )
    assert (stream[8].response.status, stream[8].response.error.code) == ("failed", "server_error")
    assert calls(stream[8].response.output) == [(f"call_{token}_0_0", "alpha__lookup", "completed")]
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (200, "response ended failed", None)


def test_an_incomplete_stream(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Ended(CALL, "incomplete")])
    stream = run(streamed(model, token))
    assert [e.type for e in stream][-3:] == [
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.incomplete",
    ]
    assert [e.sequence_number for e in stream] == list(range(8))
    assert (stream[-1].response.status, stream[-1].response.incomplete_details.reason) == (
        "incomplete",
        "max_output_tokens",
    )
    assert calls(stream[-1].response.output) == [(f"call_{token}_0_0", "alpha__lookup", "incomplete")]


def test_ended_answers_every_attempt(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("first"), Ended(CALL, "failed")])
    statuses = [run(plain(model, token)).status for _ in range(3)]
    assert statuses == ["completed", "failed", "failed"]
    assert [r.note for r in model.requests(token)] == ["", "response ended failed", "response ended failed"]


def test_ended_must_come_last(model: ModelEndpoint, token: str) -> None:
    with pytest.raises(ValueError, match="must be the last reply") as caught:
        model.script(token, [Ended(CALL, "failed"), Text("after")])
    assert str(caught.value) == "Ended answers every remaining request: it must be the last reply"


@pytest.mark.parametrize(
    ("scripted", "name"),
    [(Ended(CALL, "failed"), "Ended"), (DoneEventsOnly(CALL), "DoneEventsOnly")],
    ids=["ended", "done-events-only"],
)
def test_a_chat_request_is_refused(model: ModelEndpoint, token: str, scripted: Any, name: str) -> None:
    model.script(token, [scripted])
    with pytest.raises(openai.BadRequestError) as caught:
        run(chat(model, token))
    message = f"toolproof: this reply is scripted for the Responses API only ({name})"
    assert (caught.value.code, caught.value.message) == (
        "toolproof_responses_only",
        f"Error code: 400 - {message}",
    )
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (400, message, None)


def test_done_events_only_refuses_a_plain_request(model: ModelEndpoint, token: str) -> None:
    model.script(token, [DoneEventsOnly(CALL)])
    with pytest.raises(openai.BadRequestError) as caught:
        run(plain(model, token))
    message = "toolproof: this reply is scripted as a stream (DoneEventsOnly): it answers stream true only"
    assert (caught.value.code, caught.value.message) == (
        "toolproof_stream_only",
        f"Error code: 400 - {message}",
    )
    record = model.requests(token)[0]
    assert (record.status, record.note, record.message) == (400, message, None)


def test_done_events_only_streams_its_items_outside_completed(model: ModelEndpoint, token: str) -> None:
    model.script(token, [DoneEventsOnly(TWO_CALLS), Text("next")])
    stream = run(streamed(model, token))
    assert [e.sequence_number for e in stream] == list(range(17))
    done = [e.item for e in stream if e.type == "response.output_item.done"]
    assert [item.type for item in done] == ["message", "function_call", "function_call"]
    assert calls(done) == [
        (f"call_{token}_0_0", "alpha__lookup", "completed"),
        (f"call_{token}_0_1", "alpha__output_send__qq", "completed"),
    ]
    assert (stream[-1].type, stream[-1].response.status, stream[-1].response.output) == (
        "response.completed",
        "completed",
        [],
    )
    # Consumed like any reply: the next request gets the next one.
    following = run(streamed(model, token))
    assert [part.text for part in following[-1].response.output[0].content] == ["next"]
    records = model.requests(token)
    assert [(r.status, r.note, r.message) for r in records] == [
        (
            200,
            "response.completed with output [] (items only in output_item.done events)",
            two_calls_message(token, 0),
        ),
        (200, "", {"role": "assistant", "content": "next"}),
    ]
    assert records[0].note == DoneEventsOnly.NOTE
