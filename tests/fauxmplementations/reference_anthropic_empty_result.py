"""The reference on the Messages API, sending an empty tool result as `content: []` or as a
placeholder text (`anthropic_empty_result` empty_array / placeholder), declared or not, for
tests/precision/test_anthropic_empty_result_variant.py.

The reference sends such a result without `content` (no_content, the default); this
fauxmplementation wraps its `tool_result` builder (a test double reaching into the reference, never
a pattern for a real adapter).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import anthropic_wire

PLACEHOLDER = "[empty result]"
"""A placeholder other than the option's default, so a check reading the default would fail."""


def _act(content: Any) -> Callable[[], None]:
    """A patch of the reference: a `tool_result` without content gets `content`."""
    original = anthropic_wire.tool_result_block

    def block(message: dict[str, Any]) -> dict[str, Any]:
        built = original(message)
        return built if "content" in built else {**built, "content": content}

    def act() -> None:
        anthropic_wire.tool_result_block = block

    return act


def empty_array() -> Declaring:
    """Declares empty_array and sends `content: []`: must pass."""
    return Declaring({"anthropic_empty_result": "empty_array"}, _act([]), "reference-anthropic")


def placeholder() -> Declaring:
    """Declares placeholder with its text and sends that text: must pass."""
    declared = {"anthropic_empty_result": "placeholder", "anthropic_empty_placeholder": PLACEHOLDER}
    return Declaring(declared, _act(PLACEHOLDER), "reference-anthropic")


def placeholder_undeclared() -> Declaring:
    """Sends the placeholder text under the default no_content: must fail."""
    return Declaring({}, _act(PLACEHOLDER), "reference-anthropic")


def placeholder_declared_only() -> Declaring:
    """Declares placeholder but sends no content: must fail."""
    declared = {"anthropic_empty_result": "placeholder", "anthropic_empty_placeholder": PLACEHOLDER}
    return Declaring(declared, None, "reference-anthropic")
