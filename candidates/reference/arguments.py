"""Decoding the `arguments` string of a model's tool call into MCP tool arguments.

Declared options: string_encoded_arguments "unwrap", non_object_arguments
"wrap_value", invalid_json_arguments "tool_error_message"; null_arguments
"empty_object" and undeclared_arguments "forward" are the defaults (every key
the model sent reaches the tool, declared or not). The old decoder's
`{"raw": ...}` fallback is the historical bug; no such key is ever produced.

Parsing is strict RFC 8259 JSON: Python's `json` would also accept `NaN`,
`Infinity` and `-Infinity`, which no JSON peer can read back; those texts
are invalid arguments like any other.
"""

from __future__ import annotations

import json
from typing import Any

MAX_EXTRA_DECODE_LEVELS = 4
WRAP_KEY = "value"
JSON_WHITESPACE = " \t\n\r"
"""RFC 8259 `ws`: space, horizontal tab, line feed, carriage return."""


class InvalidArguments(Exception):
    """The arguments are not valid JSON; the tool is not called."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(text: str) -> Any:
    """`json.loads` without the NaN/Infinity extension; ValueError when `text` is not JSON."""
    return json.loads(text, parse_constant=_reject_constant)


def parse_json_arguments(raw: str) -> Any:
    """The JSON value of `raw`; "" or only JSON whitespace (no arguments at all) counts as null.

    Neither is JSON text (RFC 8259 §2); only the four RFC 8259 whitespace characters count.
    """
    if raw.strip(JSON_WHITESPACE) == "":
        return None
    try:
        return strict_json(raw)
    except ValueError as exc:
        raise InvalidArguments(str(exc)) from None


def unwrap_string_arguments(value: Any) -> Any:
    """Decode a JSON string holding JSON text again, up to 4 extra levels.

    Stops at the first level that is not a string or whose text is not JSON;
    a string still left after 4 levels stays a string (too deep).
    """
    for _ in range(MAX_EXTRA_DECODE_LEVELS):
        if not isinstance(value, str):
            break
        try:
            value = strict_json(value)
        except ValueError:
            break
    return value


def wrap_non_object(value: Any) -> dict[str, Any]:
    """A non-object value (array, number, bool, string) under the stable key `value`."""
    return {WRAP_KEY: value}


def decode_arguments(raw: str) -> dict[str, Any]:
    """The object to pass to the MCP tool; InvalidArguments when `raw` is not JSON.

    "", JSON whitespace only and "null" -> {} (null_arguments "empty_object"); an
    object -> itself; a JSON string -> unwrapped until an object; anything else
    -> {"value": <decoded>}.
    """
    value = unwrap_string_arguments(parse_json_arguments(raw))
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    return wrap_non_object(value)
