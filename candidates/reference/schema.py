"""Tool parameter schemas as OpenAI accepts them.

Some MCP servers (Gemini-style) write schema types in upper case (`OBJECT`,
`STRING`); OpenAI rejects those, so types are lowercased in every schema
position: `properties`, `items`, `anyOf`, `oneOf`, `allOf`, `$defs`, ...
(upstream walked only `properties`, `items` and `anyOf`; the contract asks
for every position). `required` and values inside `default`, `const`,
`enum` and `examples` are data, and are left exactly as they are.
"""

from __future__ import annotations

import copy
from typing import Any

UNSPECIFIED_TYPE = "TYPE_UNSPECIFIED"

# Keywords whose value is one schema.
SCHEMA_KEYWORDS = frozenset(
    {
        "items",
        "additionalItems",
        "contains",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "not",
        "if",
        "then",
        "else",
    }
)
# Keywords whose value is a list of schemas.
SCHEMA_LIST_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems", "items"})
# Keywords whose value maps names to schemas (the names are data, not keywords).
SCHEMA_MAP_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)


def lowercase_type(value: Any) -> Any:
    """A `type` value lowercased: a string, or each string of a list of types."""
    if isinstance(value, str):
        return value.lower()
    if isinstance(value, list):
        return [item.lower() if isinstance(item, str) else item for item in value]
    return value


def _subschema(key: str, value: Any) -> Any:
    """The value of keyword `key`, with the schemas inside it converted."""
    if key in SCHEMA_LIST_KEYWORDS and isinstance(value, list):
        return [lowercase_schema_types(sub) for sub in value]
    if key in SCHEMA_KEYWORDS and isinstance(value, dict):
        return lowercase_schema_types(value)
    if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
        return {name: lowercase_schema_types(sub) for name, sub in value.items()}
    # default, examples, const, enum, required, ...: data, not schema; copied untouched.
    return copy.deepcopy(value)


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
        else:
            result[key] = _subschema(key, value)
    return result
