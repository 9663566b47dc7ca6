"""Decoding the `arguments` string of a model's tool call into MCP tool arguments.

Declared options: string_encoded_arguments "unwrap", non_object_arguments
"wrap_value", invalid_json_arguments "tool_error_message". The old decoder's
`{"raw": ...}` fallback is the historical bug; no such key is ever produced.
"""

from __future__ import annotations

import json
from typing import Any

MAX_EXTRA_DECODE_LEVELS = 4
WRAP_KEY = "value"


class InvalidArguments(Exception):
    """The arguments are not valid JSON; the tool is not called."""


def parse_json_arguments(raw: str) -> Any:
    """The JSON value of `raw`; blank text counts as null (no arguments)."""
    if raw.strip() == "":
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
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
            value = json.loads(value)
        except json.JSONDecodeError:
            break
    return value


def wrap_non_object(value: Any) -> dict[str, Any]:
    """A non-object value (array, number, bool, string) under the stable key `value`."""
    return {WRAP_KEY: value}


def decode_arguments(raw: str) -> dict[str, Any]:
    """The object to pass to the MCP tool; InvalidArguments when `raw` is not JSON.

    "" and "null" -> {}; an object -> itself; a JSON string -> unwrapped until
    an object; anything else -> {"value": <decoded>}.
    """
    value = unwrap_string_arguments(parse_json_arguments(raw))
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    return wrap_non_object(value)
