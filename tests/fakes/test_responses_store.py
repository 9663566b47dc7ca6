"""Self-tests of the Responses API's stored responses (`toolproof.fakes.responses_store`), the
`Reasoned` and `Forgotten` replies (`toolproof.fakes.responses`), and both through the endpoint.

`ResponseStore` keeps a token's completed responses unless `store: false` and reads
a request against them as the API does: `previous_response_id`, `item_reference`
and id-only reasoning items resolved, or refused with the API's status and error
body. A chained request's record holds the whole conversation (`resolved`), and
its view reads it. Every expected value is written out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from endpoint_support import RESPONSES_REQUEST, RESPONSES_TOOLS, client, run  # tests/fakes

from toolproof.fakes import Call, Forgotten, ModelEndpoint, Reasoned, Text, ToolCalls
from toolproof.fakes.responses import (
    done_events_only,
    encrypted_content,
    events,
    reasoned_events,
    reasoned_response,
    reasoning_item,
)
from toolproof.fakes.responses_store import ChainError, Resolved, ResponseStore, finished_output

UNSTORED_HINT = (
    "Items are not persisted when `store` is set to false. Try again with `store` set to true,"
    " or remove this item from your input."
)
"""The API's words after a not-found id of a response created with `store: false` (written out)."""

USER: dict[str, Any] = {"role": "user", "content": "hi"}
MORE: dict[str, Any] = {"role": "user", "content": "more"}
CALL_ITEM: dict[str, Any] = {
    "id": "fc_1",
    "type": "function_call",
    "status": "completed",
    "arguments": '{"q":"a"}',
    "call_id": "call_1",
    "name": "alpha__lookup",
}
SECOND_CALL_ITEM: dict[str, Any] = {
    "id": "fc_2",
    "type": "function_call",
    "status": "completed",
    "arguments": "",
    "call_id": "call_2",
    "name": "alpha__output_send__qq",
}
OUTPUT_ITEM: dict[str, Any] = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
MESSAGE_ITEM: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "status": "completed",
    "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Done."}],
    "role": "assistant",
}
REASONING_ITEM: dict[str, Any] = {
    "id": "rs_1",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "Think."}],
}
REASONING_BY_ID: dict[str, Any] = {"type": "reasoning", "id": "rs_1", "summary": []}
"""A reasoning item sent without its encrypted content: it stands for the stored item of its id."""
REASONING_SENT: dict[str, Any] = {
    "type": "reasoning",
    "id": "rs_1",
    "summary": [],
    "encrypted_content": "gAAAABopaque",
}
"""A reasoning item sent with its encrypted content: it stands as sent."""


def stored(output: list[Any], *, store: Any = True, items: list[Any] | None = None) -> ResponseStore:
    """A store that kept `resp_1`, sent `items` (default: the user's "hi"), answered with `output`."""
    keeper = ResponseStore()
    body: dict[str, Any] = {"input": "hi"} if store is True else {"input": "hi", "store": store}
    keeper.keep(body, [USER] if items is None else items, "resp_1", output)
    return keeper


def refused(status: int, message: str, param: str | None = "input", code: str | None = None) -> Resolved:
    """A refused chained request's reading."""
    return Resolved(True, None, ChainError(status, message, param, code))


# -- previous_response_id ------------------------------------------------------


