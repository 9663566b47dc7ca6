"""The reference with the other declared readings of non-text blocks (CONTRACT.md §5d), for
tests/precision/test_blocks_variant.py: binary blocks as data-URL text (`binary_result_chat`
data_url_text, as openai-agents renders an image), an embedded text resource as its block's JSON
(dumped as the SDK's `model_dump_json` does, unset members as null), a resource_link as a
placeholder of its own template. Declared and acted out, or acted out undeclared.

A test double reaching into the reference (its results module), never a pattern for a real
adapter.
"""

from __future__ import annotations

from typing import Any

import mcp_types
from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import results

TEMPLATE = "<{type} {mimeType} omitted>"
OTHER_READINGS = {
    "binary_result_chat": "data_url_text",
    "binary_result_responses": "data_url_text",
    "binary_placeholder": TEMPLATE,
    "embedded_text_resource": "json_block",
    "resource_link_result": "placeholder",
}
ORIGINAL = results.block_text


def _block_text(block: Any) -> str:
    mime = results.binary_mime(block)
    if mime is not None:
        data = block.data if hasattr(block, "data") else block.resource.blob
        return f"data:{mime};base64,{data}"
    if isinstance(block, mcp_types.EmbeddedResource):
        return str(block.model_dump_json(by_alias=True))
    if isinstance(block, mcp_types.ResourceLink):
        return TEMPLATE.replace("{type}", "resource_link").replace("{mimeType}", block.mime_type or "")
    return ORIGINAL(block)


def _act() -> None:
    """Patch the reference: every block other than text gets its other reading (no output parts)."""
    results.block_text = _block_text
    results.has_binary_block = lambda _result: False


def other_readings() -> Declaring:
    """Declares and acts out the other readings: must pass."""
    return Declaring(OTHER_READINGS, _act)


def other_readings_undeclared() -> Declaring:
    """Acts out the other readings under the reference's own declarations: the block checks fail."""
    return Declaring({}, _act)
