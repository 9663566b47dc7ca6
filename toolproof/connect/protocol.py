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
END_OF_SESSION_GRACE = 3.0
"""PROTOCOL.md "End of session": the process group is killed 3 s after stdin closes."""
_BASE = "tag:toolproof,2026:protocol/v1/"
MAX_DEPTH = 64
"""How deep a line may nest (a valid response nests 2 levels); deeper is a violation. Python's decoder
raises RecursionError, not ValueError, somewhere below 1,000 levels: caught; above, depth is measured
without recursion."""
_SHOWN = 500


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
    try:
        errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
    except RecursionError:  # the validator (or the repr in its message) recursed into a deep value
        return "<root>: nested too deeply to validate"
    if not errors:
        return None
    best = errors[0]
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in best.absolute_path) or "<root>"
    text = best.message  # it quotes the offending value, which can be as long as the line
    return f"{where}: {text if len(text) <= 2000 else text[:2000] + '...'}"


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


class _NotJson(ValueError):
    """A line Python's decoder would accept that RFC 8259 JSON, or protocol v1, does not."""


def _no_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Duplicate names make a line mean what the parser picks (RFC 8259 §4): refuse, never guess.
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _NotJson(f"duplicate key {key!r}")
            seen.add(key)
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether `value` nests more than `limit` arrays/objects deep (iterative: no recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _too_deep(text: str) -> str:
    return (
        f"stdout carried a line nested deeper than {MAX_DEPTH} levels: {_shown(text)!r} --"
        " no protocol v1 response nests that deep"
    )


def decode_line(raw: bytes) -> tuple[Any, str]:
    """One stdout line (its line end removed) as (value, text).

    Raises ProtocolViolation unless the line is UTF-8 (RFC 8259 §8.1) JSON: no NaN or
    Infinity, no duplicate keys, at most MAX_DEPTH levels of nesting.
    """
    body = raw.rstrip(b"\r\n")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        lossy = body.decode("utf-8", "replace")
        raise ProtocolViolation(
            f"stdout carried a line that is not UTF-8 (byte {body[exc.start]:#04x} at offset {exc.start}):"
            f" {_shown(lossy)!r} -- protocol v1 lines are UTF-8 JSON (RFC 8259 §8.1)"
        ) from None
    try:
        value = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise ProtocolViolation(_too_deep(text)) from None
    except ValueError as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise ProtocolViolation(
            f"stdout carried a line that is not JSON ({reason}): {_shown(text)!r} -- stdout must carry"
            " protocol lines only (a stray print?)"
        ) from None
    # Counting brackets (strings included) is a cheap bound: the walk runs only when it could matter.
    if text.count("[") + text.count("{") > MAX_DEPTH and _deeper_than(value, MAX_DEPTH):
        raise ProtocolViolation(_too_deep(text))
    return value, text


def line_text(raw: bytes) -> str:
    """A stdout line as text (without its "\\n"), exactly as written when it can be a protocol line.

    A line that is not UTF-8, or that nests deeper than MAX_DEPTH, comes back as a marker starting
    with "<" (no JSON parser accepts it) and an excerpt: it can never pass for a JSON object, and no
    reader meets a decoder's RecursionError.
    """
    body = raw.removesuffix(b"\n")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        lossy = body.decode("utf-8", "replace")
        return f"<not UTF-8: byte {body[exc.start]:#04x} at offset {exc.start}> {_shown(lossy)}"
    if text.count("[") + text.count("{") > MAX_DEPTH:
        try:
            deep = _deeper_than(json.loads(text), MAX_DEPTH)
        except RecursionError:
            deep = True
        except ValueError:
            deep = False  # not JSON: shown as it is, and judged as such
        if deep:
            return f"<nested deeper than {MAX_DEPTH} levels> {_shown(text)}"
    return text