def test_a_chained_request_stands_for_the_stored_conversation_then_its_input() -> None:
    keeper = stored([CALL_ITEM])
    assert keeper.resolve({"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]}) == Resolved(
        True, [USER, CALL_ITEM, OUTPUT_ITEM]
    )


def test_a_chain_of_chains_holds_every_earlier_turn() -> None:
    keeper = stored([CALL_ITEM])
    chained = {"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]}
    first = keeper.resolve(chained)
    assert first.items is not None
    keeper.keep(chained, first.items, "resp_2", [MESSAGE_ITEM])
    assert keeper.resolve({"previous_response_id": "resp_2", "input": "more"}) == Resolved(
        True, [USER, CALL_ITEM, OUTPUT_ITEM, MESSAGE_ITEM, MORE]
    )
    assert list(keeper.conversations) == ["resp_1", "resp_2"]
    assert keeper.items == {"fc_1": CALL_ITEM, "msg_1": MESSAGE_ITEM}


def test_a_stateless_request_is_not_chained() -> None:
    assert ResponseStore().resolve({"input": "hi"}) == Resolved(False, [{"role": "user", "content": "hi"}])
    assert ResponseStore().resolve({"input": [USER, MORE]}) == Resolved(False, [USER, MORE])
    assert ResponseStore().resolve({}) == Resolved(False, [])


def test_a_null_previous_response_id_reads_as_absent() -> None:
    keeper = stored([MESSAGE_ITEM])
    assert keeper.resolve({"previous_response_id": None, "input": "more"}) == Resolved(False, [MORE])


def test_an_unknown_previous_response_is_400() -> None:
    reading = stored([MESSAGE_ITEM]).resolve({"previous_response_id": "resp_9", "input": "more"})
    assert reading == refused(
        400,
        "Previous response with id 'resp_9' not found.",
        "previous_response_id",
        "previous_response_not_found",
    )
    assert reading.error is not None
    assert reading.error.body() == {
        "error": {
            "message": "Previous response with id 'resp_9' not found.",
            "type": "invalid_request_error",
            "param": "previous_response_id",
            "code": "previous_response_not_found",
        }
    }


@pytest.mark.parametrize(
    ("previous", "shown"),
    [(123, "123"), (["resp_1"], "['resp_1']"), ({"id": "resp_1"}, "{'id': 'resp_1'}"), ("", "")],
    ids=["number", "list", "object", "empty"],
)
def test_a_previous_response_id_that_names_nothing_is_400(previous: Any, shown: str) -> None:
    # Never a crash: an id of any JSON type is looked up and not found.
    reading = stored([MESSAGE_ITEM]).resolve({"previous_response_id": previous, "input": "more"})
    assert reading == refused(
        400,
        f"Previous response with id '{shown}' not found.",
        "previous_response_id",
        "previous_response_not_found",
    )


# -- store: false ---------------------------------------------------------------


def test_store_false_is_not_kept() -> None:
    keeper = stored([REASONING_ITEM, CALL_ITEM], store=False)
    assert (keeper.conversations, keeper.items, keeper.unstored) == ({}, {}, {"resp_1", "rs_1", "fc_1"})
    # Which call a reasoning item preceded is known all the same (the API's 400 for the call alone).
    assert keeper.reasoning_of == {"fc_1": "rs_1"}


@pytest.mark.parametrize("store", [True, None, "false"], ids=["true", "null", "string"])
def test_only_store_false_is_not_kept(store: Any) -> None:
    keeper = stored([MESSAGE_ITEM], store=store)
    assert (keeper.conversations, keeper.unstored) == ({"resp_1": [USER, MESSAGE_ITEM]}, set())


def test_chaining_to_an_unstored_response_is_400_naming_store() -> None:
    reading = stored([MESSAGE_ITEM], store=False).resolve({"previous_response_id": "resp_1", "input": "more"})
    assert reading == refused(
        400,
        "Previous response with id 'resp_1' not found. " + UNSTORED_HINT,
        "previous_response_id",
        "previous_response_not_found",
    )


def test_a_reference_to_an_unstored_item_is_404_naming_store() -> None:
    keeper = stored([MESSAGE_ITEM], store=False)
    reading = keeper.resolve({"input": [USER, {"type": "item_reference", "id": "msg_1"}]})
    assert reading == refused(404, "Item with id 'msg_1' not found. " + UNSTORED_HINT)
    assert reading.error is not None
    assert reading.error.body() == {
        "error": {
            "message": "Item with id 'msg_1' not found. Items are not persisted when `store` is set to"
            " false. Try again with `store` set to true, or remove this item from your input.",
            "type": "invalid_request_error",
            "param": "input",
            "code": None,
        }
    }
    # A reasoning item by id, the same way.
    keeper = stored([REASONING_ITEM, MESSAGE_ITEM], store=False)
    assert keeper.resolve({"input": [REASONING_BY_ID]}) == refused(
        404, "Item with id 'rs_1' not found. " + UNSTORED_HINT
    )


# -- duplicates ------------------------------------------------------------------


def test_an_item_the_previous_response_holds_sent_again_is_400() -> None:
    reading = stored([CALL_ITEM]).resolve(
        {"previous_response_id": "resp_1", "input": [CALL_ITEM, OUTPUT_ITEM]}
    )
    assert reading == refused(
        400, "Duplicate item found with id fc_1. Remove duplicate items from your input and try again."
    )
    assert reading.error is not None
    assert reading.error.body() == {
        "error": {
            "message": "Duplicate item found with id fc_1. Remove duplicate items from your input and try"
            " again.",
            "type": "invalid_request_error",
            "param": "input",
            "code": None,
        }
    }


def test_an_item_sent_again_without_a_chain_is_no_duplicate() -> None:
    # A stateless request replays the whole conversation, ids and all.
    assert stored([CALL_ITEM]).resolve({"input": [USER, CALL_ITEM, OUTPUT_ITEM]}) == Resolved(
        False, [USER, CALL_ITEM, OUTPUT_ITEM]
    )


def test_a_stored_input_item_with_an_id_of_another_type_chains_all_the_same() -> None:
    # The next chain reads the stored ids without tripping on one that is no string.
    odd = {"role": "user", "content": "hi", "id": ["not", "a", "string"]}
    keeper = stored([MESSAGE_ITEM], items=[odd])
    assert keeper.resolve({"previous_response_id": "resp_1", "input": "more"}) == Resolved(
        True, [odd, MESSAGE_ITEM, MORE]
    )


# -- item_reference ----------------------------------------------------------------


def test_an_item_reference_is_replaced_by_the_stored_item() -> None:
    keeper = stored([MESSAGE_ITEM])
    reading = keeper.resolve({"input": [USER, {"type": "item_reference", "id": "msg_1"}, MORE]})
    assert reading == Resolved(True, [USER, MESSAGE_ITEM, MORE])


def test_an_item_reference_to_a_sent_item_is_replaced_too() -> None:
    sent = {"type": "message", "id": "msg_user", "role": "user", "content": "hi"}
    keeper = stored([MESSAGE_ITEM], items=[sent])
    reading = keeper.resolve({"input": [{"type": "item_reference", "id": "msg_user"}, MORE]})
    assert reading == Resolved(True, [sent, MORE])


@pytest.mark.parametrize(
    ("reference", "shown"),
    [
        ({"type": "item_reference", "id": "msg_9"}, "msg_9"),
        ({"type": "item_reference"}, "None"),
        ({"type": "item_reference", "id": ["msg_1"]}, "['msg_1']"),
        ({"type": "item_reference", "id": {"id": "msg_1"}}, "{'id': 'msg_1'}"),
    ],
    ids=["unknown", "no-id", "list", "object"],
)
def test_an_item_reference_to_nothing_stored_is_404(reference: Any, shown: str) -> None:
    reading = stored([MESSAGE_ITEM]).resolve({"input": [USER, reference]})
    assert reading == refused(404, f"Item with id '{shown}' not found.")


# -- reasoning items ---------------------------------------------------------------


def test_a_reasoning_item_by_id_is_the_stored_item() -> None:
    keeper = stored([REASONING_ITEM, CALL_ITEM])
    reading = keeper.resolve({"input": [USER, REASONING_BY_ID, CALL_ITEM, OUTPUT_ITEM]})
    assert reading == Resolved(True, [USER, REASONING_ITEM, CALL_ITEM, OUTPUT_ITEM])


def test_a_reasoning_item_with_its_encrypted_content_stands_as_sent() -> None:
    keeper = stored([REASONING_ITEM, CALL_ITEM])
    reading = keeper.resolve({"input": [USER, REASONING_SENT, CALL_ITEM, OUTPUT_ITEM]})
    assert reading == Resolved(False, [USER, REASONING_SENT, CALL_ITEM, OUTPUT_ITEM])


def test_a_reasoning_item_by_id_not_stored_is_404() -> None:
    assert ResponseStore().resolve({"input": [USER, REASONING_BY_ID]}) == refused(
        404, "Item with id 'rs_1' not found."
    )
    # encrypted_content null reads as absent: by id.
    null = {**REASONING_SENT, "encrypted_content": None}
    assert ResponseStore().resolve({"input": [USER, null]}) == refused(404, "Item with id 'rs_1' not found.")


def test_keep_remembers_which_reasoning_item_preceded_each_call() -> None:
    keeper = stored([REASONING_ITEM, MESSAGE_ITEM, CALL_ITEM, SECOND_CALL_ITEM])
    assert keeper.reasoning_of == {"fc_1": "rs_1", "fc_2": "rs_1"}
    assert stored([CALL_ITEM, REASONING_ITEM]).reasoning_of == {}


def test_a_call_sent_without_the_reasoning_item_that_preceded_it_is_400() -> None:
    keeper = stored([REASONING_ITEM, CALL_ITEM])
    message = (
        "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'."
    )
    # Stateless or chained alike.
    assert keeper.resolve({"input": [USER, CALL_ITEM, OUTPUT_ITEM]}) == Resolved(
        False, None, ChainError(400, message, "input", None)
    )
    assert keeper.resolve({"input": [USER, CALL_ITEM, REASONING_SENT, OUTPUT_ITEM]}) == Resolved(
        False, None, ChainError(400, message, "input", None)
    )
    chained = keeper.resolve({"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]})
    assert chained == Resolved(True, [USER, REASONING_ITEM, CALL_ITEM, OUTPUT_ITEM])


def test_a_call_no_reasoning_item_preceded_needs_none() -> None:
    keeper = stored([CALL_ITEM])
    assert keeper.resolve({"input": [USER, CALL_ITEM, OUTPUT_ITEM]}) == Resolved(
        False, [USER, CALL_ITEM, OUTPUT_ITEM]
    )
    # A call sent without its item id is never bound to a reasoning item.
    keeper = stored([REASONING_ITEM, CALL_ITEM])
    unbound = {key: value for key, value in CALL_ITEM.items() if key != "id"}
    assert keeper.resolve({"input": [USER, unbound, OUTPUT_ITEM]}) == Resolved(
        False, [USER, unbound, OUTPUT_ITEM]
    )


# -- pairing on chained requests ---------------------------------------------------


def test_an_output_without_its_call_on_a_chained_request_is_400() -> None:
    reading = stored([MESSAGE_ITEM]).resolve({"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]})
    assert reading == refused(400, "No tool call found for function call output with call_id call_1.")


def test_a_call_without_its_output_on_a_chained_request_is_400() -> None:
    keeper = stored([CALL_ITEM, SECOND_CALL_ITEM])
    reading = keeper.resolve({"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]})
    assert reading == refused(400, "No tool output found for function call call_2.")
    reading = keeper.resolve({"previous_response_id": "resp_1", "input": "more"})
    assert reading == refused(400, "No tool output found for function call call_1.")


def test_a_reference_makes_a_request_chained_for_pairing() -> None:
    keeper = stored([MESSAGE_ITEM])
    reading = keeper.resolve({"input": [{"type": "item_reference", "id": "msg_1"}, OUTPUT_ITEM]})
    assert reading == refused(400, "No tool call found for function call output with call_id call_1.")


def test_a_stateless_request_is_never_refused_for_pairing() -> None:
    assert ResponseStore().resolve({"input": [USER, OUTPUT_ITEM]}) == Resolved(False, [USER, OUTPUT_ITEM])
    assert ResponseStore().resolve({"input": [USER, CALL_ITEM]}) == Resolved(False, [USER, CALL_ITEM])


# -- an input of another type ------------------------------------------------------


@pytest.mark.parametrize(
    "given", [5, True, {"role": "user", "content": "more"}], ids=["number", "bool", "object"]
)
def test_an_input_that_is_no_list_is_one_item_as_sent(given: Any) -> None:
    # Never a crash, never the keys of an object: the request schema judges such an input.
    assert ResponseStore().resolve({"input": given}) == Resolved(False, [given])
    assert stored([MESSAGE_ITEM]).resolve({"previous_response_id": "resp_1", "input": given}) == Resolved(
        True, [USER, MESSAGE_ITEM, given]
    )


# -- forget ------------------------------------------------------------------------


def test_forget_drops_every_stored_response() -> None:
    keeper = stored([REASONING_ITEM, CALL_ITEM])
    keeper.forget()
    assert (keeper.conversations, keeper.items, keeper.unstored, keeper.expired) == (
        {},
        {},
        set(),
        {"resp_1", "rs_1", "fc_1"},
    )
    # The API's plain 404 (the response expired; it was stored): no word of `store`.
    assert keeper.resolve({"previous_response_id": "resp_1", "input": [OUTPUT_ITEM]}) == Resolved(
        True,
        None,
        ChainError(
            400,
            "Previous response with id 'resp_1' not found.",
            "previous_response_id",
            "previous_response_not_found",
            expired=True,
        ),
    )
    assert keeper.resolve({"input": [USER, REASONING_BY_ID]}) == Resolved(
        True, None, ChainError(404, "Item with id 'rs_1' not found.", "input", None, expired=True)
    )
    # An id that was never stored is no expired one.
    assert keeper.resolve({"input": [USER, {"type": "item_reference", "id": "msg_9"}]}) == refused(
        404, "Item with id 'msg_9' not found."
    )


def test_after_forget_unstored_ids_still_name_store_and_new_responses_are_kept() -> None:
    keeper = stored([MESSAGE_ITEM], store=False)
    keeper.forget()
    assert keeper.resolve({"previous_response_id": "resp_1", "input": "more"}) == refused(
        400,
        "Previous response with id 'resp_1' not found. " + UNSTORED_HINT,
        "previous_response_id",
        "previous_response_not_found",
    )
    keeper.keep({"input": "more"}, [MORE], "resp_2", [CALL_ITEM])
    assert keeper.resolve({"previous_response_id": "resp_2", "input": [OUTPUT_ITEM]}) == Resolved(
        True, [MORE, CALL_ITEM, OUTPUT_ITEM]
    )


# -- finished_output -----------------------------------------------------------------


@pytest.mark.parametrize("status", ["completed", "failed", "incomplete"])
def test_the_output_of_an_answered_response_object(status: str) -> None:
    # A failed or incomplete response is created and stored all the same.
    whole = {"object": "response", "status": status, "output": [MESSAGE_ITEM, CALL_ITEM]}
    assert finished_output(whole) == [MESSAGE_ITEM, CALL_ITEM]
    assert finished_output({"object": "response", "status": status, "output": None}) == []


@pytest.mark.parametrize(
    "payload",
    [
        {"object": "response", "status": "in_progress", "output": [CALL_ITEM]},
        {"error": {"message": "slow down", "type": "rate_limit", "param": None, "code": "x"}},
        {"status": "completed", "output": [CALL_ITEM]},
        [],
        "completed",
        None,
    ],
    ids=["in-progress", "error-body", "no-object", "no-events", "string", "none"],
)
def test_what_did_not_complete_has_no_output(payload: Any) -> None:
    assert finished_output(payload) is None


def test_the_output_of_a_stream_is_its_completed_response_output() -> None:
    stream = [
        {"type": "response.created", "response": {"output": []}},
        {"type": "response.output_item.done", "item": MESSAGE_ITEM, "output_index": 0},
        {"type": "response.output_item.done", "item": CALL_ITEM, "output_index": 1},
        {
            "type": "response.completed",
            "response": {"status": "completed", "output": [MESSAGE_ITEM, CALL_ITEM]},
        },
    ]
    assert finished_output(stream) == [MESSAGE_ITEM, CALL_ITEM]


def test_a_completed_stream_with_output_empty_stands_for_its_done_items() -> None:
    stream = [
        {"type": "response.created", "response": {"output": []}},
        {"type": "response.output_item.added", "item": {**CALL_ITEM, "arguments": ""}, "output_index": 0},
        {"type": "response.output_item.done", "item": MESSAGE_ITEM, "output_index": 0},
        {"type": "response.output_item.done", "item": CALL_ITEM, "output_index": 1},
        {"type": "response.completed", "response": {"status": "completed", "output": []}},
    ]
    assert finished_output(stream) == [MESSAGE_ITEM, CALL_ITEM]


def test_a_done_events_only_stream_stands_for_its_items() -> None:
    two = ToolCalls((Call("alpha/lookup", '{"q":"a"}'),), text="On it.")
    assert finished_output(done_events_only(two, RESPONSES_REQUEST, "tk", 0)) == [
        {
            "id": "msg_tk_0",
            "type": "message",
            "status": "completed",
            "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "On it."}],
            "role": "assistant",
        },
        {
            "id": "fc_tk_0_0",
            "type": "function_call",
            "status": "completed",
            "arguments": '{"q":"a"}',
            "call_id": "call_tk_0_0",
            "name": "alpha__lookup",
        },
    ]


def test_a_stream_that_ended_failed_or_incomplete_stands_for_its_response() -> None:
    done = {"type": "response.output_item.done", "item": CALL_ITEM, "output_index": 0}
    failed = {"type": "response.failed", "response": {"status": "failed", "output": []}}
    incomplete = {"type": "response.incomplete", "response": {"status": "incomplete", "output": [CALL_ITEM]}}
    assert (finished_output([done, failed]), finished_output([done, incomplete])) == (
        [CALL_ITEM],
        [CALL_ITEM],
    )


@pytest.mark.parametrize(
    "last",
    [
        {
            "type": "response.function_call_arguments.delta",
            "delta": "{",
            "item_id": "fc_1",
            "output_index": 0,
        },
        {"type": "error", "code": "server_error", "message": "broke", "param": None},
    ],
    ids=["cut", "error"],
)
def test_a_stream_that_did_not_complete_has_no_output(last: dict[str, Any]) -> None:
    stream = [{"type": "response.output_item.done", "item": CALL_ITEM, "output_index": 0}, last]
    assert finished_output(stream) is None


# -- Reasoned, rendered ------------------------------------------------------------

LOOKUP = Call("alpha/lookup", '{"q":"a"}')
INCLUDE = {**RESPONSES_REQUEST, "include": ["reasoning.encrypted_content"]}
"""A Responses request that asks for the reasoning items' encrypted content."""
LOOKUP_ITEM: dict[str, Any] = {
    "id": "fc_tk_0_0",
    "type": "function_call",
    "status": "completed",
    "arguments": '{"q":"a"}',
    "call_id": "call_tk_0_0",
    "name": "alpha__lookup",
}
WHOLE_REASONING: dict[str, Any] = {
    "id": "rs_tk_0",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "Think."}],
    "encrypted_content": "gAAAABtp-tk-0-reasoning-state-opaque",
}


def test_the_encrypted_content_is_literal_in_shape() -> None:
    assert encrypted_content("tk", 0) == "gAAAABtp-tk-0-reasoning-state-opaque"
    assert encrypted_content("t0123456789ab", 12) == "gAAAABtp-t0123456789ab-12-reasoning-state-opaque"


def test_a_reasoning_item_carries_encrypted_content_only_when_included() -> None:
    reasoned = Reasoned(LOOKUP, ("Think.",))
    assert reasoning_item(reasoned, INCLUDE, "tk", 0) == WHOLE_REASONING
    assert reasoning_item(reasoned, RESPONSES_REQUEST, "tk", 0) == {
        "id": "rs_tk_0",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Think."}],
    }
    # `include` naming something else, or not a list: no encrypted content.
    other = {**RESPONSES_REQUEST, "include": ["message.output_text.logprobs"]}
    bare = {**RESPONSES_REQUEST, "include": "reasoning.encrypted_content"}
    assert [reasoning_item(Reasoned(LOOKUP), body, "tk", 0) for body in (other, bare)] == [
        {"id": "rs_tk_0", "type": "reasoning", "summary": []},
        {"id": "rs_tk_0", "type": "reasoning", "summary": []},
    ]


def test_a_reasoned_response_opens_with_its_reasoning_item() -> None:
    whole = reasoned_response(Reasoned(LOOKUP, ("Think.",)), INCLUDE, "tk", 0)
    assert (whole["id"], whole["object"], whole["status"]) == ("resp_tk_0", "response", "completed")
    assert whole["output"] == [WHOLE_REASONING, LOOKUP_ITEM]
    assert (
        Reasoned(LOOKUP, ("Think.", "Then act.")).note()
        == "reasoning item (2 summary parts) before the calls"
    )


def test_reasoned_events_carry_the_partial_item_then_the_summary_then_the_whole_item() -> None:
    stream = reasoned_events(Reasoned(LOOKUP, ("Think.",)), INCLUDE, "tk", 0)
    at = {"item_id": "rs_tk_0", "output_index": 0}
    call_at = {"item_id": "fc_tk_0_0", "output_index": 1}
    assert [e["sequence_number"] for e in stream] == list(range(14))
    assert [e["type"] for e in stream[:2]] == ["response.created", "response.in_progress"]
    assert stream[2:13] == [
        {
            "type": "response.output_item.added",
            # Half the encrypted content (36 characters: the first 18), no summary yet.
            "item": {
                "id": "rs_tk_0",
                "type": "reasoning",
                "summary": [],
                "encrypted_content": "gAAAABtp-tk-0-reas",
            },
            "output_index": 0,
            "sequence_number": 2,
        },
        {
            "type": "response.reasoning_summary_part.added",
            **at,
            "summary_index": 0,
            "part": {"type": "summary_text", "text": ""},
            "sequence_number": 3,
        },
        {
            "type": "response.reasoning_summary_text.delta",
            **at,
            "summary_index": 0,
            "delta": "Think.",
            "sequence_number": 4,
        },
        {
            "type": "response.reasoning_summary_text.done",
            **at,
            "summary_index": 0,
            "text": "Think.",
            "sequence_number": 5,
        },
        {
            "type": "response.reasoning_summary_part.done",
            **at,
            "summary_index": 0,
            "part": {"type": "summary_text", "text": "Think."},
            "sequence_number": 6,
        },
        {
            "type": "response.output_item.done",
            "item": WHOLE_REASONING,
            "output_index": 0,
            "sequence_number": 7,
        },
        {
            "type": "response.output_item.added",
            "item": {**LOOKUP_ITEM, "status": "in_progress", "arguments": ""},
            "output_index": 1,
            "sequence_number": 8,
        },
        {
            "type": "response.function_call_arguments.delta",
            "delta": '{"q":"a"',
            **call_at,
            "sequence_number": 9,
        },
        {"type": "response.function_call_arguments.delta", "delta": "}", **call_at, "sequence_number": 10},
        {
            "type": "response.function_call_arguments.done",
            "arguments": '{"q":"a"}',
            **call_at,
            "sequence_number": 11,
        },
        {"type": "response.output_item.done", "item": LOOKUP_ITEM, "output_index": 1, "sequence_number": 12},
    ]
    assert (stream[13]["type"], stream[13]["response"]["output"]) == (
        "response.completed",
        [WHOLE_REASONING, LOOKUP_ITEM],
    )
    # The opening envelopes hold no output yet.
    assert [stream[0]["response"]["output"], stream[1]["response"]["output"]] == [[], []]


def test_reasoned_events_without_include_or_summary() -> None:
    stream = reasoned_events(Reasoned(LOOKUP), RESPONSES_REQUEST, "tk", 0)
    assert [e["type"] for e in stream] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
    ]
    bare = {"id": "rs_tk_0", "type": "reasoning", "summary": []}
    assert [stream[2]["item"], stream[3]["item"], stream[9]["response"]["output"][0]] == [bare, bare, bare]


def test_reasoned_events_move_every_later_item_one_further() -> None:
    # Text and two calls after the reasoning item: the message at 1, the calls at 2 and 3.
    two = ToolCalls((LOOKUP, Call("alpha/output_send__qq", "")), text="On it.")
    stream = reasoned_events(Reasoned(two), RESPONSES_REQUEST, "tk", 0)
    plain = events(two, RESPONSES_REQUEST, "tk", 0)
    assert len(stream) == len(plain) + 2
    assert [
        (e["type"], e["output_index"]) for e in stream if e["type"].startswith("response.output_item")
    ] == [
        ("response.output_item.added", 0),
        ("response.output_item.done", 0),
        ("response.output_item.added", 1),
        ("response.output_item.done", 1),
        ("response.output_item.added", 2),
        ("response.output_item.done", 2),
        ("response.output_item.added", 3),
        ("response.output_item.done", 3),
    ]
    assert [item["id"] for item in stream[-1]["response"]["output"]] == [
        "rs_tk_0",
        "msg_tk_0",
        "fc_tk_0_0",
        "fc_tk_0_1",
    ]


# -- through the endpoint ------------------------------------------------------------

TOOLS = RESPONSES_TOOLS
CALL = Call("alpha/lookup", '{"q":"weather"}')
FORGOTTEN_NOTE = "stored responses forgotten before this answer"


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint(responses=True, anthropic=True) as endpoint:
        yield endpoint


def post(model: ModelEndpoint, token: str, body: dict[str, Any]) -> httpx2.Response:
    """POST `body` to the token's Responses path."""
    return httpx2.post(model.base_url(token) + "/responses", json=body, timeout=10)


def call_item(token: str, index: int) -> dict[str, Any]:
    """CALL's `function_call` item answering request `index` of `token`."""
    return {
        "id": f"fc_{token}_{index}_0",
        "type": "function_call",
        "status": "completed",
        "arguments": '{"q":"weather"}',
        "call_id": f"call_{token}_{index}_0",
        "name": "alpha__lookup",
    }


def output_of(token: str, index: int, text: str = "sunny") -> dict[str, Any]:
    """A `function_call_output` answering CALL of request `index` of `token`."""
    return {"type": "function_call_output", "call_id": f"call_{token}_{index}_0", "output": text}


def message_item(token: str, index: int, text: str) -> dict[str, Any]:
    """A text reply's `message` item answering request `index` of `token`."""
    return {
        "id": f"msg_{token}_{index}",
        "type": "message",
        "status": "completed",
        "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}],
        "role": "assistant",
    }


def lookup_tool_call(token: str, index: int) -> dict[str, Any]:
    """CALL as the chat tool call of the view."""
    return {
        "id": f"call_{token}_{index}_0",
        "type": "function",
        "function": {"name": "alpha__lookup", "arguments": '{"q":"weather"}'},
    }


def test_a_chained_request_after_a_tool_call_is_answered_as_the_whole_conversation(
    model: ModelEndpoint, token: str
) -> None:
    model.script(token, [CALL, Text("Sunny."), Text("You are welcome.")])
    first = post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS})
    assert (first.status_code, first.json()["output"]) == (200, [call_item(token, 0)])
    second = post(
        model,
        token,
        {"model": "gpt-test", "previous_response_id": f"resp_{token}_0", "input": [output_of(token, 0)]},
    )
    assert (second.status_code, second.json()["id"], second.json()["output"]) == (
        200,
        f"resp_{token}_1",
        [message_item(token, 1, "Sunny.")],
    )
    third = post(
        model, token, {"model": "gpt-test", "previous_response_id": f"resp_{token}_1", "input": "thanks"}
    )
    assert (third.status_code, third.json()["output"]) == (200, [message_item(token, 2, "You are welcome.")])
    records = model.requests(token)
    assert [(r.status, r.note) for r in records] == [(200, ""), (200, ""), (200, "")]
    assert records[0].resolved is None
    assert records[1].resolved == [
        {"role": "user", "content": "hi"},
        call_item(token, 0),
        output_of(token, 0),
    ]
    assert records[1].conversation_body == {
        "model": "gpt-test",
        "input": [{"role": "user", "content": "hi"}, call_item(token, 0), output_of(token, 0)],
    }
    # The body as it arrived is kept.
    assert records[1].json == {
        "model": "gpt-test",
        "previous_response_id": f"resp_{token}_0",
        "input": [output_of(token, 0)],
    }
    assert records[1].view == {
        "model": "gpt-test",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [lookup_tool_call(token, 0)]},
            {"role": "tool", "tool_call_id": f"call_{token}_0_0", "content": "sunny"},
        ],
    }
    assert records[2].resolved == [
        {"role": "user", "content": "hi"},
        call_item(token, 0),
        output_of(token, 0),
        message_item(token, 1, "Sunny."),
        {"role": "user", "content": "thanks"},
    ]
    assert records[2].view == {
        "model": "gpt-test",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [lookup_tool_call(token, 0)]},
            {"role": "tool", "tool_call_id": f"call_{token}_0_0", "content": "sunny"},
            {"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]},
            {"role": "user", "content": "thanks"},
        ],
    }


