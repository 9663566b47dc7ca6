"""The text a tool result gives the model.

The tool's text is sent verbatim: no prefix, no "sent via" receipt, no
synthesized status (the HomeAgent echo loop was driven by such a receipt).
An `isError` result is not a failure: its text is sent the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import mcp_types


def text_blocks(content: Sequence[object]) -> list[str]:
    """The texts of the text blocks of a result, in order; other blocks are skipped."""
    return [block.text for block in content if isinstance(block, mcp_types.TextContent)]


def tool_result_text(result: mcp_types.CallToolResult, join: str = "\n") -> str:
    """The tool message content for `result`: its text blocks joined with `join`."""
    return join.join(text_blocks(result.content))
