"""The reference forwarding images as pydantic-ai does, for tests/precision/test_blocks_variant.py:
`binary_result_chat` user_message, each binary block's placeholder naming the block by six hex
digits of the SHA-1 of its bytes (`See file {id}.`), each image forwarded after the tool messages
in a user message that names the same id, and a tool message whose every block is binary sent as
text parts where the reference's relayed results are strings (CONTRACT.md §5d: the runtime's own
message, either valid shape). Variants break one of those on purpose.

A test double reaching into the reference (its results, calls and runtime modules), never a
pattern for a real adapter.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import mcp_types
from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import calls, results, runtime

DECLARED = {"binary_result_chat": "user_message", "binary_placeholder": "See file {id}."}
ORIGINAL_TEXT = results.block_text
ORIGINAL_RESULT_TEXT = calls.tool_result_text
ORIGINAL_REQUEST = runtime.request_completion


def _file_id(data: str) -> str:
    return hashlib.sha1(base64.b64decode(data), usedforsecurity=False).hexdigest()[:6]


def _data(block: Any) -> str:
    return str(block.data if hasattr(block, "data") else block.resource.blob)


def _block_text(block: Any) -> str:
    if results.binary_mime(block) is not None:
        return f"See file {_file_id(_data(block))}."
    return ORIGINAL_TEXT(block)


IMAGES: dict[str, str] = {}
"""Each image's id and data URL, as its result is read (the faux runs one suite, one process)."""


def _remember_images(result: mcp_types.CallToolResult) -> None:
    for block in result.content:
        if isinstance(block, mcp_types.ImageContent):
            IMAGES[_file_id(block.data)] = f"data:{block.mime_type};base64,{block.data}"


def _result_text(result: mcp_types.CallToolResult, join: str = "\n") -> Any:
    _remember_images(result)
    text = ORIGINAL_RESULT_TEXT(result, join)
    if result.content and all(results.binary_mime(block) is not None for block in result.content):
        return [{"type": "text", "text": text}]  # the runtime's own message: text parts
    return text


def _relayed_parts(result: mcp_types.CallToolResult, join: str = "\n") -> Any:
    _remember_images(result)
    text = ORIGINAL_RESULT_TEXT(result, join)
    return [{"type": "text", "text": text}] if results.has_binary_block(result) else text


def _forwarded(messages: list[dict[str, Any]], naming: bool) -> list[dict[str, Any]]:
    """`messages` with a user message after each run of tool messages, per image they mention."""
    out: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        out.append(message)
        following = messages[index + 1] if index + 1 < len(messages) else None
        if message.get("role") != "tool" or (following is not None and following.get("role") == "tool"):
            continue
        block_end = index
        while block_end >= 0 and messages[block_end].get("role") == "tool":
            block_end -= 1
        said = str([m.get("content") for m in messages[block_end + 1 : index + 1]])
        for name, url in IMAGES.items():
            if f"See file {name}." in said:
                intro = f"This is file {name}:" if naming else "This is the file:"
                out.append(
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": intro},
                            {"type": "image_url", "image_url": {"url": url}},
                        ],
                    }
                )
    return out


def _act(naming: bool, own_parts: bool) -> None:
    results.block_text = _block_text
    calls.tool_result_text = _result_text if own_parts else _relayed_parts

    async def request(client: Any, model: str, messages: list[dict[str, Any]], *rest: Any, **kw: Any) -> Any:
        return await ORIGINAL_REQUEST(client, model, _forwarded(messages, naming), *rest, **kw)

    runtime.request_completion = request


def named_files() -> Declaring:
    """Declares and acts out named files: every block check passes."""
    return Declaring(DECLARED, lambda: _act(naming=True, own_parts=True))


def named_files_unnamed() -> Declaring:
    """The forwarded image's user message never names its id: the image and order checks fail."""
    return Declaring(DECLARED, lambda: _act(naming=False, own_parts=True))


def named_files_relayed_parts() -> Declaring:
    """Every result as text parts, the mixed one (with the tool's own text) too, where the declared
    tool_content is string: only the order check fails."""
    return Declaring(DECLARED, lambda: _act(naming=True, own_parts=False))
