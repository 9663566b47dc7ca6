"""Tool parameter schemas as OpenAI accepts them.

Some MCP servers (Gemini-style) write schema types in upper case (`OBJECT`,
`STRING`); OpenAI rejects those, so types are lowercased through
`properties`, `items` and `anyOf`. `required` and values inside
`default`/`example` are left exactly as they are.
"""

from __future__ import annotations

import copy
from typing import Any

UNSPECIFIED_TYPE = "TYPE_UNSPECIFIED"


def lowercase_type(value: Any) -> Any:
    """A `type` value lowercased: a string, or each string of a list of types."""
    if isinstance(value, str):
        return value.lower()
    if isinstance(value, list):
        return [item.lower() if isinstance(item, str) else item for item in value]
    return value


def lowercase_schema_types(schema: Any) -> Any:
    """A copy of `schema` with types lowercased; `TYPE_UNSPECIFIED` drops the key."""
    if not isinstance(schema, dict):
        return copy.deepcopy(schema)
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type":
            if value == UNSPECIFIED_TYPE:
                continue
            result[key] = lowercase_type(value)
        elif key == "properties" and isinstance(value, dict):
            result[key] = {name: lowercase_schema_types(sub) for name, sub in value.items()}
        elif key == "items" and isinstance(value, list):
            result[key] = [lowercase_schema_types(sub) for sub in value]
        elif key == "items":
            result[key] = lowercase_schema_types(value)
        elif key == "anyOf" and isinstance(value, list):
            result[key] = [lowercase_schema_types(sub) for sub in value]
        else:
            # default, example, required, enum, ...: data, not schema; copied untouched.
            result[key] = copy.deepcopy(value)
    return result
