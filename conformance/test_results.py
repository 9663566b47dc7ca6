"""Tool results reach the model verbatim (CONTRACT.md §8; tp-result-* in contracts/requirements/wire.yaml).

"The model receives text T": the next model request's tool message for that
call (matched by `tool_call_id`, not by position: answer order is only a
SHOULD) has the text T at the declared `tool_content`/`tool_result_pointer`
place (`toolproof.plugin.scenario.tool_text`); an isError result's text at
`error_result_pointer` when one is declared. A result with no content block
or several is judged in the declared `tool_result_encoding`: the joined text,
or a JSON text (JSON-equal, RFC 8259) of the blocks' texts or of the blocks.
A text that is a JSON object or array is judged JSON-equal when the candidate
declares `json_tool_text: reserialised`, byte for byte otherwise.

Under a declared `call_tool_result` (per kind of result: `tool_result_encoding` for results
without `isError` or `structuredContent`, `error_result_encoding`, `structured_content`) the tool
message's whole text is the JSON text of the MCP CallToolResult: judged as its `content` (the
blocks, in order, each text block exactly `{"type": "text", "text": ...}`), its `isError` (MCP:
absent is false) and its `structuredContent` (present exactly when the result carries one), against
a literal object; its other members (`_meta`, `resultType`) are silent. MCP's optional members
left unset read the same absent or null (a block's `UNSET_WHEN_NULL`, a result's
`structuredContent`): the official Python SDK's models dump an unset one as null unless told
`exclude_none` (Haystack sends `model_dump_json(by_alias=True)`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

import pytest

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.plugin.scenario import Scenario, tool_text

ECHOED = [
    "  leading spaces, line one\nline two\r\n\ttab, then trailing spaces and a newline  \n",
    "Grüße, 世界 🌍 — “quoted” café\u0301 שלום",
    '{"status": "sent", "detail": null}',
    "ok",
    '[1.50, "two", null, {"k": []}]',
]
"""Texts echo_text returns: spaces, newlines, unicode, and texts that look like JSON or scalars."""

ECHOED_JSON_VALUES = {2: {"status": "sent", "detail": None}, 4: [1.5, "two", None, {"k": []}]}
"""ECHOED's JSON object and array texts as their values: under json_tool_text reserialised each is
judged JSON-equal (1.50 and 1.5 are one number, RFC 8259 §6)."""


def echo(text: str) -> Call:
    """A call to alpha/echo_text returning `text` (arguments as JSON text, non-ASCII unescaped)."""
    return Call("alpha/echo_text", json.dumps({"text": text}, ensure_ascii=False))


def answers(tp: Scenario, k: int, pointer: str | None = None) -> list[Any]:
    """The tool texts answering reply k's calls, in call order, as model request k+1 carries them.

    Read at the declared `tool_result_pointer`, or at `pointer` when given (`""`:
    the whole text of each tool message). Tool messages are matched to calls by
    `tool_call_id`; a call with no tool message (or no request k+1) shows as a
    `<...>` note, so a comparison fails and shows it.
    """
    served = [r for r in tp.model_requests() if r.status == 200]
    if k + 1 >= len(served):
        return [f"<no model request {k + 1}: {len(served)} requests were answered>"]
    reply = served[k].message or {}
    body = served[k + 1].view
    messages = body.get("messages") if isinstance(body, Mapping) else None
    tool_messages = [m for m in messages or [] if isinstance(m, dict) and m.get("role") == "tool"]
    by_id = {m.get("tool_call_id"): tool_text(m, tp.declared, pointer) for m in tool_messages}
    return [
        by_id.get(c["id"], f"<no tool message for call {c['id']}>") for c in reply.get("tool_calls") or []
    ]


def parsed(text: Any) -> Any:
    """`text` parsed as JSON, or a `<...>` note (so a comparison fails and shows it)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return f"<not a JSON text: {text!r}>"


UNSET_WHEN_NULL: Final = ("annotations", "_meta")
"""A content block's optional members that read as unset when null (contracts/sources.md
`mcp-tools-call-result`; so does a result's `structuredContent`, `as_call_tool_result`): MCP's
schema makes them optional, and the official Python SDK's `model_dump` writes each unset one as
null. A literal list: every other member is read as it is, and a non-null value is compared."""