def test_the_official_client_chains_with_previous_response_id(model: ModelEndpoint, token: str) -> None:
    model.script(token, [CALL, Text("Sunny.")])

    async def chain() -> Any:
        async with client(model, token) as c:
            first: Any = await c.responses.create(model="gpt-test", input="hi", tools=TOOLS)
            outputs: Any = [
                {"type": "function_call_output", "call_id": first.output[0].call_id, "output": "sunny"}
            ]
            return await c.responses.create(
                model="gpt-test", previous_response_id=first.id, input=outputs, tools=TOOLS
            )

    answer = run(chain())
    assert (answer.id, answer.output_text) == (f"resp_{token}_1", "Sunny.")
    assert model.requests(token)[1].resolved == [
        {"role": "user", "content": "hi"},
        call_item(token, 0),
        output_of(token, 0),
    ]


def test_an_unknown_previous_response_is_400_and_consumes_no_reply(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("Only.")])
    refused = post(model, token, {"model": "gpt-test", "previous_response_id": "resp_nope", "input": "hi"})
    assert (refused.status_code, refused.json()) == (
        400,
        {
            "error": {
                "message": "Previous response with id 'resp_nope' not found.",
                "type": "invalid_request_error",
                "param": "previous_response_id",
                "code": "previous_response_not_found",
            }
        },
    )

    async def chained() -> Any:
        async with client(model, token) as c:
            return await c.responses.create(model="gpt-test", previous_response_id="resp_nope", input="hi")

    # The official client reads the 400 as BadRequestError.
    with pytest.raises(openai.BadRequestError) as caught:
        run(chained())
    assert caught.value.code == "previous_response_not_found"
    answered = post(model, token, {"model": "gpt-test", "input": "hi"})
    assert (answered.status_code, answered.json()["output"]) == (200, [message_item(token, 2, "Only.")])
    assert [(r.status, r.note, r.message, r.resolved) for r in model.requests(token)] == [
        (400, "chain refused: Previous response with id 'resp_nope' not found.", None, None),
        (400, "chain refused: Previous response with id 'resp_nope' not found.", None, None),
        (200, "", {"role": "assistant", "content": "Only."}, None),
    ]
    assert model.safety_nets(token) == ()


