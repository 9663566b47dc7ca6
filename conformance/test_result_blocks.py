"""Non-text tool results (CONTRACT.md §5d; contracts/requirements/blocks.yaml).

The `blocks` server has one tool per MCP block kind (image, audio, an embedded blob, an
embedded text resource, a resource_link), each returning one block, and `mixed_blocks`
(text, image, text) for order. Each test calls one tool and reads the next model request:
the tool message answering the call (by `tool_call_id`), and the messages after it.

What a block gives the model is declared, per kind and per wire: `binary_result_chat` /
`binary_result_responses` with `binary_placeholder` for image, audio and blob blocks,
`embedded_text_resource`, `resource_link_result`; under `tool_result_encoding` json_blocks or
call_tool_result every block is its MCP JSON. The payloads and the blocks' JSON are written
out below as literals (the fake's own constants are never read here).

The binary tests (image, audio, blob, text-image-text order) are `openai.*`: their options are
the two OpenAI wires'; the Messages wire's own binary option is not in contract v7. The text
resource and the resource link are `model.*`: their text reaches the model on every wire.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.errors import HarnessError
from toolproof.fakes import Call, Text
from toolproof.plugin.scenario import Scenario, tool_text

PNG: Final = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
WAV: Final = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
PDF: Final = "JVBERi0xLjQKJcOkw7zDtsOfCg=="
PNG_URL: Final = "data:image/png;base64," + PNG
WAV_URL: Final = "data:audio/wav;base64," + WAV
PDF_URL: Final = "data:application/pdf;base64," + PDF

IMAGE_BLOCK: Final = {"type": "image", "data": PNG, "mimeType": "image/png"}
AUDIO_BLOCK: Final = {"type": "audio", "data": WAV, "mimeType": "audio/wav"}
BLOB_BLOCK: Final = {
    "type": "resource",
    "resource": {"uri": "toolproof://blocks/report.pdf", "mimeType": "application/pdf", "blob": PDF},
}
RESOURCE_TEXT: Final = "notes: Grüße\n  second line "
TEXT_RESOURCE_BLOCK: Final = {
    "type": "resource",
    "resource": {"uri": "toolproof://blocks/notes.txt", "mimeType": "text/plain", "text": RESOURCE_TEXT},
}
LINK_BLOCK: Final = {
    "type": "resource_link",
    "uri": "toolproof://blocks/large.csv",
    "name": "large.csv",
    "mimeType": "text/csv",
}
BEFORE: Final = "before the image"
AFTER: Final = "after the image"
FINAL: Final = "blocks done"

PAYLOADS: Final = (PNG, WAV, PDF)
"""Every binary payload the route sends: none may show in a text outside the tool messages."""


def unset_dropped(value: Any) -> Any:
    """MCP JSON as the checks read it: a member that is null reads as unset (absent), at any depth.

    No member of an MCP content block is nullable; an SDK model dumped without `exclude_none`
    writes each unset optional one (`annotations`, `_meta`, `title`, `size`, ...) as null.
    """
    if isinstance(value, Mapping):
        return {key: unset_dropped(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [unset_dropped(item) for item in value]
    return value


def _json_value(text: Any) -> Any:
    """`text` parsed as JSON (null members unset), or a `<...>` note so a comparison fails and shows it."""
    try:
        return unset_dropped(json.loads(text))
    except (TypeError, ValueError):
        return f"<not a JSON text: {text!r}>"


def is_responses(tp: Scenario) -> bool:
    """Whether the candidate runs on the Responses wire (its one model wire)."""
    return tp.declared.wire == "openai.responses"


def binary_option(tp: Scenario) -> str:
    """The declared way binary blocks reach the model on this candidate's OpenAI wire (each option
    read by its literal name, so that `toolproof probe` maps it to the tests that read it). Only the
    binary tests read it, and they are `openai.*`: the Messages wire's own binary option is not in
    contract v7 (CONTRACT.md §5d), so a third wire is a harness error here, never a chat reading."""
    if tp.declared.wire == "openai.responses":
        return str(tp.option("binary_result_responses"))
    if tp.declared.wire == "openai.chat":
        return str(tp.option("binary_result_chat"))
    raise HarnessError(f"no binary result option for the model wire {tp.declared.wire!r} (CONTRACT.md §5d)")


def placeholder(tp: Scenario, kind: str, mime: str) -> str:
    """The declared `binary_placeholder` for a block of type `kind` and MIME type `mime` (an `{id}`
    in it stays, for `named_ids`)."""
    return str(tp.option("binary_placeholder")).replace("{type}", kind).replace("{mimeType}", mime)


BLOCK_ID: Final = "[A-Za-z0-9_-]{1,64}"
"""What an `{id}` of the declared binary_placeholder stands for: the runtime's own name of a block."""


