"""The Responses API state invariants (CONTRACT.md §6e) on literal requests.

Each reads the raw body, or the fake's note when it refused the request's chain
(`chain refused: <the API's words>`, toolproof.fakes.responses_store).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolproof.fakes.records import ModelRequest
from toolproof.judge.declared import Declared
from toolproof.judge.invariants import (
    call_outputs_paired,
    chain_outputs_paired,
    previous_id_never_null,
    references_resolve,
    unstored_never_referenced,
)

IMPLEMENTATION = {"name": "literal", "version": "0", "language": "python"}
UNSTORED_404 = (
    "chain refused: Item with id 'rs_aa_0' not found. Items are not persisted when `store` is set to"
    " false. Try again with `store` set to true, or remove this item from your input."
)


def declared(state: str) -> Declared:
    return Declared.from_hello(
        {
            "implementation": IMPLEMENTATION,
            "capabilities": ["openai.responses"],
            "options": {"responses_state": state},
        }
    )


def request(
    body: Any,
    *,
    status: int = 200,
    note: str = "",
    resolved: list[Any] | None = None,
    path: str = "/aa/v1/responses",
) -> ModelRequest:
    return ModelRequest(
        token="aa",
        index=1,
        method="POST",
        path=path,
        query="",
        headers=(("content-type", "application/json"),),
        body=json.dumps(body).encode(),
        json=body,
        status=status,
        response=None,
        note=note,
        resolved=resolved,
    )


@pytest.mark.parametrize("state", ["previous_response_id", "item_reference"])
def test_a_null_previous_response_id_under_a_stored_state(state: str) -> None:
    assert previous_id_never_null(request({"input": [], "previous_response_id": None}), declared(state)) == [
        "previous_response_id is null: omitted, never null, when there is no earlier response"
    ]


def test_a_null_previous_response_id_is_not_this_checks_under_stateless() -> None:
    assert (
        previous_id_never_null(request({"input": [], "previous_response_id": None}), declared("stateless"))
        == []
    )


def test_an_absent_or_named_previous_response_id_is_fine() -> None:
    stored = declared("previous_response_id")
    assert previous_id_never_null(request({"input": []}), stored) == []
    assert previous_id_never_null(request({"input": [], "previous_response_id": "resp_aa_0"}), stored) == []


def test_a_chat_request_is_not_judged() -> None:
    body = {"messages": [], "previous_response_id": None}
    assert (
        previous_id_never_null(request(body, path="/aa/v1/chat/completions"), declared("item_reference"))
        == []
    )


def test_an_unknown_reference_fails_references_resolve_only() -> None:
    note = "chain refused: Previous response with id 'resp_zz' not found."
    refused = request({"previous_response_id": "resp_zz"}, status=404, note=note)
    stored = declared("previous_response_id")
    assert references_resolve(refused, stored) == [
        "the API answered 404: Previous response with id 'resp_zz' not found."
    ]
    assert unstored_never_referenced(refused, stored) == []
    assert chain_outputs_paired(refused, stored) == []


def test_a_reference_to_an_unstored_item_fails_unstored_never_referenced_only() -> None:
    refused = request({"input": [{"type": "item_reference", "id": "rs_aa_0"}]}, status=404, note=UNSTORED_404)
    stored = declared("item_reference")
    assert references_resolve(refused, stored) == []
    assert unstored_never_referenced(refused, stored) == [
        "the API answered 404: Item with id 'rs_aa_0' not found. Items are not persisted when `store` is set"
        " to false. Try again with `store` set to true, or remove this item from your input."
    ]


@pytest.mark.parametrize(
    "words",
    [
        "No tool call found for function call output with call_id call_x.",
        "No tool output found for function call call_aa_0_0.",
    ],
)
def test_an_unpaired_chain_fails_chain_outputs_paired(words: str) -> None:
    refused = request({"previous_response_id": "resp_aa_0"}, status=400, note=f"chain refused: {words}")
    assert chain_outputs_paired(refused, declared("previous_response_id")) == [
        f"the API answered 400: {words}"
    ]
    assert references_resolve(refused, declared("previous_response_id")) == []


def test_store_false_under_a_stored_state() -> None:
    assert unstored_never_referenced(
        request({"input": "hi", "store": False}), declared("item_reference")
    ) == ["store is false: declared responses_state item_reference (its responses are named later)"]
    assert unstored_never_referenced(request({"input": "hi", "store": False}), declared("stateless")) == []


def test_a_harness_refusal_that_is_no_chain_refusal_is_not_judged() -> None:
    note = "toolproof: script exhausted after 1 replies"
    refused = request({"input": "hi"}, status=400, note=note)
    stored = declared("previous_response_id")
    assert (references_resolve(refused, stored), chain_outputs_paired(refused, stored)) == ([], [])


def test_call_outputs_paired_reads_a_chained_requests_conversation() -> None:
    call = {
        "type": "function_call",
        "id": "fc_aa_0_0",
        "call_id": "call_aa_0_0",
        "name": "f",
        "arguments": "{}",
    }
    output = {"type": "function_call_output", "call_id": "call_aa_0_0", "output": "ok"}
    chained = request(
        {"previous_response_id": "resp_aa_0", "input": [output]},
        resolved=[{"role": "user", "content": "hi"}, call, output],
    )
    assert call_outputs_paired(chained, declared("previous_response_id")) == []
    alone = request({"previous_response_id": "resp_aa_0", "input": [output]})
    assert call_outputs_paired(alone, declared("previous_response_id")) == [
        "input[0].call_id 'call_aa_0_0' names no function_call of the input"
    ]
