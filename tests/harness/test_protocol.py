"""toolproof.connect.protocol: protocol v1 messages validated both ways against contracts/protocol."""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.connect.protocol import encode, validate_request, validate_response
from toolproof.errors import HarnessError, ProtocolViolation

HELLO_OK: dict[str, Any] = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "faux", "version": "", "language": "go", "homepage": "https://example.org"},
    "capabilities": ["openai.chat", "loop.turn_cap"],
    "options": {"tool_content": "text_parts", "turn_cap_notice": None, "default_max_tool_turns": 3},
}
INTERNAL: dict[str, Any] = {"ok": False, "error": {"kind": "internal", "message": "unknown id"}}


@pytest.mark.parametrize(
    "message",
    [
        {"op": "hello", "protocol": 1},
        {"op": "build", "id": "5f2c9a1be0d4", "config": {"model": {}}},
        {"op": "run", "id": "x" * 200, "input": ""},
        {"op": "close", "id": "b"},
        {"op": "frobnicate", "id": "b"},  # unknown ops are smoke's deliberate garbage: not validated
    ],
)
def test_valid_requests_pass(message: dict[str, Any]) -> None:
    validate_request(message)  # does not raise


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"op": "hello", "protocol": 2}, "invalid hello request: .protocol: 1 was expected"),
        ({"op": "build", "id": "", "config": {}}, "invalid build request: .id: '' should be non-empty"),
        (
            {"op": "build", "id": "b", "config": []},
            "invalid build request: .config: [] is not of type 'object'",
        ),
        (
            {"op": "run", "id": "b", "input": "i", "extra": 1},
            "invalid run request: <root>: Additional properties are not allowed ('extra' was unexpected)",
        ),
        ({"op": "close"}, "invalid close request: <root>: 'id' is a required property"),
        (
            {"op": "run", "id": "x" * 201, "input": ""},
            "invalid run request: .id: '" + "x" * 201 + "' is too long",
        ),
    ],
)
def test_invalid_requests_are_harness_errors(message: dict[str, Any], problem: str) -> None:
    with pytest.raises(HarnessError) as caught:
        validate_request(message)
    assert str(caught.value) == f"toolproof built an {problem}"
    assert caught.value.side == "harness"


@pytest.mark.parametrize(
    ("op", "response"),
    [
        ("hello", HELLO_OK),
        ("hello", {**HELLO_OK, "capabilities": [], "options": {}}),
        ("hello", INTERNAL),
        ("build", {"ok": True}),
        ("build", {"ok": False, "error": {"kind": "dedup_conflict", "message": ""}}),
        ("run", {"ok": True, "output": "", "stop_reason": "completed"}),
        ("run", {"ok": True, "output": "x", "stop_reason": "max_tool_turns"}),
        ("run", {"ok": False, "error": {"kind": "max_tool_turns", "message": "cap"}}),
        ("close", {"ok": True}),
        ("close", INTERNAL),
        ("frobnicate", INTERNAL),  # an unknown op: an error or a bare ok
        ("frobnicate", {"ok": True}),
    ],
)
def test_valid_responses_come_back_unchanged(op: str, response: dict[str, Any]) -> None:
    assert validate_response(op, response, encode(response)) is response


@pytest.mark.parametrize(
    ("op", "response"),
    [
        ("run", {"ok": True}),
        ("run", {"ok": True, "output": "x", "stop_reason": "done"}),
        ("run", {"ok": True, "output": None, "stop_reason": "completed"}),
        ("run", {"ok": True, "output": "x", "stop_reason": "completed", "id": "b"}),
        ("run", {"ok": False, "error": {"kind": "oops", "message": "m"}}),
        ("run", {"ok": False, "error": {"kind": "internal"}}),
        ("run", {"ok": False, "error": {"kind": "internal", "message": "m", "trace": "t"}}),
        ("build", {"ok": "yes"}),
        ("build", {"ok": 1}),
        ("build", [1]),
        ("build", "ok"),
        ("close", {"ok": True, "closed": 1}),
        ("hello", {**HELLO_OK, "capabilities": ["openai.chat", "toolsets.telepathy"]}),
        ("hello", {**HELLO_OK, "capabilities": ["openai.chat", "openai.chat"]}),
        ("hello", {**HELLO_OK, "protocol": 2}),
        ("hello", {**HELLO_OK, "options": {"tool_content": "html"}}),
        ("hello", {**HELLO_OK, "options": {"no_such_option": 1}}),
        ("hello", {**HELLO_OK, "options": {"default_max_tool_turns": 0}}),
        ("hello", {**HELLO_OK, "implementation": {"name": "", "version": "1", "language": "go"}}),
        ("hello", {key: value for key, value in HELLO_OK.items() if key != "capabilities"}),
        ("frobnicate", {"ok": True, "output": "x"}),
    ],
)
def test_invalid_responses_are_protocol_violations_showing_the_line(op: str, response: Any) -> None:
    line = encode(response) if isinstance(response, dict) else repr(response)
    with pytest.raises(ProtocolViolation) as caught:
        validate_response(op, response, line)
    shown_op = op if op != "frobnicate" else "close"
    message = str(caught.value)
    assert message.startswith(f"response to {shown_op!r} does not match protocol v1 (")
    assert message.endswith(f"); line: {line}")
    assert caught.value.side == "adapter-protocol"


def test_violation_names_the_problem() -> None:
    with pytest.raises(ProtocolViolation) as caught:
        validate_response("run", {"ok": True}, '{"ok":true}')
    assert str(caught.value) == (
        "response to 'run' does not match protocol v1 "
        "(<root>: {'ok': True} is not valid under any of the given schemas); line: {\"ok\":true}"
    )


def test_a_long_offending_line_is_cut_and_its_length_given() -> None:
    response = {"ok": "yes", "pad": "p" * 5000}
    line = encode(response)
    with pytest.raises(ProtocolViolation) as caught:
        validate_response("close", response, line)
    assert str(caught.value).endswith(f"; line: {line[:2000]}... ({len(line)} bytes)")


def test_encode_is_one_compact_utf8_line() -> None:
    assert encode({"op": "run", "id": "b", "input": "ü\n"}) == '{"op":"run","id":"b","input":"ü\\n"}'