def test_a_previous_response_id_of_another_type_is_refused_not_a_crash(
    model: ModelEndpoint, token: str
) -> None:
    model.script(token, [Text("Only.")])
    refused = post(model, token, {"model": "gpt-test", "previous_response_id": ["resp_x"], "input": "hi"})
    assert (refused.status_code, refused.json()["error"]["message"]) == (
        400,
        "Previous response with id '['resp_x']' not found.",
    )
    item = post(model, token, {"model": "gpt-test", "input": [{"type": "item_reference", "id": {"a": 1}}]})
    assert (item.status_code, item.json()["error"]["message"]) == (404, "Item with id '{'a': 1}' not found.")
    assert [r.status for r in model.requests(token)] == [400, 404]


def test_a_response_under_store_false_cannot_be_chained(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("First."), Text("Second.")])
    first = post(model, token, {"model": "gpt-test", "input": "hi", "store": False})
    assert (first.status_code, first.json()["output"]) == (200, [message_item(token, 0, "First.")])
    chained = post(
        model, token, {"model": "gpt-test", "previous_response_id": f"resp_{token}_0", "input": "more"}
    )
    assert (chained.status_code, chained.json()) == (
        400,
        {
            "error": {
                "message": f"Previous response with id 'resp_{token}_0' not found. Items are not persisted"
                " when `store` is set to false. Try again with `store` set to true, or remove this item"
                " from your input.",
                "type": "invalid_request_error",
                "param": "previous_response_id",
                "code": "previous_response_not_found",
            }
        },
    )
    referenced = post(
        model,
        token,
        {"model": "gpt-test", "input": [{"type": "item_reference", "id": f"msg_{token}_0"}, MORE]},
    )
    assert (referenced.status_code, referenced.json()) == (
        404,
        {
            "error": {
                "message": f"Item with id 'msg_{token}_0' not found. Items are not persisted when `store` is"
                " set to false. Try again with `store` set to true, or remove this item from your input.",
                "type": "invalid_request_error",
                "param": "input",
                "code": None,
            }
        },
    )
    # Neither refusal consumed the second reply.
    second = post(model, token, {"model": "gpt-test", "input": "more"})
    assert (second.status_code, second.json()["output"]) == (200, [message_item(token, 3, "Second.")])


