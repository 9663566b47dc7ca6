"""toolproof.judge.invariants: each probe accepts a literal good request and rejects literal bad ones."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from toolproof.fakes.records import ModelRequest
from toolproof.judge.declared import Declared
from toolproof.judge.invariants import (
    INVARIANTS,
    answers_in_call_order,
    endpoint,
    every_call_answered_once,
    function_name_pattern,
    judge,
    lowercase_schema_types,
    no_tool_keys_without_tools,
    parameters_valid_schema,
    request_schema,
    tool_message_content,
    tools_never_empty,
    unique_function_names,
)

HELLO: dict[str, Any] = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "t", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}
LOWERCASE = "JSON Schema type names are lowercase"
STRING = Declared.from_hello(HELLO)
TEXT_PARTS = Declared.from_hello({**HELLO, "options": {"tool_content": "text_parts"}})


def function(name: str, parameters: Any = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name, "description": f"[tp:alpha/{name}]"}
    spec["parameters"] = parameters if parameters is not None else {"type": "object", "properties": {}}
    return {"type": "function", "function": spec}


def call(call_id: str, name: str = "alpha__lookup") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


GOOD: dict[str, Any] = {
    "model": "conformance-model",
    "messages": [
        {"role": "system", "content": "You are a conformance test agent."},
        {"role": "user", "content": "Please use the tools."},
        {"role": "assistant", "content": None, "tool_calls": [call("c1"), call("c2")]},
        {"role": "tool", "tool_call_id": "c1", "content": "alpha:x"},
        {"role": "tool", "tool_call_id": "c2", "content": ""},
        {"role": "assistant", "content": "next"},
        {"role": "user", "content": "again"},
        {"role": "assistant", "content": None, "tool_calls": [call("c3")]},
        {"role": "tool", "tool_call_id": "c3", "content": "alpha:y"},
    ],
    "tools": [
        function(
            "alpha__lookup",
            {
                "type": "object",
                "properties": {
                    "q": {"type": "string", "default": "OBJECT"},
                    "type": {"type": ["string", "null"], "enum": ["A", "B"]},
                    "nested": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"v": {"type": "integer"}}},
                    },
                },
                "required": ["q"],
            },
        ),
        function("beta__lookup"),
        function("x" * 64),
    ],
}
GOOD_TEXT_PARTS = copy.deepcopy(GOOD)
for _message in GOOD_TEXT_PARTS["messages"]:
    if _message["role"] == "tool":
        _message["content"] = [{"type": "text", "text": _message["content"]}]


def changed(path: list[Any], value: Any, base: dict[str, Any] = GOOD) -> dict[str, Any]:
    """A deep copy of `base` with the value at `path` replaced (or removed, for value=REMOVE)."""
    body = copy.deepcopy(base)
    node: Any = body
    for key in path[:-1]:
        node = node[key]
    if value is REMOVE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return body


REMOVE = object()


@pytest.mark.parametrize("probe", sorted(INVARIANTS))
def test_every_body_probe_accepts_the_good_request(probe: str) -> None:
    assert INVARIANTS[probe](GOOD, STRING) == []
    assert INVARIANTS[probe](GOOD_TEXT_PARTS, TEXT_PARTS) == []


def test_a_request_without_tools_is_fine() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert {check: probe(body, STRING) for check, probe in INVARIANTS.items() if probe(body, STRING)} == {}


def test_uppercase_type_nested_in_properties() -> None:
    body = changed(["tools", 0, "function", "parameters", "properties", "q", "type"], "OBJECT")
    assert lowercase_schema_types(body, STRING) == [
        "tools[0].function.parameters.properties['q'].type is 'OBJECT': JSON Schema type names are lowercase"
    ]


def test_uppercase_type_nested_in_items() -> None:
    path = ["tools", 0, "function", "parameters", "properties", "nested", "items", "type"]
    body = changed(path, "Object")
    assert lowercase_schema_types(body, STRING) == [
        "tools[0].function.parameters.properties['nested'].items.type is 'Object': "
        "JSON Schema type names are lowercase"
    ]


def test_uppercase_type_at_the_root_and_in_a_type_list() -> None:
    body = changed(["tools", 1, "function", "parameters", "type"], "OBJECT")
    body = changed(
        ["tools", 0, "function", "parameters", "properties", "type", "type"], ["STRING", "null"], body
    )
    assert lowercase_schema_types(body, STRING) == [
        "tools[0].function.parameters.properties['type'].type is 'STRING': " + LOWERCASE,
        "tools[1].function.parameters.type is 'OBJECT': " + LOWERCASE,
    ]


def test_data_named_type_is_not_a_keyword() -> None:
    # A property called "type", a default "OBJECT", an enum of capitals: data, not schema keywords.
    assert lowercase_schema_types(GOOD, STRING) == []


def test_parameters_must_be_a_valid_schema() -> None:
    body = changed(["tools", 0, "function", "parameters", "properties", "q", "type"], "OBJECT")
    assert parameters_valid_schema(body, STRING) == [
        "tools[0].function.parameters.properties.q.type: 'OBJECT' is not valid under any of the given schemas"
    ]
    body = changed(["tools", 0, "function", "parameters", "required"], "q")
    assert parameters_valid_schema(body, STRING) == [
        "tools[0].function.parameters.required: 'q' is not of type 'array'"
    ]


def test_tool_message_without_content() -> None:
    body = changed(["messages", 4, "content"], REMOVE)
    assert tool_message_content(body, STRING) == ["messages[4] (role tool) has no content key"]


def test_tool_message_content_null() -> None:
    body = changed(["messages", 3, "content"], None)
    assert tool_message_content(body, STRING) == [
        "messages[3].content is NoneType, not a string or an array of text parts"
    ]


def test_tool_message_content_either_valid_shape_whatever_is_declared() -> None:
    # Both shapes are valid chat completions; the declared one binds the relayed results only.
    assert tool_message_content(GOOD_TEXT_PARTS, STRING) == []
    assert tool_message_content(GOOD, TEXT_PARTS) == []


def test_tool_message_content_invalid_arrays() -> None:
    problem = "content is not an array of text parts"
    extra_key = changed(["messages", 3, "content", 0, "annotations"], [], GOOD_TEXT_PARTS)
    assert tool_message_content(extra_key, TEXT_PARTS) == [f"messages[3].{problem}"]
    assert tool_message_content(extra_key, STRING) == [f"messages[3].{problem}"]
    empty = changed(["messages", 4, "content"], [], GOOD_TEXT_PARTS)
    assert tool_message_content(empty, TEXT_PARTS) == [
        "messages[4].content is an empty array (OpenAI rejects it)"
    ]
    bare = changed(["messages", 8, "content"], ["x"], GOOD)
    assert tool_message_content(bare, STRING) == [f"messages[8].{problem}"]


def test_duplicate_function_names() -> None:
    body = changed(["tools", 1, "function", "name"], "alpha__lookup")
    assert unique_function_names(body, STRING) == [
        "tools[1] and tools[0] both declare function 'alpha__lookup'"
    ]
    body = changed(["tools", 2, "function", "name"], "alpha__lookup", body)
    assert unique_function_names(body, STRING) == [
        "tools[1] and tools[0] both declare function 'alpha__lookup'",
        "tools[2] and tools[0] both declare function 'alpha__lookup'",
    ]


def test_tools_empty_array() -> None:
    assert tools_never_empty(changed(["tools"], []), STRING) == [
        "tools is []: omit the key when no tools are offered"
    ]
    assert tools_never_empty(changed(["tools"], REMOVE), STRING) == []


def test_tool_keys_without_tools() -> None:
    body = changed(["tools"], REMOVE)
    body["tool_choice"] = "auto"
    body["parallel_tool_calls"] = True
    assert no_tool_keys_without_tools(body, STRING) == [
        "tool_choice is present but the request offers no function",
        "parallel_tool_calls is present but the request offers no function",
    ]
    assert no_tool_keys_without_tools({**GOOD, "tool_choice": "auto"}, STRING) == []


@pytest.mark.parametrize(
    "name",
    ["balda.control.shutdown", "x" * 65, "", "lookup\n", "a b", "ünïcode", None, 7],
)
def test_bad_function_name(name: Any) -> None:
    body = changed(["tools", 1, "function", "name"], name)
    assert function_name_pattern(body, STRING) == [
        f"tools[1].function.name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$"
    ]


def test_an_unanswered_call() -> None:
    body = changed(["messages", 4], REMOVE)  # c2 never answered
    assert every_call_answered_once(body, STRING) == ["messages[2] call 'c2' answered 0 times"]


def test_a_call_answered_twice_and_a_stray_answer() -> None:
    body = copy.deepcopy(GOOD)
    body["messages"].insert(5, {"role": "tool", "tool_call_id": "c1", "content": "again"})
    body["messages"].insert(6, {"role": "tool", "tool_call_id": "zz", "content": "stray"})
    assert every_call_answered_once(body, STRING) == [
        "messages[2] call 'c1' answered 2 times",
        "messages[6].tool_call_id 'zz' names no call of messages[2]",
    ]


def test_an_answer_after_a_plain_text_reply_answers_nothing() -> None:
    body = copy.deepcopy(GOOD)
    body["messages"].insert(6, {"role": "tool", "tool_call_id": "c1", "content": "late"})
    assert every_call_answered_once(body, STRING) == [
        "messages[6] (role tool) does not follow an assistant message with tool_calls"
    ]
    first = {"model": "m", "messages": [{"role": "tool", "tool_call_id": "c1", "content": "x"}]}
    assert every_call_answered_once(first, STRING) == [
        "messages[0] (role tool) does not follow an assistant message with tool_calls"
    ]


def test_answers_out_of_order() -> None:
    body = copy.deepcopy(GOOD)
    body["messages"][3], body["messages"][4] = body["messages"][4], body["messages"][3]
    assert answers_in_call_order(body, STRING) == [
        "answers to messages[2] come in order ['c2', 'c1'], calls were ['c1', 'c2']"
    ]
    assert every_call_answered_once(body, STRING) == []  # out of order is still answered once


def model_request(
    body: Any, *, method: str = "POST", path: str = "/tok/v1/chat/completions", query: str = ""
) -> ModelRequest:
    raw = json.dumps(body).encode() if body is not None else b"not json"
    return ModelRequest(
        token="tok",
        index=0,
        method=method,
        path=path,
        query=query,
        headers=(),
        body=raw,
        json=body,
        status=200,
        response=None,
        note="",
    )


def test_endpoint() -> None:
    assert endpoint(model_request(GOOD), STRING) == []
    assert endpoint(model_request({**GOOD, "stream": False}), STRING) == []
    assert endpoint(model_request({**GOOD, "stream": True}), STRING) == [
        "stream is True: declared model_stream never (stream absent or false)"
    ]
    assert endpoint(model_request({**GOOD, "stream": "true"}), STRING) == [
        "stream is 'true': declared model_stream never (stream absent or false)"
    ]
    assert endpoint(model_request(GOOD, path="/tok/v1/chat/completions/", query="x=1"), STRING) == [
        "request went to '/tok/v1/chat/completions/?x=1', not '/tok/v1/chat/completions'"
    ]


def test_endpoint_under_model_stream_always() -> None:
    streaming = Declared.from_hello({**HELLO, "options": {"model_stream": "always"}})
    assert endpoint(model_request({**GOOD, "stream": True}), streaming) == []
    assert endpoint(model_request(GOOD), streaming) == [
        "stream is absent: declared model_stream always (stream true)"
    ]
    assert endpoint(model_request({**GOOD, "stream": False}), streaming) == [
        "stream is False: declared model_stream always (stream true)"
    ]
    assert endpoint(model_request({**GOOD, "stream": 1}), streaming) == [
        "stream is 1: declared model_stream always (stream true)"
    ]


def test_request_schema_accepts_the_good_request() -> None:
    assert request_schema(model_request(GOOD), STRING) == []
    assert request_schema(model_request(GOOD_TEXT_PARTS), STRING) == []


def test_request_schema_rejects_a_body_that_is_not_an_object() -> None:
    assert request_schema(model_request(None), STRING) == ["the body is not a JSON object: b'not json'"]


def test_judge_reports_every_body_check_with_its_problems() -> None:
    bad = changed(["tools"], [])
    requests = [replace(model_request(body), index=i) for i, body in enumerate([GOOD, bad, "not a body"])]
    verdicts = {check: judge(check, requests, STRING) for check in INVARIANTS}
    assert verdicts["wire.tools-never-empty"].message() == (
        "1 of 2 requests violates: tok#1\n"
        "request tok#1: tools is []: omit the key when no tools are offered\n"
        "not judged: 1 request whose body is not a JSON object (wire.request-schema judges those)"
    )
    assert {check: v.violations for check, v in verdicts.items() if v.violations} == {
        "wire.tools-never-empty": (("tok#1", ("tools is []: omit the key when no tools are offered",)),)
    }
