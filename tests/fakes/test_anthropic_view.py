"""Self-tests of the view of Anthropic Messages requests (CONTRACT.md §2 "view", issue 25).

`anthropic_chat_view` renders a Messages body into the chat-completions body the
semantic checks read, by fixed renamings, never repairs; `ModelRequest.view`
applies it on the Messages wire (`POST /v1/messages`) only and `ModelRequest.wire`
tells the wire by the raw path. Inputs and expected views are literal.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.fakes.anthropic_view import anthropic_chat_view, is_anthropic
from toolproof.fakes.records import ModelRequest

LOOKUP_USE: dict[str, Any] = {
    "type": "tool_use",
    "id": "toolu_1",
    "name": "alpha__lookup",
    "input": {"q": "é"},
}
SEND_USE: dict[str, Any] = {
    "type": "tool_use",
    "id": "toolu_2",
    "name": "alpha__output_send__qq",
    "input": {},
}
LOOKUP_CALL: dict[str, Any] = {
    "id": "toolu_1",
    "type": "function",
    "function": {"name": "alpha__lookup", "arguments": '{"q":"é"}'},
}
SEND_CALL: dict[str, Any] = {
    "id": "toolu_2",
    "type": "function",
    "function": {"name": "alpha__output_send__qq", "arguments": "{}"},
}
THINKING: dict[str, Any] = {"type": "thinking", "thinking": "Look it up.", "signature": "c2ln"}
REDACTED: dict[str, Any] = {"type": "redacted_thinking", "data": "b3BhcXVl"}


def request(path: str, body: Any) -> ModelRequest:
    """A record of `body` sent to `path` (the raw path, token first)."""
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
    )


# -- system and messages -----------------------------------------------------


def test_a_string_system_is_a_first_system_message() -> None:
    body = {
        "model": "m",
        "max_tokens": 8,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert anthropic_chat_view(body) == {
        "model": "m",
        "max_tokens": 8,
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
    }


def test_system_text_blocks_are_text_parts() -> None:
    system = [
        {"type": "text", "text": "Be ", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "brief."},
    ]
    assert anthropic_chat_view({"system": system, "messages": []})["messages"] == [
        {"role": "system", "content": [{"type": "text", "text": "Be "}, {"type": "text", "text": "brief."}]}
    ]


def test_a_null_system_shows_nowhere() -> None:
    assert anthropic_chat_view({"system": None, "messages": [{"role": "user", "content": "hi"}]}) == {
        "messages": [{"role": "user", "content": "hi"}]
    }


def test_an_assistant_turn_is_one_message_with_its_calls_in_order() -> None:
    message = {
        "role": "assistant",
        "content": [THINKING, {"type": "text", "text": "On it."}, LOOKUP_USE, SEND_USE],
    }
    assert anthropic_chat_view({"messages": [message]})["messages"] == [
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "On it."}],
            "tool_calls": [LOOKUP_CALL, SEND_CALL],
        }
    ]


def test_a_textless_tool_turn_has_null_content() -> None:
    assert anthropic_chat_view({"messages": [{"role": "assistant", "content": [SEND_USE]}]})["messages"] == [
        {"role": "assistant", "content": None, "tool_calls": [SEND_CALL]}
    ]


def test_thinking_blocks_are_not_carried_and_other_blocks_are() -> None:
    """Replayed thinking is model state the wire's check reads on the raw body; the turn's text stays
    readable. A block the view does not know stays in content as it arrived."""
    server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    message = {"role": "assistant", "content": [REDACTED, THINKING, server, LOOKUP_USE]}
    assert anthropic_chat_view({"messages": [message]})["messages"] == [
        {"role": "assistant", "content": [server], "tool_calls": [LOOKUP_CALL]}
    ]
    message = {"role": "assistant", "content": [THINKING, LOOKUP_USE]}
    assert anthropic_chat_view({"messages": [message]})["messages"] == [
        {"role": "assistant", "content": None, "tool_calls": [LOOKUP_CALL]}
    ]


def test_tool_results_are_tool_messages_then_the_users_text() -> None:
    content = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_2",
            "content": [{"type": "text", "text": "sent"}],
            "is_error": True,
        },
        {"type": "text", "text": "Go on."},
    ]
    assert anthropic_chat_view({"messages": [{"role": "user", "content": content}]})["messages"] == [
        {"role": "tool", "tool_call_id": "toolu_1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "toolu_2", "content": [{"type": "text", "text": "sent"}]},
        {"role": "user", "content": [{"type": "text", "text": "Go on."}]},
    ]


def test_text_before_a_result_stays_before_it() -> None:
    """The view renames in order, never repairs: the wire's own check judges the place on the raw body."""
    content = [
        {"type": "text", "text": "Here:"},
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"},
    ]
    assert anthropic_chat_view({"messages": [{"role": "user", "content": content}]})["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Here:"}]},
        {"role": "tool", "tool_call_id": "toolu_1", "content": "x"},
    ]