def test_an_item_reference_is_resolved_through_the_endpoint(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("First."), Text("Second.")])
    post(model, token, {"model": "gpt-test", "input": "hi"})
    answer = post(
        model,
        token,
        {"model": "gpt-test", "input": [{"type": "item_reference", "id": f"msg_{token}_0"}, MORE]},
    )
    assert answer.status_code == 200
    record = model.requests(token)[1]
    assert record.resolved == [message_item(token, 0, "First."), MORE]
    assert record.view == {
        "model": "gpt-test",
        "messages": [
            {"role": "assistant", "content": [{"type": "text", "text": "First."}]},
            {"role": "user", "content": "more"},
        ],
    }


# -- Reasoned, through the endpoint ----------------------------------------------------


def rs_item(token: str, index: int, *summary: str, encrypted: bool = False) -> dict[str, Any]:
    """The finished reasoning item answering request `index` of `token` (written out)."""
    item: dict[str, Any] = {
        "id": f"rs_{token}_{index}",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": text} for text in summary],
    }
    if encrypted:
        item["encrypted_content"] = f"gAAAABtp-{token}-{index}-reasoning-state-opaque"
    return item


def call_message(token: str, index: int) -> dict[str, Any]:
    """The chat-shaped message CALL answered to request `index` stands for."""
    return {"role": "assistant", "content": None, "tool_calls": [lookup_tool_call(token, index)]}