def named_ids(expected: Any, observed: Any) -> list[str]:
    """The ids the runtime gave, in order: what each `{id}` of `expected` stands for in `observed`,
    where the text around it is exactly the template's and the id is a BLOCK_ID (item by item in
    lists and objects of one shape). Where a text does not match, none."""
    if isinstance(expected, str) and "{id}" in expected and isinstance(observed, str):
        pattern = f"({BLOCK_ID})".join(re.escape(literal) for literal in expected.split("{id}"))
        match = re.fullmatch(pattern, observed)
        return list(match.groups()) if match else []
    if isinstance(expected, list) and isinstance(observed, list) and len(expected) == len(observed):
        return [name for item, seen in zip(expected, observed, strict=True) for name in named_ids(item, seen)]
    if isinstance(expected, Mapping) and isinstance(observed, Mapping):
        return [name for key, item in expected.items() for name in named_ids(item, observed.get(key))]
    return []


def with_ids(pieces: list[Any], ids: list[str]) -> list[Any]:
    """`pieces` with each `{id}` of a text piece replaced by the next of `ids`, in order (an `{id}`
    left over stays, so the comparison fails on it)."""
    names = iter(ids)
    return [
        re.sub(r"\{id\}", lambda _: next(names, "{id}"), piece) if isinstance(piece, str) else piece
        for piece in pieces
    ]


def binary_piece(tp: Scenario, kind: str, mime: str, data_url: str) -> str:
    """The text a binary block gives in its place (the placeholder, or its data URL when declared)."""
    return data_url if binary_option(tp) == "data_url_text" else placeholder(tp, kind, mime)


def image_part(tp: Scenario) -> dict[str, Any]:
    """PNG as an image part of this wire (chat `image_url`, Responses `input_image`)."""
    if tp.declared.wire == "openai.responses":
        return {"type": "input_image", "image_url": PNG_URL}
    return {"type": "image_url", "image_url": {"url": PNG_URL}}


RUNTIMES_OWN: Final = {"input_image": "detail", "input_file": "filename"}
"""The member of an output part that is the runtime's to choose (binary_result_responses)."""


def as_part(part: Any) -> Any:
    """A content part as the checks read it, less its RUNTIMES_OWN member (a chat `image_url`
    part's own `image_url.detail` likewise: OpenAI's optional resolution hint)."""
    if not isinstance(part, Mapping):
        return part
    if part.get("type") == "image_url" and isinstance(part.get("image_url"), Mapping):
        return {**part, "image_url": {k: v for k, v in part["image_url"].items() if k != "detail"}}
    if part.get("type") in RUNTIMES_OWN:
        return {key: value for key, value in part.items() if key != RUNTIMES_OWN[part["type"]]}
    return part


def run_tool(tp: Scenario, tool: str) -> Any:
    """Build with the `blocks` server, let the model call `tool` once, then answer FINAL."""
    tp.script(Call(f"blocks/{tool}", "{}"), Text(FINAL))
    tp.build(tp.config({"blocks": tp.server("blocks")}))
    return tp.run(f"Call {tool}.", judged=True)


