"""Protocol v1 messages, validated in both directions against contracts/protocol."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from toolproof.errors import HarnessError, ProtocolViolation
from toolproof.judge.contract_files import load_json

OPS = ("hello", "build", "run", "close")
_BASE = "tag:toolproof,2026:protocol/v1/"


@cache
def _registry() -> Registry[Any]:
    resources = [(_BASE + "common", Resource.from_contents(load_json("protocol/common.json")))]
    for op in OPS:
        resources.append(
            (_BASE + f"commands/{op}", Resource.from_contents(load_json(f"protocol/commands/{op}.json")))
        )
    return Registry().with_resources(resources)


@cache
def _validator(op: str, response: bool) -> Draft202012Validator:
    schema: dict[str, Any] = load_json(f"protocol/commands/{op}.json")
    if response:
        schema = {"$ref": _BASE + f"commands/{op}#response"}
    return Draft202012Validator(schema, registry=_registry())


def _first_error(validator: Draft202012Validator, message: Any) -> str | None:
    errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    best = errors[0]
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in best.absolute_path) or "<root>"
    return f"{where}: {best.message}"


def response_problem(op: str, message: Any) -> str | None:
    """Where `message` breaks the `#response` schema of `op` (None when it is valid)."""
    return _first_error(_validator(op, True), message)


def validate_request(message: dict[str, Any]) -> None:
    """Validate a request the harness is about to send (a failure is a harness bug)."""
    op = message.get("op")
    if op not in OPS:
        return  # smoke deliberately sends unknown ops
    problem = _first_error(_validator(str(op), False), message)
    if problem is not None:
        raise HarnessError(f"toolproof built an invalid {op} request: {problem}")


def validate_response(op: str, message: Any, line: str) -> dict[str, Any]:
    """Validate an adapter's response to `op`; a failure is a protocol violation showing the line."""
    if op not in OPS:
        op = "close"  # an unknown op may only be answered with an error or a bare ok
    problem = _first_error(_validator(op, True), message)
    if problem is not None:
        shown = line if len(line) <= 2000 else line[:2000] + f"... ({len(line)} bytes)"
        raise ProtocolViolation(f"response to {op!r} does not match protocol v1 ({problem}); line: {shown}")
    assert isinstance(message, dict)  # the schemas only admit objects
    return message


def encode(message: dict[str, Any]) -> str:
    """One JSON Lines line (no trailing newline), UTF-8 safe."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