def as_block(block: Any) -> Any:
    """One content block as `call_tool_result` compares it: less its null `UNSET_WHEN_NULL` members."""
    if not isinstance(block, Mapping):
        return block
    return {key: value for key, value in block.items() if not (key in UNSET_WHEN_NULL and value is None)}


def as_call_tool_result(text: Any) -> Any:
    """A tool message's whole text read as the JSON text of an MCP CallToolResult (§8
    `call_tool_result`): its `content` (each block as `as_block` reads it), its `isError` (absent
    reads false: MCP's schema, "If not set, this is assumed to be false"), and `structuredContent`
    when it has one that is not null (unset, as for `UNSET_WHEN_NULL`); its other members are
    silent. A text that is no JSON object comes back as a `<...>` note."""
    value = parsed(text)
    if not isinstance(value, Mapping):
        return f"<not the JSON text of an object: {text!r}>"
    content = value.get("content", "<no content member>")
    blocks = [as_block(block) for block in content] if isinstance(content, list) else content
    read = {"content": blocks, "isError": value.get("isError", False)}
    if value.get("structuredContent") is not None:
        read["structuredContent"] = value["structuredContent"]
    return read


def text_block(text: str) -> dict[str, str]:
    """An MCP text content block as the declared JSON encodings send it."""
    return {"type": "text", "text": text}


def build_alpha(tp: Scenario, *replies: Any) -> None:
    """Script `replies`, then build with the alpha server."""
    tp.script(*replies)
    tp.build(tp.config({"alpha": tp.server("alpha")}))


@pytest.mark.checks("result.verbatim")
@pytest.mark.capability("model.*")
def test_tool_text_reaches_the_model_byte_for_byte(tp: Scenario) -> None:
    build_alpha(tp, ToolCalls(tuple(echo(t) for t in ECHOED)), Text("done"))
    tp.run("Echo these texts.")
    if tp.option("json_tool_text") == "verbatim":
        tp.expect(
            "result.verbatim",
            answers(tp, 0),
            ECHOED,
            what="texts the model received for one batch of echo_text calls (in call order)",
        )
    else:
        # Only the JSON object and array texts may be re-serialised: each is judged by its value
        # (keys, null, numbers, strings exactly); the texts that are not JSON objects or arrays
        # byte for byte.
        tp.expect(
            "result.verbatim",
            [parsed(t) if i in ECHOED_JSON_VALUES else t for i, t in enumerate(answers(tp, 0))],
            [ECHOED[0], ECHOED[1], ECHOED_JSON_VALUES[2], ECHOED[3], ECHOED_JSON_VALUES[4]],
            what="texts the model received for one batch of echo_text calls (in call order; "
            "json_tool_text reserialised: the JSON object and array texts as their values)",
        )


@pytest.mark.checks("result.empty", "result.no-content-block")
@pytest.mark.capability("openai.*")
def test_empty_result_reaches_the_model_as_empty_text(tp: Scenario) -> None:
    build_alpha(
        tp,
        ToolCalls(
            (
                echo(""),  # one empty text block
                Call("alpha/multi_block", '{"blocks": []}'),  # no content block at all
            )
        ),
        Text("done"),
    )
    tp.run("Return nothing.")
    tp.expect(
        "result.empty",
        answers(tp, 0)[:1],
        [""],
        what="text the model received for one empty text block",
    )
    encoding = tp.option("tool_result_encoding")
    if encoding == "json_blocks":
        tp.expect(
            "result.no-content-block",
            [parsed(t) for t in answers(tp, 0, pointer="")[1:]],
            [[]],
            what="JSON the model received for no content block (tool_result_encoding json_blocks)",
        )
    elif encoding == "call_tool_result":
        tp.expect(
            "result.no-content-block",
            [as_call_tool_result(t) for t in answers(tp, 0, pointer="")[1:]],
            [{"content": [], "isError": False}],
            what="CallToolResult the model received for no content block "
            "(tool_result_encoding call_tool_result)",
        )
    else:
        tp.expect(
            "result.no-content-block",
            answers(tp, 0)[1:],
            [""],
            what=f"text the model received for no content block (tool_result_encoding {encoding})",
        )


BLOCKS = ["first block", "", "  third, padded  ", "fourth\nwith a newline"]
"""The texts of the four text blocks multi_block returns: one empty, one padded, one with a newline."""