def next_messages(tp: Scenario) -> tuple[Any, list[Any]]:
    """The tool message answering the first reply's call in the next request, and the messages after it.

    A missing request or tool message comes back as a `<...>` note (so a comparison fails and shows it).
    """
    served = [r for r in tp.model_requests() if r.status == 200]
    if len(served) < 2:
        return f"<no second model request: {len(served)} requests were answered>", []
    calls = (served[0].message or {}).get("tool_calls") or []
    body = served[1].view
    messages = body.get("messages") if isinstance(body, Mapping) else None
    messages = messages if isinstance(messages, list) else []
    call_id = calls[0].get("id") if calls else None
    for index, message in enumerate(messages):
        if isinstance(message, Mapping) and (message.get("role"), message.get("tool_call_id")) == (
            "tool",
            call_id,
        ):
            return message, messages[index + 1 :]
    return f"<no tool message for call {call_id}>", []


def tool_content(tp: Scenario, message: Any, *, binary: bool = False, own: bool = False) -> Any:
    """What the tool message says, read as the declarations put it: JSON under a JSON encoding or
    json_texts with several pieces, output parts under `output_parts` for a result with a binary
    block (`binary`; any other result is the tool's text, in the declared tool_content shape), else
    the tool's text. `own`: every block of the result is binary, so every piece is the runtime's
    own text (a placeholder, a data URL): a message the runtime writes itself, read in whichever
    valid shape it has (CONTRACT.md §6 item 10, §5d)."""
    if not isinstance(message, Mapping):
        return message
    encoding = tp.option("tool_result_encoding")
    if encoding == "json_blocks":
        return _json_value(tool_text(message, tp.declared, ""))
    if encoding == "call_tool_result":  # its content and isError (absent: false); the rest silent
        value = _json_value(tool_text(message, tp.declared, ""))
        if not isinstance(value, Mapping):
            return value
        return {
            "content": value.get("content", "<no content member>"),
            "isError": value.get("isError", False),
        }
    content = message.get("content")
    if binary and binary_option(tp) == "output_parts" and isinstance(content, list):
        return [as_part(part) for part in content]
    if own and binary_option(tp) != "output_parts":
        shape = "text_parts" if isinstance(content, list) else "string"
        own_shape = dataclasses.replace(tp.declared, options={**tp.declared.options, "tool_content": shape})
        return tool_text(message, own_shape)
    return tool_text(message, tp.declared)


def expected_content(tp: Scenario, pieces: list[Any], blocks: list[Any]) -> Any:
    """The declared reading of a result: `blocks` (their MCP JSON) under a JSON encoding; under
    output_parts one part per piece (a text piece as a text part, an image part as it is); else
    the pieces (each block's text) joined as tool_result_encoding says."""
    if tp.option("tool_result_encoding") == "json_blocks":
        return blocks
    if tp.option("tool_result_encoding") == "call_tool_result":
        return {"content": blocks, "isError": False}
    if tp.declared.wire == "openai.responses" and tp.option("binary_result_responses") == "output_parts":
        return [{"type": "text", "text": p} if isinstance(p, str) else p for p in pieces]
    if tp.declared.wire == "openai.chat" and tp.option("binary_result_chat") == "output_parts":
        return [{"type": "text", "text": p} if isinstance(p, str) else p for p in pieces]
    if tp.option("tool_result_encoding") == "json_texts" and len(pieces) > 1:
        return json.dumps(pieces, ensure_ascii=False)
    return str(tp.option("multi_block_join")).join(pieces)


def read_json_texts(tp: Scenario, observed: Any) -> Any:
    """json_texts with several pieces: the observed text as its JSON value (compared as values)."""
    if tp.option("tool_result_encoding") == "json_texts" and isinstance(observed, str):
        try:
            return json.loads(observed)
        except ValueError:
            return observed
    return observed


def image_parts_after(tp: Scenario, rest: list[Any]) -> list[Any]:
    """The image parts of the user messages after the tool message (user_message forwards images)."""
    kind = "input_image" if is_responses(tp) else "image_url"
    parts: list[Any] = []
    for message in rest:
        if isinstance(message, Mapping) and message.get("role") == "user":
            content = message.get("content")
            parts += [p for p in content if isinstance(p, Mapping)] if isinstance(content, list) else []
    return [as_part(part) for part in parts if part.get("type") == kind]


