"""Self-tests of the view: a model request as the chat-completions body it stands for (CONTRACT.md §2).

`chat_view` renders a stateless Responses API body by fixed renamings, never
repairs (reasoning items left out); `ModelRequest.view` applies it on the
Responses wire only, to a chained request's resolved conversation
(`ModelRequest.conversation_body`), and `ModelRequest.wire` tells the wire by
the raw path. Inputs and expected views
are literal.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.fakes.records import ModelRequest
from toolproof.fakes.views import chat_view, is_responses

LOOKUP_CALL: dict[str, Any] = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "alpha__lookup",
    "arguments": '{"q":"a"}',
    "status": "completed",
}
SEND_CALL: dict[str, Any] = {
    "type": "function_call",
    "id": "fc_2",
    "call_id": "call_2",
    "name": "alpha__output_send__qq",
    "arguments": "",
    "status": "completed",
}
LOOKUP_TOOL_CALL: dict[str, Any] = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "alpha__lookup", "arguments": '{"q":"a"}'},
}
SEND_TOOL_CALL: dict[str, Any] = {
    "id": "call_2",
    "type": "function",
    "function": {"name": "alpha__output_send__qq", "arguments": ""},
}
REASONING: dict[str, Any] = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"}


def request(path: str, body: Any, resolved: list[Any] | None = None) -> ModelRequest:
    """A record of `body` sent to `path` (the raw path, token first), its chain resolved to `resolved`."""
    return ModelRequest(
        token="tok",
        index=0,
        method="POST",
        path=path,
        query="",
        headers=(),
        body=b"",
        json=body,
        status=200,
        response=None,
        note="",
        resolved=resolved,
    )


# -- input and instructions -------------------------------------------------


def test_a_string_input_is_one_user_message() -> None:
    assert chat_view({"model": "gpt-test", "input": "hi"}) == {
        "model": "gpt-test",
        "messages": [{"role": "user", "content": "hi"}],
    }


def test_instructions_are_a_first_message_of_their_own_role() -> None:
    assert chat_view({"model": "gpt-test", "instructions": "Be brief.", "input": "hi"}) == {
        "model": "gpt-test",
        "messages": [{"role": "instructions", "content": "Be brief."}, {"role": "user", "content": "hi"}],
    }


def test_null_instructions_give_no_message() -> None:
    assert chat_view({"model": "gpt-test", "instructions": None, "input": "hi"}) == {
        "model": "gpt-test",
        "messages": [{"role": "user", "content": "hi"}],
    }


def test_message_items_easy_and_typed() -> None:
    image = {"type": "input_image", "image_url": "https://example.com/a.png", "detail": "auto"}
    body = {
        "model": "gpt-test",
        "input": [
            {"role": "developer", "content": "Use the tools."},
            {"role": "user", "content": [{"type": "input_text", "text": "look"}, image]},
            {
                "type": "message",
                "id": "msg_0",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Looked.", "annotations": [], "logprobs": []}],
            },
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "thanks"}]},
        ],
    }
    assert chat_view(body) == {
        "model": "gpt-test",
        "messages": [
            {"role": "developer", "content": "Use the tools."},
            # The unknown part is kept as it arrived, so the checks show it.
            {"role": "user", "content": [{"type": "text", "text": "look"}, image]},
            # An assistant message alone: no tool_calls key; item id and status dropped.
            {"role": "assistant", "content": [{"type": "text", "text": "Looked."}]},
            {"role": "user", "content": [{"type": "text", "text": "thanks"}]},
        ],
    }


# -- assistant runs -----------------------------------------------------------


def test_an_assistant_message_and_two_calls_are_one_assistant_message() -> None:
    said = {
        "type": "message",
        "id": "msg_0",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "On it.", "annotations": []}],
    }
    body = {"model": "gpt-test", "input": [{"role": "user", "content": "hi"}, said, LOOKUP_CALL, SEND_CALL]}
    assert chat_view(body) == {
        "model": "gpt-test",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "On it."}],
                # id is the call_id, never the item id (fc_...).
                "tool_calls": [LOOKUP_TOOL_CALL, SEND_TOOL_CALL],
            },
        ],
    }


def test_calls_before_the_message_are_still_one_run() -> None:
    body = {"input": [LOOKUP_CALL, {"role": "assistant", "content": "Done."}]}
    assert chat_view(body) == {
        "messages": [{"role": "assistant", "content": "Done.", "tool_calls": [LOOKUP_TOOL_CALL]}]
    }


def test_a_call_output_splits_two_runs() -> None:
    body = {
        "input": [
            {"role": "user", "content": "hi"},
            LOOKUP_CALL,
            {"type": "function_call_output", "id": "fco_1", "call_id": "call_1", "output": "sunny"},
            SEND_CALL,
            {
                "type": "function_call_output",
                "call_id": "call_2",
                "output": [
                    {"type": "input_text", "text": "sent"},
                    {"type": "input_image", "image_url": "https://example.com/b.png"},
                ],
            },
        ]
    }
    assert chat_view(body) == {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            {"role": "assistant", "content": None, "tool_calls": [SEND_TOOL_CALL]},
            {
                "role": "tool",
                "tool_call_id": "call_2",
                "content": [
                    {"type": "text", "text": "sent"},
                    {"type": "input_image", "image_url": "https://example.com/b.png"},
                ],
            },
        ]
    }


def test_an_unknown_item_is_kept_and_splits_runs() -> None:
    reference = {"type": "item_reference", "id": "msg_9"}
    body = {"input": [LOOKUP_CALL, reference, SEND_CALL, {"type": "web_search_call", "id": "ws_1"}]}
    assert chat_view(body) == {
        "messages": [
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
            {"type": "item_reference", "id": "msg_9"},
            {"role": "assistant", "content": None, "tool_calls": [SEND_TOOL_CALL]},
            {"type": "web_search_call", "id": "ws_1"},
        ]
    }


# -- reasoning items ----------------------------------------------------------


def test_a_reasoning_item_is_dropped_from_the_view() -> None:
    body = {
        "model": "gpt-test",
        "input": [
            {"role": "user", "content": "hi"},
            REASONING,
            LOOKUP_CALL,
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
    }
    assert chat_view(body) == {
        "model": "gpt-test",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
    }


def test_a_reasoning_item_splits_no_run() -> None:
    # The conversation reads the same with and without it: the calls around it are one turn.
    by_id = {"type": "reasoning", "id": "rs_2", "summary": [{"type": "summary_text", "text": "Think."}]}
    body = {"input": [REASONING, LOOKUP_CALL, by_id, SEND_CALL]}
    assert chat_view(body) == {
        "messages": [{"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL, SEND_TOOL_CALL]}]
    }
    assert chat_view({"input": [REASONING]}) == {"messages": []}


# -- tools, tool_choice and the other keys ----------------------------------


def test_flat_function_tools_are_nested_other_tools_kept() -> None:
    body = {
        "input": "hi",
        "tools": [
            {
                "type": "function",
                "name": "alpha__lookup",
                "description": "Look something up. [tp:alpha/lookup]",
                "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
                "strict": False,
            },
            {"type": "web_search_preview"},
        ],
        "tool_choice": "auto",
    }
    assert chat_view(body) == {
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "alpha__lookup",
                    "description": "Look something up. [tp:alpha/lookup]",
                    "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
                    "strict": False,
                },
            },
            {"type": "web_search_preview"},
        ],
        "tool_choice": "auto",
    }


def test_a_named_tool_choice_is_nested() -> None:
    body = {"input": "hi", "tool_choice": {"type": "function", "name": "alpha__lookup"}}
    assert chat_view(body) == {
        "messages": [{"role": "user", "content": "hi"}],
        "tool_choice": {"type": "function", "function": {"name": "alpha__lookup"}},
    }


def test_other_keys_are_unchanged() -> None:
    body = {
        "model": "gpt-test",
        "input": "hi",
        "stream": True,
        "parallel_tool_calls": False,
        "store": False,
        "max_output_tokens": 100,
    }
    assert chat_view(body) == {
        "model": "gpt-test",
        "messages": [{"role": "user", "content": "hi"}],
        "stream": True,
        "parallel_tool_calls": False,
        "store": False,
        "max_output_tokens": 100,
    }


# -- absent and wrong-typed values --------------------------------------------


def test_an_input_of_the_wrong_type_is_carried_as_messages() -> None:
    assert chat_view({"model": "gpt-test", "input": {"role": "user", "content": "hi"}}) == {
        "model": "gpt-test",
        "messages": {"role": "user", "content": "hi"},
    }


def test_absent_input_and_instructions_give_no_messages() -> None:
    assert chat_view({"model": "gpt-test", "tools": []}) == {"model": "gpt-test", "tools": []}


# -- the record's wire and view --------------------------------------------------


def test_the_wire_is_told_by_the_path() -> None:
    assert (request("/tok/v1/responses", {}).wire, request("/tok/v1/chat/completions", {}).wire) == (
        "openai.responses",
        "openai.chat",
    )
    assert (is_responses("/tok/v1/responses"), is_responses("/tok/v1/chat/completions")) == (True, False)


def test_a_responses_request_is_viewed_as_chat() -> None:
    body = {"model": "gpt-test", "instructions": "Be brief.", "input": [LOOKUP_CALL]}
    assert request("/tok/v1/responses", body).view == {
        "model": "gpt-test",
        "messages": [
            {"role": "instructions", "content": "Be brief."},
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
        ],
    }


def test_a_chat_request_is_its_own_view() -> None:
    # The same Responses-shaped keys sent on the chat wire are not renamed.
    body = {"model": "gpt-test", "input": "hi", "messages": [{"role": "user", "content": "hi"}]}
    assert request("/tok/v1/chat/completions", body).view == {
        "model": "gpt-test",
        "input": "hi",
        "messages": [{"role": "user", "content": "hi"}],
    }


@pytest.mark.parametrize("body", [["input", "hi"], "hi", None], ids=["list", "string", "not-json"])
def test_a_body_that_is_no_object_is_its_own_view(body: Any) -> None:
    assert request("/tok/v1/responses", body).view == body


# -- a chained request's record ---------------------------------------------------

OUTPUT: dict[str, Any] = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
CHAINED: dict[str, Any] = {
    "model": "gpt-test",
    "instructions": "Be brief.",
    "previous_response_id": "resp_1",
    "input": [OUTPUT],
    "store": True,
}
"""A chained request as it arrived: the tool result of the call its previous response holds."""
CONVERSATION: list[Any] = [{"role": "user", "content": "hi"}, REASONING, LOOKUP_CALL, OUTPUT]
"""The conversation the fake resolved it to: the stored one, then its input."""


def test_a_chained_record_is_viewed_as_its_whole_conversation() -> None:
    record = request("/tok/v1/responses", CHAINED, CONVERSATION)
    assert record.conversation_body == {
        "model": "gpt-test",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"},
            LOOKUP_CALL,
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
        "store": True,
    }
    assert record.view == {
        "model": "gpt-test",
        "messages": [
            {"role": "instructions", "content": "Be brief."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
        "store": True,
    }
    # The body as it arrived stays the record's `json`.
    assert record.json == {
        "model": "gpt-test",
        "instructions": "Be brief.",
        "previous_response_id": "resp_1",
        "input": [{"type": "function_call_output", "call_id": "call_1", "output": "sunny"}],
        "store": True,
    }


def test_an_unresolved_record_is_viewed_as_it_arrived() -> None:
    # Nothing resolved (a refused chain): the body as sent, previous_response_id an ordinary key.
    record = request("/tok/v1/responses", CHAINED)
    assert record.conversation_body == CHAINED
    assert record.view == {
        "model": "gpt-test",
        "previous_response_id": "resp_1",
        "store": True,
        "messages": [
            {"role": "instructions", "content": "Be brief."},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
    }


def test_a_chained_record_with_a_string_input_reads_its_resolved_items() -> None:
    body = {"model": "gpt-test", "previous_response_id": "resp_1", "input": "thanks"}
    said = {
        "id": "msg_1",
        "type": "message",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Sunny.", "annotations": [], "logprobs": []}],
    }
    resolved = [*CONVERSATION, said, {"role": "user", "content": "thanks"}]
    assert request("/tok/v1/responses", body, resolved).view == {
        "model": "gpt-test",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [LOOKUP_TOOL_CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            {"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]},
            {"role": "user", "content": "thanks"},
        ],
    }


def test_resolved_items_are_read_on_the_responses_wire_only() -> None:
    # A chat or Messages record never carries them; if one did, its own body would still be its view.
    chat = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}
    assert request("/tok/v1/chat/completions", chat, CONVERSATION).view == chat