@pytest.mark.checks("result.multi-block")
@pytest.mark.capability("model.*")
def test_text_blocks_are_joined_with_the_declared_joiner(tp: Scenario) -> None:
    build_alpha(tp, Call("alpha/multi_block", json.dumps({"blocks": BLOCKS})), Text("done"))
    tp.run("Return several blocks.")
    encoding = tp.option("tool_result_encoding")
    if encoding == "text":
        join = tp.option("multi_block_join")
        tp.expect(
            "result.multi-block",
            answers(tp, 0),
            [join.join(BLOCKS)],
            what=f"texts the model received for multi-block results (declared multi_block_join {join!r})",
        )
    elif encoding == "json_texts":
        tp.expect(
            "result.multi-block",
            [parsed(t) for t in answers(tp, 0, pointer="")],
            [["first block", "", "  third, padded  ", "fourth\nwith a newline"]],
            what="JSON the model received for a multi-block result (tool_result_encoding json_texts)",
        )
    elif encoding == "json_blocks":
        tp.expect(
            "result.multi-block",
            [parsed(t) for t in answers(tp, 0, pointer="")],
            [
                [
                    {"type": "text", "text": "first block"},
                    {"type": "text", "text": ""},
                    {"type": "text", "text": "  third, padded  "},
                    {"type": "text", "text": "fourth\nwith a newline"},
                ]
            ],
            what="JSON the model received for a multi-block result (tool_result_encoding json_blocks)",
        )
    else:
        tp.expect(
            "result.multi-block",
            [as_call_tool_result(t) for t in answers(tp, 0, pointer="")],
            [
                {
                    "content": [
                        {"type": "text", "text": "first block"},
                        {"type": "text", "text": ""},
                        {"type": "text", "text": "  third, padded  "},
                        {"type": "text", "text": "fourth\nwith a newline"},
                    ],
                    "isError": False,
                }
            ],
            what="CallToolResult the model received for a multi-block result "
            "(tool_result_encoding call_tool_result)",
        )


@pytest.mark.checks("result.is-error")
@pytest.mark.capability("model.*")
def test_is_error_result_reaches_the_model_and_the_run_goes_on(tp: Scenario) -> None:
    failure = "lookup failed: no such record\n  (code 42) "
    build_alpha(
        tp,
        Call("alpha/report_error", json.dumps({"text": failure})),
        Text("recovered after the error"),
    )
    outcome = tp.run("Try the failing tool.", judged=True)
    if tp.option("error_result_encoding") == "call_tool_result":
        tp.expect(
            "result.is-error",
            [as_call_tool_result(t) for t in answers(tp, 0, pointer="")],
            [{"content": [text_block(failure)], "isError": True}],
            what="CallToolResult the model received for an isError result "
            "(error_result_encoding call_tool_result)",
        )
    else:
        pointer = tp.option("error_result_pointer")  # None: where tool_result_pointer says
        tp.expect(
            "result.is-error",
            answers(tp, 0, pointer),
            [failure],
            what=f"text the model received for an isError result (error_result_pointer {pointer!r})",
        )
    tp.expect_outcome(
        "result.is-error",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "recovered after the error"},
        what="the run after an isError result",
    )


@pytest.mark.checks("result.structured")
@pytest.mark.capability("model.*")
def test_structured_result_reaches_the_model_as_declared(tp: Scenario) -> None:
    text = "structured: Grüße\n  two lines "
    build_alpha(tp, Call("alpha/structured", json.dumps({"text": text})), Text("structured done"))
    outcome = tp.run("Use the structured tool.", judged=True)
    declared = tp.option("structured_content")
    if declared == "text":
        tp.expect(
            "result.structured",
            answers(tp, 0),
            [text],
            what="text the model received for a result with structuredContent (structured_content text)",
        )
    elif declared == "call_tool_result":
        tp.expect(
            "result.structured",
            [as_call_tool_result(t) for t in answers(tp, 0, pointer="")],
            [{"content": [text_block(text)], "structuredContent": {"text": text}, "isError": False}],
            what="CallToolResult the model received for a structuredContent result "
            "(structured_content call_tool_result)",
        )
    else:
        tp.expect(
            "result.structured",
            [parsed(t) for t in answers(tp, 0)],
            [{"text": text}],
            what="JSON the model received for a structuredContent result (structured_content structured)",
        )
    tp.expect_outcome(
        "result.structured",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "structured done"},
        what="the run after a result with structuredContent",
    )