def message_texts(message: Any) -> list[str]:
    """The texts of one message: its string content, or the texts of its text parts."""
    content = message.get("content") if isinstance(message, Mapping) else None
    if isinstance(content, str):
        return [content]
    parts = content if isinstance(content, list) else []
    return [part["text"] for part in parts if isinstance(part, Mapping) and isinstance(part.get("text"), str)]


def user_texts(rest: list[Any]) -> list[str]:
    """The texts of the user messages in `rest`."""
    return [
        text
        for message in rest
        if isinstance(message, Mapping) and message.get("role") == "user"
        for text in message_texts(message)
    ]


def texts_outside_tool_messages(tp: Scenario) -> list[str]:
    """Every text of the next request outside its tool messages."""
    served = [r for r in tp.model_requests() if r.status == 200]
    body = served[1].view if len(served) > 1 else {}
    messages = body.get("messages") if isinstance(body, Mapping) else None
    return [
        text
        for message in (messages if isinstance(messages, list) else [])
        if isinstance(message, Mapping) and message.get("role") != "tool"
        for text in message_texts(message)
    ]


def expect_binary_result(
    tp: Scenario, check: str, outcome: Any, pieces: list[Any], blocks: list[Any], images: int
) -> None:
    """Judge one binary-block tool: its tool message, the images forwarded after it
    (user_message), each named by its placeholder's `{id}`, no payload as text outside the tool
    messages, and the run's end."""
    message, rest = next_messages(tp)
    own = all(block["type"] != "text" for block in blocks)  # no tool text: the runtime's own message
    observed = tool_content(tp, message, binary=True, own=own)
    ids = named_ids(read_json_texts(tp, expected_content(tp, pieces, blocks)), read_json_texts(tp, observed))
    tp.expect(
        check,
        read_json_texts(tp, observed),
        read_json_texts(tp, expected_content(tp, with_ids(pieces, ids), blocks)),
        what=f"what the model received for the result (binary {binary_option(tp)}, "
        f"tool_result_encoding {tp.option('tool_result_encoding')})",
    )
    if binary_option(tp) == "user_message" and tp.option("tool_result_encoding") not in (
        "json_blocks",
        "call_tool_result",
    ):
        tp.expect(
            check,
            image_parts_after(tp, rest),
            [image_part(tp)] * images,
            what="image parts of the user messages after the tool message (binary user_message)",
        )
        if images:
            tp.expect(
                check,
                [name for name in ids if not any(name in text for text in user_texts(rest))],
                [],
                what="{id}s of the placeholder that no user message after the tool message names",
            )
    tp.expect(
        "result.binary-not-text",
        [payload for payload in PAYLOADS for text in texts_outside_tool_messages(tp) if payload in text],
        [],
        what="base64 payloads found in the texts of the next request outside its tool messages",
    )
    tp.expect_outcome(
        check, outcome, {"ok": True, "stop_reason": "completed", "output": FINAL}, what="the run after it"
    )


def binary_or_part(tp: Scenario, kind: str, mime: str, data_url: str, part: dict[str, Any] | None) -> Any:
    """A binary block's piece: under output_parts an image or a blob is `part` (an audio block has
    none: its text), else its text."""
    if binary_option(tp) == "output_parts" and part is not None:
        return part
    return binary_piece(tp, kind, mime, data_url)


@pytest.mark.checks("result.block-image", "result.binary-not-text")
@pytest.mark.capability("openai.*")
def test_an_image_block_reaches_the_model_as_declared(tp: Scenario) -> None:
    outcome = run_tool(tp, "image_block")
    piece = binary_or_part(tp, "image", "image/png", PNG_URL, image_part(tp))
    expect_binary_result(tp, "result.block-image", outcome, [piece], [IMAGE_BLOCK], images=1)


