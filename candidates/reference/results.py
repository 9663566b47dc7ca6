"""The text a tool result gives the model.

The tool's text is sent verbatim: no prefix, no "sent via" receipt, no
synthesized status (the HomeAgent echo loop was driven by such a receipt).
An `isError` result is not a failure: its text is sent the same way.

Non-text blocks (CONTRACT.md §5d) keep their place: an embedded text resource
gives its text, a resource_link its block's JSON text (never fetched), and a
binary block (image, audio, embedded blob) the declared placeholder on the chat
wire, whose tool messages carry text only. On the Responses wire a result with a
binary block is sent as output parts (`output_parts`): an image as an
`input_image` and an embedded blob as an `input_file`, each with its data URL,
every other block as `input_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mcp_types

from .messages import ErrorText

BINARY_PLACEHOLDER = "[MCP tool returned {type} content ({mimeType})]"
"""The declared `binary_placeholder`: `{type}` and `{mimeType}` are the block's."""


def binary_mime(block: object) -> str | None:
    """The MIME type of a binary block (image, audio, embedded blob); None for any other block."""
    if isinstance(block, mcp_types.ImageContent | mcp_types.AudioContent):
        return block.mime_type
    if isinstance(block, mcp_types.EmbeddedResource) and isinstance(
        block.resource, mcp_types.BlobResourceContents
    ):
        return block.resource.mime_type or ""
    return None


def block_text(block: object) -> str:
    """The text one block gives the model on a text-only wire, in its place."""
    if isinstance(block, mcp_types.TextContent):
        return block.text
    mime = binary_mime(block)
    if mime is not None:
        kind = str(getattr(block, "type", ""))
        return BINARY_PLACEHOLDER.replace("{type}", kind).replace("{mimeType}", mime)
    if isinstance(block, mcp_types.EmbeddedResource) and isinstance(
        block.resource, mcp_types.TextResourceContents
    ):
        return block.resource.text
    # resource_link (and any later kind): the block itself as JSON text, uri and name kept.
    dump = getattr(block, "model_dump_json", None)
    return str(dump(by_alias=True, exclude_none=True)) if dump is not None else ""


def text_blocks(content: Sequence[object]) -> list[str]:
    """The text of every block of a result, in order (`block_text`)."""
    return [block_text(block) for block in content]


def tool_result_text(result: mcp_types.CallToolResult, join: str = "\n") -> str:
    """The tool message content for `result`: its blocks' texts joined with `join`, an `isError`
    result's marked `ErrorText` (the same text; the Anthropic wire flags it `is_error`)."""
    text = joined_text(result, join)
    return ErrorText(text) if result.is_error else text


def joined_text(result: mcp_types.CallToolResult, join: str) -> str:
    """The texts of every block of `result` joined with `join`."""
    return join.join(text_blocks(result.content))


def output_part(block: object) -> dict[str, Any]:
    """One Responses output part: an image as `input_image`, an embedded blob as `input_file` (each
    its data URL), any other block as text (audio: function_call_output has no audio part)."""
    if isinstance(block, mcp_types.ImageContent):
        return {"type": "input_image", "image_url": f"data:{block.mime_type};base64,{block.data}"}
    if isinstance(block, mcp_types.EmbeddedResource) and isinstance(
        block.resource, mcp_types.BlobResourceContents
    ):
        return {
            "type": "input_file",
            "file_data": f"data:{block.resource.mime_type};base64,{block.resource.blob}",
        }
    return {"type": "input_text", "text": block_text(block)}


def has_binary_block(result: mcp_types.CallToolResult) -> bool:
    """Whether a block of `result` is binary (image, audio, embedded blob)."""
    return any(binary_mime(block) is not None for block in result.content)


def output_parts(result: mcp_types.CallToolResult) -> list[dict[str, Any]]:
    """A `function_call_output.output` array: one part per block of `result`, in order."""
    return [output_part(block) for block in result.content]
