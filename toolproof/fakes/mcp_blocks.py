"""The `blocks` route's non-text results (issue 24 §2, CONTRACT.md §5d): one tool per block kind.

One tool per kind, so one odd block never decides a whole area, and one tool mixing
text, image, text for order. The payloads are small literal base64 strings: the
tests compare what reaches the model against these same literals, written out
again in the test file (never computed from here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import mcp_types as types

BLOCKS_ROUTE: Final = "blocks"

PNG_B64: Final = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
"""A 1x1 PNG."""
WAV_B64: Final = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
"""A WAV header with no samples."""
PDF_B64: Final = "JVBERi0xLjQKJcOkw7zDtsOfCg=="
"""The first line of a PDF file."""
BLOB_URI: Final = "toolproof://blocks/report.pdf"
TEXT_URI: Final = "toolproof://blocks/notes.txt"
RESOURCE_TEXT: Final = "notes: Grüße\n  second line "
LINK_URI: Final = "toolproof://blocks/large.csv"
LINK_NAME: Final = "large.csv"
LINK_CONTENTS: Final = "a,b\n1,2\n"
"""What resources/read of LINK_URI answers (a runtime that fetches the link on its own gets
a result, so its run goes on and only the fetch itself is judged)."""
MIXED_BEFORE: Final = "before the image"
MIXED_AFTER: Final = "after the image"


def _image() -> types.ImageContent:
    return types.ImageContent(type="image", data=PNG_B64, mime_type="image/png")


def _text(value: str) -> types.TextContent:
    return types.TextContent(type="text", text=value)


BLOCK_RESULTS: Final[Mapping[str, list[Any]]] = {
    "image_block": [_image()],
    "audio_block": [types.AudioContent(type="audio", data=WAV_B64, mime_type="audio/wav")],
    "blob_resource": [
        types.EmbeddedResource(
            type="resource",
            resource=types.BlobResourceContents(uri=BLOB_URI, mime_type="application/pdf", blob=PDF_B64),
        )
    ],
    "text_resource": [
        types.EmbeddedResource(
            type="resource",
            resource=types.TextResourceContents(uri=TEXT_URI, mime_type="text/plain", text=RESOURCE_TEXT),
        )
    ],
    "resource_link": [
        types.ResourceLink(type="resource_link", uri=LINK_URI, name=LINK_NAME, mime_type="text/csv")
    ],
    "mixed_blocks": [_text(MIXED_BEFORE), _image(), _text(MIXED_AFTER)],
}
"""Tool name -> the content blocks its result carries (in order)."""

BLOCK_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "image_block": "Return one image.",
    "audio_block": "Return one audio clip.",
    "blob_resource": "Return one embedded binary resource.",
    "text_resource": "Return one embedded text resource.",
    "resource_link": "Return a link to a resource.",
    "mixed_blocks": "Return text, an image, then text.",
}


def block_result(name: str) -> types.CallToolResult:
    """The result of the `blocks` tool `name`."""
    return types.CallToolResult(content=list(BLOCK_RESULTS[name]))


def read_link(uri: str) -> types.ReadResourceResult | None:
    """resources/read on the `blocks` route: LINK_URI's contents; None for any other URI."""
    if uri != LINK_URI:
        return None
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=LINK_URI, mime_type="text/csv", text=LINK_CONTENTS)]
    )