@pytest.mark.checks("result.block-audio", "result.binary-not-text")
@pytest.mark.capability("openai.*")
def test_an_audio_block_reaches_the_model_as_declared(tp: Scenario) -> None:
    outcome = run_tool(tp, "audio_block")
    piece = binary_or_part(tp, "audio", "audio/wav", WAV_URL, None)
    expect_binary_result(tp, "result.block-audio", outcome, [piece], [AUDIO_BLOCK], images=0)


@pytest.mark.checks("result.block-blob", "result.binary-not-text")
@pytest.mark.capability("openai.*")
def test_an_embedded_blob_reaches_the_model_as_declared(tp: Scenario) -> None:
    outcome = run_tool(tp, "blob_resource")
    piece = binary_or_part(
        tp, "resource", "application/pdf", PDF_URL, {"type": "input_file", "file_data": PDF_URL}
    )
    expect_binary_result(tp, "result.block-blob", outcome, [piece], [BLOB_BLOCK], images=0)


@pytest.mark.checks("result.block-order", "result.binary-not-text")
@pytest.mark.capability("openai.*")
def test_text_image_text_keep_their_order(tp: Scenario) -> None:
    outcome = run_tool(tp, "mixed_blocks")
    image = binary_or_part(tp, "image", "image/png", PNG_URL, image_part(tp))
    blocks = [{"type": "text", "text": BEFORE}, IMAGE_BLOCK, {"type": "text", "text": AFTER}]
    expect_binary_result(tp, "result.block-order", outcome, [BEFORE, image, AFTER], blocks, images=1)


@pytest.mark.checks("result.block-text-resource")
@pytest.mark.capability("model.*")
def test_an_embedded_text_resource_reaches_the_model_as_declared(tp: Scenario) -> None:
    outcome = run_tool(tp, "text_resource")
    declared = tp.option("embedded_text_resource")
    message, _ = next_messages(tp)
    observed = tool_content(tp, message)
    encoding = tp.option("tool_result_encoding")
    if encoding in ("json_blocks", "call_tool_result"):
        expected: Any = expected_content(tp, [], [TEXT_RESOURCE_BLOCK])
    elif declared == "json_block":
        observed = _json_value(observed)
        expected = TEXT_RESOURCE_BLOCK
    elif declared == "placeholder":
        template = placeholder(tp, "resource", "text/plain")
        expected = with_ids([template], named_ids(template, observed))[0]
    else:
        expected = RESOURCE_TEXT
    tp.expect(
        "result.block-text-resource",
        observed,
        expected,
        what=f"what the model received for an embedded text resource (embedded_text_resource {declared})",
    )
    tp.expect_outcome(
        "result.block-text-resource",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL},
        what="the run after it",
    )


@pytest.mark.checks("result.block-link", "result.link-not-fetched")
@pytest.mark.capability("model.*")
def test_a_resource_link_reaches_the_model_unfetched(tp: Scenario) -> None:
    outcome = run_tool(tp, "resource_link")
    declared = tp.option("resource_link_result")
    message, _ = next_messages(tp)
    observed = tool_content(tp, message)
    encoding = tp.option("tool_result_encoding")
    if encoding in ("json_blocks", "call_tool_result"):
        expected: Any = expected_content(tp, [], [LINK_BLOCK])
    elif declared == "json_block":
        observed = _json_value(observed)
        expected = LINK_BLOCK
    else:
        template = placeholder(tp, "resource_link", "text/csv")
        expected = with_ids([template], named_ids(template, observed))[0]
    tp.expect(
        "result.block-link",
        observed,
        expected,
        what=f"what the model received for a resource_link (resource_link_result {declared})",
    )
    tp.expect(
        "result.link-not-fetched",
        [r.rpc_method for r in tp.mcp_requests("blocks") if r.rpc_method == "resources/read"],
        [],
        what="resources/read requests the blocks server received",
    )
    tp.expect_outcome(
        "result.block-link",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL},
        what="the run after it",
    )