def test_a_reasoned_reply_plain(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL, ("Looking it up.",)), Reasoned(CALL)])
    included = post(
        model,
        token,
        {"model": "gpt-test", "input": "hi", "tools": TOOLS, "include": ["reasoning.encrypted_content"]},
    )
    assert (included.status_code, included.json()["output"]) == (
        200,
        [rs_item(token, 0, "Looking it up.", encrypted=True), call_item(token, 0)],
    )
    bare = post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS})
    # Without include: no encrypted_content key at all.
    assert (bare.status_code, bare.json()["output"]) == (200, [rs_item(token, 1), call_item(token, 1)])
    assert [(r.note, r.message) for r in model.requests(token)] == [
        ("reasoning item (1 summary parts) before the calls", call_message(token, 0)),
        ("reasoning item (0 summary parts) before the calls", call_message(token, 1)),
    ]


def test_the_official_client_reads_a_reasoned_reply(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL, ("Looking it up.",))])

    async def create() -> Any:
        async with client(model, token) as c:
            return await c.responses.create(
                model="gpt-test", input="hi", tools=TOOLS, include=["reasoning.encrypted_content"]
            )

    answer = run(create())
    reasoning, call = answer.output
    assert (
        reasoning.type,
        reasoning.id,
        reasoning.encrypted_content,
        [s.text for s in reasoning.summary],
    ) == (
        "reasoning",
        f"rs_{token}_0",
        f"gAAAABtp-{token}-0-reasoning-state-opaque",
        ["Looking it up."],
    )
    assert (call.type, call.call_id) == ("function_call", f"call_{token}_0_0")


