"""The model wires and their families (contract v7, issue 25 §1): hello.json takes one wire of three,
`model.*` is claimed by any wire and `openai.*` by either OpenAI wire, and a report of an older
contract that names `openai.*` (then: every model wire) reads as `model.*`."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from toolproof.connect.protocol import validate_response
from toolproof.errors import ProtocolViolation
from toolproof.judge.declared import ANY_WIRE, OPENAI_WIRE, WIRES, Declared, renamed_capability

IMPLEMENTATION = {"name": "x", "version": "1", "language": "python"}


def hello(*capabilities: str) -> dict[str, Any]:
    return {"ok": True, "protocol": 1, "implementation": IMPLEMENTATION, "capabilities": list(capabilities)}


@pytest.mark.parametrize("wire", ["openai.chat", "openai.responses", "anthropic.messages"])
def test_hello_claims_any_one_wire(wire: str) -> None:
    message = hello(wire, "loop.turn_cap")
    assert validate_response("hello", message, json.dumps(message)) == message


@pytest.mark.parametrize("pair", list(itertools.combinations(WIRES, 2)), ids="+".join)
def test_hello_claiming_two_wires_is_a_protocol_violation(pair: tuple[str, str]) -> None:
    message = hello(*pair)
    with pytest.raises(ProtocolViolation, match="does not match protocol v1"):
        validate_response("hello", message, json.dumps(message))


@pytest.mark.parametrize("family", [ANY_WIRE, OPENAI_WIRE])
def test_hello_never_claims_a_family(family: str) -> None:
    message = hello("openai.chat", family)
    with pytest.raises(ProtocolViolation, match="does not match protocol v1"):
        validate_response("hello", message, json.dumps(message))


def test_each_wire_claims_model_star_and_only_the_openai_wires_claim_openai_star() -> None:
    declared = {wire: Declared.from_hello(hello(*([wire] if wire else []))) for wire in (*WIRES, None)}
    claimed = {wire: (one.claims(ANY_WIRE), one.claims(OPENAI_WIRE)) for wire, one in declared.items()}
    assert claimed == {
        "openai.chat": (True, True),
        "openai.responses": (True, True),
        "anthropic.messages": (True, False),
        None: (False, False),
    }
    assert Declared.from_hello(hello("anthropic.messages")).wire == "anthropic.messages"


def test_an_older_reports_openai_star_reads_as_model_star() -> None:
    assert [renamed_capability("openai.*", contract) for contract in (1, 4, 6, 7)] == [
        "model.*",
        "model.*",
        "model.*",
        "openai.*",
    ]
    assert [renamed_capability(name, 6) for name in ("openai.chat", "loop.turn_cap", None)] == [
        "openai.chat",
        "loop.turn_cap",
        None,
    ]
