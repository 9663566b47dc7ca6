"""The reference, dropping `minLength` from every tool's parameters, for the determinism self-test
(tests/determinism/test_same_verdict.py).

Only `shapes/schema_refs` has one (`iban`, at least 5 characters), and about one generated instance
in a hundred is a short iban in an otherwise valid object, the only kind that tells the two schemas
apart: `wire.schema-meaning-generated` sees the defect on some seeds' draws and not on others. A test
double reaching into the reference, never a pattern for an adapter.
"""

from __future__ import annotations

from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import packing

_lowercase_schema_types = packing.lowercase_schema_types


def _without_min_length(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {key: _without_min_length(value) for key, value in schema.items() if key != "minLength"}
    if isinstance(schema, list):
        return [_without_min_length(value) for value in schema]
    return schema


def _act() -> None:
    """Patch the reference to send parameters without `minLength`."""
    packing.lowercase_schema_types = lambda schema: _without_min_length(_lowercase_schema_types(schema))


def drops_min_length() -> Declaring:
    """Sends parameters that accept a too-short iban: a defect only some draws find."""
    return Declaring({}, _act)