STREAMED_TYPES = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.done",
    "response.output_item.done",
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.completed",
]
"""The event types of `Reasoned(CALL, (one summary,))` streamed."""


def test_a_reasoned_reply_streamed(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL, ("Looking it up.",))])
    body = {
        "model": "gpt-test",
        "input": "hi",
        "tools": TOOLS,
        "stream": True,
        "include": ["reasoning.encrypted_content"],
    }
    answer = post(model, token, body)
    assert (answer.status_code, answer.headers["content-type"]) == (200, "text/event-stream")
    stream = model.requests(token)[0].response
    assert [e["type"] for e in stream] == STREAMED_TYPES
    assert [e["sequence_number"] for e in stream] == list(range(14))
    # The added item: no summary, the first half of the encrypted content (the token is 13
    # characters: 47 in all, 23 of them).
    assert stream[2] == {
        "type": "response.output_item.added",
        "item": {
            "id": f"rs_{token}_0",
            "type": "reasoning",
            "summary": [],
            "encrypted_content": f"gAAAABtp-{token}-",
        },
        "output_index": 0,
        "sequence_number": 2,
    }
    assert stream[7] == {
        "type": "response.output_item.done",
        "item": rs_item(token, 0, "Looking it up.", encrypted=True),
        "output_index": 0,
        "sequence_number": 7,
    }
    assert [(e["type"], e["output_index"]) for e in stream[8:13]] == [
        ("response.output_item.added", 1),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.done", 1),
        ("response.output_item.done", 1),
    ]
    assert stream[12]["item"] == call_item(token, 0)
    assert stream[13]["response"]["output"] == [
        rs_item(token, 0, "Looking it up.", encrypted=True),
        call_item(token, 0),
    ]
    # The raw body: the same events, in order, each an `event:` block.
    blocks = answer.content.split(b"\n\n")
    assert [b.split(b"\n")[0] for b in blocks[:-1]] == [f"event: {kind}".encode() for kind in STREAMED_TYPES]


def test_a_reasoned_reply_streamed_without_include(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL)])
    post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS, "stream": True})
    stream = model.requests(token)[0].response
    bare = {"id": f"rs_{token}_0", "type": "reasoning", "summary": []}
    assert [stream[2]["item"], stream[3]["item"], stream[-1]["response"]["output"][0]] == [bare, bare, bare]