def test_a_result_without_content_has_none_and_other_blocks_stay_as_they_came() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA=="}}
    content = [
        {"type": "tool_result", "tool_use_id": "toolu_1"},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": [image]},
    ]
    assert anthropic_chat_view({"messages": [{"role": "user", "content": content}]})["messages"] == [
        {"role": "tool", "tool_call_id": "toolu_1"},
        {"role": "tool", "tool_call_id": "toolu_2", "content": [image]},
    ]


def test_an_empty_block_list_stays_an_empty_message() -> None:
    assert anthropic_chat_view({"messages": [{"role": "user", "content": []}]})["messages"] == [
        {"role": "user", "content": []}
    ]


def test_wrong_types_are_carried_over_as_they_are() -> None:
    assert anthropic_chat_view({"system": "s", "messages": "hi"}) == {"messages": "hi"}
    assert anthropic_chat_view({"messages": ["x", {"role": "user", "content": 3}]})["messages"] == [
        "x",
        {"role": "user", "content": 3},
    ]


# -- tools and tool_choice ---------------------------------------------------


def test_client_tools_nest_under_function_with_parameters() -> None:
    tools = [
        {
            "name": "a",
            "description": "A.",
            "input_schema": {"type": "object"},
            "cache_control": {"type": "ephemeral"},
        },
        {"type": "custom", "name": "b", "input_schema": {"type": "object", "properties": {}}},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 1},
    ]
    assert anthropic_chat_view({"tools": tools}) == {
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "a",
                    "description": "A.",
                    "cache_control": {"type": "ephemeral"},
                    "parameters": {"type": "object"},
                },
            },
            {
                "type": "function",
                "function": {"name": "b", "parameters": {"type": "object", "properties": {}}},
            },
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 1},
        ]
    }


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ({"type": "auto"}, {"tool_choice": "auto"}),
        ({"type": "any"}, {"tool_choice": "required"}),
        ({"type": "none"}, {"tool_choice": "none"}),
        ({"type": "tool", "name": "a"}, {"tool_choice": {"type": "function", "function": {"name": "a"}}}),
        (
            {"type": "auto", "disable_parallel_tool_use": True},
            {"tool_choice": "auto", "parallel_tool_calls": False},
        ),
        (
            {"type": "any", "disable_parallel_tool_use": False},
            {"tool_choice": "required", "parallel_tool_calls": True},
        ),
        ({"type": "tool"}, {"tool_choice": {"type": "tool"}}),
        ("auto", {"tool_choice": "auto"}),
    ],
)
def test_tool_choice_is_renamed(choice: Any, expected: dict[str, Any]) -> None:
    assert anthropic_chat_view({"tool_choice": choice}) == expected


# -- the record --------------------------------------------------------------


def test_the_path_tells_the_wire() -> None:
    assert is_anthropic("/tok/v1/messages") is True
    assert is_anthropic("/tok/v1/messages/count_tokens") is False
    assert is_anthropic("/tok/v1/chat/completions") is False
    assert request("/tok/v1/messages", {}).wire == "anthropic.messages"
    assert request("/tok/v1/responses", {}).wire == "openai.responses"
    assert request("/tok/v1/chat/completions", {}).wire == "openai.chat"


def test_the_record_views_a_messages_body_and_no_other() -> None:
    body = {"system": "s", "messages": [{"role": "user", "content": "hi"}]}
    assert request("/tok/v1/messages", body).view == {
        "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]
    }
    assert request("/tok/v1/chat/completions", body).view == body
    assert request("/tok/v1/messages", [body]).view == [body]