def test_the_official_stream_helper_reads_a_reasoned_stream(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL, ("Looking it up.",))])

    async def helper() -> Any:
        async with (
            client(model, token) as c,
            c.responses.stream(
                model="gpt-test", input="hi", tools=TOOLS, include=["reasoning.encrypted_content"]
            ) as stream,
        ):
            seen = [e.type async for e in stream]
            return seen, await stream.get_final_response()

    seen, final = run(helper())
    assert seen[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert [(item.type, item.id) for item in final.output] == [
        ("reasoning", f"rs_{token}_0"),
        ("function_call", f"fc_{token}_0_0"),
    ]
    assert final.output[0].encrypted_content == f"gAAAABtp-{token}-0-reasoning-state-opaque"


def test_a_reasoning_item_sent_by_id_is_resolved_and_left_out_of_the_view(
    model: ModelEndpoint, token: str
) -> None:
    model.script(token, [Reasoned(CALL, ("Looking it up.",)), Text("Sunny.")])
    post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS})
    by_id = {"type": "reasoning", "id": f"rs_{token}_0", "summary": []}
    answer = post(
        model,
        token,
        {
            "model": "gpt-test",
            "input": [USER, by_id, call_item(token, 0), output_of(token, 0)],
            "tools": TOOLS,
        },
    )
    assert answer.status_code == 200
    record = model.requests(token)[1]
    assert record.resolved == [
        USER,
        rs_item(token, 0, "Looking it up."),
        call_item(token, 0),
        output_of(token, 0),
    ]
    assert record.view["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [lookup_tool_call(token, 0)]},
        {"role": "tool", "tool_call_id": f"call_{token}_0_0", "content": "sunny"},
    ]


def test_a_call_replayed_without_its_reasoning_item_is_400_and_consumes_no_reply(
    model: ModelEndpoint, token: str
) -> None:
    model.script(token, [Reasoned(CALL), Text("Sunny.")])
    post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS})
    orphan = post(
        model, token, {"model": "gpt-test", "input": [USER, call_item(token, 0), output_of(token, 0)]}
    )
    assert (orphan.status_code, orphan.json()) == (
        400,
        {
            "error": {
                "message": f"Item 'fc_{token}_0_0' of type 'function_call' was provided without its required"
                f" 'reasoning' item: 'rs_{token}_0'.",
                "type": "invalid_request_error",
                "param": "input",
                "code": None,
            }
        },
    )
    chained = post(
        model,
        token,
        {"model": "gpt-test", "previous_response_id": f"resp_{token}_0", "input": [output_of(token, 0)]},
    )
    assert (chained.status_code, chained.json()["output"]) == (200, [message_item(token, 2, "Sunny.")])
    records = model.requests(token)
    assert [(r.status, r.resolved) for r in records] == [
        (200, None),
        (400, None),
        (200, [USER, rs_item(token, 0), call_item(token, 0), output_of(token, 0)]),
    ]


def test_reasoned_is_refused_on_the_other_wires(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Reasoned(CALL), Reasoned(CALL)])
    chat = httpx2.post(model.base_url(token) + "/chat/completions", json={"messages": [USER]}, timeout=10)
    messages = httpx2.post(
        f"{model.anthropic_base_url(token)}/v1/messages",
        json={"model": "claude-test", "max_tokens": 64, "messages": [USER]},
        timeout=10,
    )
    assert [(chat.status_code, chat.json()["error"]), (messages.status_code, messages.json()["error"])] == [
        (
            400,
            {
                "message": "toolproof: this reply is scripted for the Responses API only (Reasoned)",
                "type": "invalid_request_error",
                "param": None,
                "code": "toolproof_responses_only",
            },
        ),
    ] * 2


# -- Forgotten, through the endpoint ---------------------------------------------------


def test_forgotten_empties_the_store_once_before_it_answers(model: ModelEndpoint, token: str) -> None:
    model.script(token, [CALL, Forgotten(Text("After.")), Text("Again.")])
    post(model, token, {"model": "gpt-test", "input": "hi", "tools": TOOLS})
    # The stored response expired: the chained request is refused, consuming nothing.
    chained = post(
        model,
        token,
        {"model": "gpt-test", "previous_response_id": f"resp_{token}_0", "input": [output_of(token, 0)]},
    )
    assert (chained.status_code, chained.json()) == (
        400,
        {
            "error": {
                "message": f"Previous response with id 'resp_{token}_0' not found.",
                "type": "invalid_request_error",
                "param": "previous_response_id",
                "code": "previous_response_not_found",
            }
        },
    )
    referenced = post(
        model,
        token,
        {
            "model": "gpt-test",
            "input": [USER, {"type": "item_reference", "id": f"fc_{token}_0_0"}, output_of(token, 0)],
        },
    )
    assert (referenced.status_code, referenced.json()["error"]["message"]) == (
        404,
        f"Item with id 'fc_{token}_0_0' not found.",
    )
    # A stateless request gets the reply, and is kept: the store is emptied only once.
    stateless = post(
        model, token, {"model": "gpt-test", "input": [USER, call_item(token, 0), output_of(token, 0)]}
    )
    assert (stateless.status_code, stateless.json()["output"]) == (200, [message_item(token, 3, "After.")])
    later = post(
        model, token, {"model": "gpt-test", "previous_response_id": f"resp_{token}_3", "input": "more"}
    )
    assert (later.status_code, later.json()["output"]) == (200, [message_item(token, 4, "Again.")])
    records = model.requests(token)
    assert [(r.status, r.note) for r in records] == [
        (200, ""),
        (400, f"chain expired (Forgotten): Previous response with id 'resp_{token}_0' not found."),
        (404, f"chain expired (Forgotten): Item with id 'fc_{token}_0_0' not found."),
        (200, FORGOTTEN_NOTE),
        (200, ""),
    ]
    assert records[4].resolved == [
        USER,
        call_item(token, 0),
        output_of(token, 0),
        message_item(token, 3, "After."),
        MORE,
    ]
    assert Forgotten.NOTE == FORGOTTEN_NOTE


def test_forgotten_is_refused_on_the_other_wires(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Forgotten(Text("x")), Forgotten(Text("y")), Text("z")])
    chat = httpx2.post(model.base_url(token) + "/chat/completions", json={"messages": [USER]}, timeout=10)
    messages = httpx2.post(
        f"{model.anthropic_base_url(token)}/v1/messages",
        json={"model": "claude-test", "max_tokens": 64, "messages": [USER]},
        timeout=10,
    )
    assert [(chat.status_code, chat.json()["error"]), (messages.status_code, messages.json()["error"])] == [
        (
            400,
            {
                "message": "toolproof: this reply is scripted for the Responses API only (Forgotten)",
                "type": "invalid_request_error",
                "param": None,
                "code": "toolproof_responses_only",
            },
        ),
    ] * 2
    # Each refusal consumed its reply, as every Responses-only reply's does.
    answer = post(model, token, {"model": "gpt-test", "input": "hi"})
    assert (answer.status_code, answer.json()["output"]) == (200, [message_item(token, 2, "z")])
