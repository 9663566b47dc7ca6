"""Tool-call arguments: what the MCP tool receives (CONTRACT.md §7; contracts/requirements/calls.yaml).

Observed at the MCP recorder: `params.arguments` of each `tools/call`. The
tools called declare every key the tests send them as a property accepting
any value (nothing required), so a runtime that forwards only declared
properties (a documented allowlist) is judged on decoding. Every argument
check builds with the `fidelity` route, whose tools declare plain
identifiers only: `fidelity/echo_args` (`ARGUMENT_KEYS`) and
`fidelity/wrap_names`, which declares names buggy decoders invent (`raw`,
`value`, `INVALID_JSON`) beside the keys sent to it. Odd property names,
which some runtimes cannot build a tool with, are on routes of their own that
only the checks needing them build (issue 22 §4): `oddkeys/echo_args`
(`ODD_KEYS`: args.odd-keys-arrive) and `rawkeys/wrap_names` (`_raw` too: one
run of args.no-invented-keys). Keys a schema does not declare have their own
check (`undeclared_arguments`). The order in which the calls of one batch
reach the server is not contract: collections of received arguments are
compared as multisets, and values under §2 JSON-equality (key order ignored,
numbers by value).
"""

from __future__ import annotations

import json
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, Text, ToolCalls
from toolproof.fakes.mcp_tools import ARGUMENT_KEYS, ODD_KEYS
from toolproof.plugin.scenario import Scenario
from toolproof.strategies.arguments import ijson_values, string_encoded

from ._calls import (
    FINAL_TEXT,
    as_multiset,
    canonical,
    expect_json_equal,
    expect_not_called_path,
    received_arguments,
)

ROUTE: Final = "fidelity"
ECHO: Final = "fidelity/echo_args"
"""Declares every key of ARGUMENT_KEYS: the object-fidelity, string-encoded, blank and undeclared-key runs."""
WRAP: Final = "fidelity/wrap_names"
"""Declares raw, value, INVALID_JSON, q, a and k: the non-object, null, invalid-JSON and invented-key
runs."""
ODD_ROUTE: Final = "oddkeys"
ODD_ECHO: Final = "oddkeys/echo_args"
"""Declares every key of ODD_KEYS: only the odd-key runs (args.odd-keys-arrive) build with it."""
RAW_ROUTE: Final = "rawkeys"
RAW_WRAP: Final = "rawkeys/wrap_names"
"""Declares raw, _raw, value, INVALID_JSON, a and k: only the `_raw` run of args.no-invented-keys."""

OBJECT: Final[dict[str, Any]] = {
    "q": "Zürich 天気 🌦",
    "items": [1, -2.5, None, True, {"deep": {"deeper": []}}],
    "n": -9007199254740991,
    "f": 0.1,
    "nothing": None,
    "empty": {},
    "text": 'line\nbreak "quoted" \\ back\u0000nul',
    "padded": " value ",
    "note": "true",
    "level": " None ",
    "city": "null",
}
"""A literal object under plain keys: unicode, escapes, an extreme I-JSON integer, null, nesting, a
blank-edged value, and strings that spell a literal ("true", " None ", "null": a runtime that coerces
them changes the model's values). Every key is in ARGUMENT_KEYS; the odd keys are ODD_OBJECT's."""

ODD_OBJECT: Final[dict[str, Any]] = {
    "": "the empty key",
    " ": "a blank key",
    "with space": 1,
    " leading": " value ",
    "trailing ": "value ",
    "Zürich 天気 🌦": "astral",
    "ключ": [1, -2.5, None, True, {"deep": {"deeper": []}}],
    "café": "precomposed",
    "cafe\u0301": "decomposed",
    "Key": 1,
    "key": 2,
    "_private": "underscore",
    "class": "keyword",
    "$ref": "#/not/a/reference",
    "$defs": {},
    "type": "string",
    "properties": {"q": {"type": "string"}},
    "0": "zero",
    "-1": -1,
    "null": None,
    "true": False,
    "a.b": "dotted",
    "/a~1b": "pointer",
    'say "hi"': "quoted",
    "back\\slash": "\\",
    "tab\there": "\t",
    "new\nline": "\n",
}
"""A literal object with every key of ODD_KEYS: empty and blank-edged keys, unicode, keys one
normalisation or case fold apart, a leading underscore, a keyword, keys that look like JSON Schema
keywords, JSON pointers or JSON literals, escapes."""

NON_OBJECT_VALUES: Final[list[Any]] = [
    [1, "two", None],
    42,
    -0.5,
    True,
    "just text",
    "  ",
    "{nope",
]
"""Arrays, numbers, booleans and strings whose content is not JSON (blank one included: never trimmed).
The empty array has its own test (`empty_array_arguments`)."""

INVALID_JSON: Final[list[str]] = [
    '{"q": "unterminated',
    "{q: 1}",
    '{"q": "a",}',
    "{'q': 'a'}",
    '{"q": NaN}',
    '{"q": Infinity}',
    '{"q": -Infinity}',
    '{"q": "a"} trailing',
    '{"q": 1}{"q": 2}',
    "nul",
]
"""Not JSON (RFC 8259): truncated, unquoted key, trailing comma, quotes, NaN and the infinities (no
JSON token), garbage. Blank arguments are not here: they give {} (tp-args-empty-blank)."""

BLANK_ARGUMENTS: Final[list[str]] = ["", " ", "\t\n\r ", "\n"]
"""Empty, and made only of RFC 8259 whitespace (space, tab, line feed, carriage return)."""


def objects_keyed_by(keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """I-JSON objects whose keys are drawn from `keys` (the properties of the tool they go to)."""
    return st.dictionaries(st.sampled_from(keys), ijson_values(), max_size=6)


def _run_batch(
    tp: Scenario, tool: str, *arguments: str, judged: bool = False, may_fail_with: tuple[str, ...] = ()
) -> Outcome:
    """One batch of calls of `tool` (`<route>/<tool>`) with these raw arguments, then the final text.

    The build has one server, the tool's route (server id = route). `Scenario.run` takes the other
    arguments.
    """
    route = tool.partition("/")[0]
    tp.script(ToolCalls(tuple(Call(tool, raw) for raw in arguments)), Text(FINAL_TEXT))
    tp.build(tp.config({route: tp.server(route)}))
    return tp.run("Call the tool with these arguments.", judged=judged, may_fail_with=may_fail_with)


@pytest.mark.checks("args.object-arrives")
@pytest.mark.capability("model.*")
def test_object_arguments_arrive_as_sent(tp: Scenario) -> None:
    _run_batch(tp, ECHO, json.dumps(OBJECT, ensure_ascii=False), json.dumps(OBJECT, indent=2))
    expect_json_equal(
        tp,
        "args.object-arrives",
        received_arguments(tp, ROUTE),
        [OBJECT, OBJECT],
        what="params.arguments of the two tools/call (the object sent compact, then indented)",
    )


@pytest.mark.checks("args.odd-keys-arrive")
@pytest.mark.capability("model.*")
def test_odd_keys_arrive_as_sent(tp: Scenario) -> None:
    _run_batch(tp, ODD_ECHO, json.dumps(ODD_OBJECT, ensure_ascii=False), json.dumps(ODD_OBJECT, indent=2))
    expect_json_equal(
        tp,
        "args.odd-keys-arrive",
        received_arguments(tp, ODD_ROUTE),
        [ODD_OBJECT, ODD_OBJECT],
        what="params.arguments of the two tools/call (the odd-keyed object sent compact, then indented)",
    )


@pytest.mark.checks("args.odd-keys-arrive")
@pytest.mark.capability("model.*")
@settings(
    # One build and run with five tool calls per example (~0.45 s on the reference).
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    objects=st.lists(objects_keyed_by(ODD_KEYS), min_size=5, max_size=5, unique_by=canonical),
    ascii_only=st.booleans(),
)
def test_any_ijson_object_with_odd_keys_arrives(
    tp: Scenario, objects: list[dict[str, Any]], ascii_only: bool
) -> None:
    """Five I-JSON objects, keys drawn from ODD_KEYS, sent as plain JSON text."""
    plain = tp.sibling()
    # Judged: a run that fails as a whole is this check's own observation.
    _run_batch(plain, ODD_ECHO, *(string_encoded(o, 0, ascii_only=ascii_only) for o in objects), judged=True)
    expect_json_equal(
        plain,
        "args.odd-keys-arrive",
        as_multiset(received_arguments(plain, ODD_ROUTE)),
        as_multiset(objects),
        what="five objects with odd keys sent as plain JSON text, as the tool received them",
    )


ENCODED_LEVELS: Final = (1, 2, 3, 4)
"""Extra string encodings of the objects of the string-encoded run (one object per level)."""


@pytest.mark.checks("args.object-any-ijson")
@pytest.mark.capability("model.*")
@settings(
    # Each example is one build and run with five tool calls (~0.45 s on the reference).
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    objects=st.lists(objects_keyed_by(ARGUMENT_KEYS), min_size=5, max_size=5, unique_by=canonical),
    ascii_only=st.booleans(),
)
def test_any_ijson_object_arrives(tp: Scenario, objects: list[dict[str, Any]], ascii_only: bool) -> None:
    """Five I-JSON objects sent as plain JSON text, on every model wire (on anthropic.messages each
    is a tool_use input). The string-encoded levels are the next test's: argument text the Messages
    API cannot carry (contract v7, docs/anthropic-groundwork.md)."""
    plain = tp.sibling()
    # Judged: a run that fails as a whole is this check's own observation.
    _run_batch(plain, ECHO, *(string_encoded(o, 0, ascii_only=ascii_only) for o in objects), judged=True)
    expect_json_equal(
        plain,
        "args.object-any-ijson",
        as_multiset(received_arguments(plain, ROUTE)),
        as_multiset(objects),
        what="five objects sent as plain JSON text, as the tool received them",
    )


@pytest.mark.checks("args.string-encoded-any-ijson")
@pytest.mark.capability("openai.*")
@settings(
    # Each example is one build and run with four tool calls (~0.45 s on the reference).
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    encoded=st.lists(objects_keyed_by(ARGUMENT_KEYS), min_size=4, max_size=4, unique_by=canonical),
    ascii_only=st.booleans(),
)
def test_any_ijson_object_arrives_string_encoded(
    tp: Scenario, encoded: list[dict[str, Any]], ascii_only: bool
) -> None:
    """Under unwrap, four I-JSON objects string-encoded 1-4 extra times reach the tool as objects.

    A run of its own (the plain objects are the previous test's): a defect of the unwrap step never
    reaches the plain-object check, and a batch that fails as a whole fails only its own check.
    """
    if tp.option("string_encoded_arguments") != "unwrap":
        # Under "reject" the encoded levels have their own example-based check.
        tp.not_testable(
            "args.string-encoded-any-ijson",
            "declared string_encoded_arguments reject: the levels are judged by args.string-encoded-levels",
        )
        return
    levels = tp.sibling()
    _run_batch(
        levels,
        ECHO,
        *(string_encoded(o, n, ascii_only=ascii_only) for o, n in zip(encoded, ENCODED_LEVELS, strict=True)),
        judged=True,
    )
    expect_json_equal(
        levels,
        "args.string-encoded-any-ijson",
        as_multiset(received_arguments(levels, ROUTE)),
        as_multiset(encoded),
        what="four objects string-encoded 1, 2, 3 and 4 extra times, as the tool received them",
    )


LEVEL_OBJECT: Final[dict[str, Any]] = {"city": "Zürich", "days": [1, 2], "metric": True, "note": None}


@pytest.mark.checks("args.string-encoded-levels")
@pytest.mark.capability("openai.*")
def test_string_encoded_object_levels_one_to_four(tp: Scenario) -> None:
    objects = [{**LEVEL_OBJECT, "level": n} for n in (1, 2, 3, 4)]
    outcome = _run_batch(tp, ECHO, *(string_encoded(o, o["level"]) for o in objects), judged=True)
    received = received_arguments(tp, ROUTE)
    if tp.option("string_encoded_arguments") == "unwrap":
        expect_json_equal(
            tp,
            "args.string-encoded-levels",
            as_multiset(received),
            as_multiset(objects),
            what="declared unwrap: what the tool received for levels 1-4",
        )
        return
    tp.expect(
        "args.string-encoded-levels",
        received,
        [],
        what="declared reject: tools/call requests for string-encoded arguments",
    )
    expect_not_called_path(
        tp,
        "args.string-encoded-levels",
        tp.option("invalid_json_arguments"),
        outcome,
        what="declared reject, handled as invalid_json_arguments",
    )


@pytest.mark.checks("args.non-object-per-option")
@pytest.mark.capability("openai.*")
def test_non_object_arguments_go_the_declared_way(tp: Scenario) -> None:
    outcome = _run_batch(tp, WRAP, *(json.dumps(v) for v in NON_OBJECT_VALUES), judged=True)
    received = received_arguments(tp, ROUTE)
    option = tp.option("non_object_arguments")
    if option == "wrap_value":
        expect_json_equal(
            tp,
            "args.non-object-per-option",
            as_multiset(received),
            as_multiset([{"value": v} for v in NON_OBJECT_VALUES]),
            what="declared wrap_value: what the tool received",
        )
        return
    tp.expect(
        "args.non-object-per-option",
        received,
        [],
        what=f"declared {option}: tools/call requests for non-object arguments",
    )
    expect_not_called_path(tp, "args.non-object-per-option", option, outcome, what=f"declared {option}")


def expect_empty_object_or_non_object(
    tp: Scenario, check_id: str, raw: str, wrapped: Any, *, option: str
) -> None:
    """One call with arguments `raw` (a JSON value that stands for no arguments to some runtimes):
    the tool receives {} when `option` declares empty_object; otherwise it goes the declared
    non-object way (under wrap_value the tool receives {"value": wrapped})."""
    outcome = _run_batch(tp, WRAP, raw, judged=True)
    received = received_arguments(tp, ROUTE)
    if tp.option(option) == "empty_object":
        tp.expect(
            check_id,
            received,
            [{}],
            what=f"declared {option} empty_object: what the tool received for arguments {raw!r}",
        )
        return
    way = tp.option("non_object_arguments")
    if way == "wrap_value":
        tp.expect(
            check_id,
            received,
            [{"value": wrapped}],
            what=f"declared {option} non_object under wrap_value: what the tool received for {raw!r}",
        )
        return
    tp.expect(
        check_id, received, [], what=f"declared {option} non_object under {way}: tools/call for {raw!r}"
    )
    expect_not_called_path(tp, check_id, way, outcome, what=f"{raw!r} under {way}")


@pytest.mark.checks("args.non-object-per-option")
@pytest.mark.capability("openai.*")
def test_empty_array_arguments_go_the_declared_way(tp: Scenario) -> None:
    expect_empty_object_or_non_object(
        tp, "args.non-object-per-option", "[]", [], option="empty_array_arguments"
    )


@pytest.mark.checks("args.empty-and-blank-give-empty-object")
@pytest.mark.capability("openai.*")
def test_empty_and_blank_arguments_give_an_empty_object(tp: Scenario) -> None:
    _run_batch(tp, ECHO, *BLANK_ARGUMENTS)
    expect_json_equal(
        tp,
        "args.empty-and-blank-give-empty-object",
        received_arguments(tp, ROUTE),
        [{}, {}, {}, {}],
        what='what the tool received for arguments "", " ", "\\t\\n\\r " and "\\n"',
    )


@pytest.mark.checks("args.null-per-option")
@pytest.mark.capability("openai.*")
def test_null_arguments_go_the_declared_way(tp: Scenario) -> None:
    expect_empty_object_or_non_object(tp, "args.null-per-option", "null", None, option="null_arguments")


DECLARED_AND_UNDECLARED: Final[dict[str, Any]] = {
    "q": "declared",
    "days": [1],
    "undeclared": 1,
    "also_undeclared": {"nested": None},
}
"""`q` and `days` are properties of fidelity/echo_args; the other two keys are not."""


@pytest.mark.checks("args.undeclared-keys-per-option")
@pytest.mark.capability("model.*")
def test_undeclared_keys_go_the_declared_way(tp: Scenario) -> None:
    _run_batch(tp, ECHO, json.dumps(DECLARED_AND_UNDECLARED, ensure_ascii=False))
    option = tp.option("undeclared_arguments")
    if option == "forward":
        expected: dict[str, Any] = DECLARED_AND_UNDECLARED
    else:
        expected = {"q": "declared", "days": [1]}
    expect_json_equal(
        tp,
        "args.undeclared-keys-per-option",
        received_arguments(tp, ROUTE),
        [expected],
        what=f"declared {option}: what the tool received for an object with two undeclared keys",
    )


@pytest.mark.checks("args.invalid-json-not-called")
@pytest.mark.capability("openai.*")
def test_invalid_json_arguments_never_reach_the_tool(tp: Scenario) -> None:
    outcome = _run_batch(tp, WRAP, *INVALID_JSON, judged=True)
    tp.expect(
        "args.invalid-json-not-called",
        received_arguments(tp, ROUTE),
        [],
        what="tools/call requests for arguments that are not JSON",
    )
    expect_not_called_path(
        tp,
        "args.invalid-json-not-called",
        tp.option("invalid_json_arguments"),
        outcome,
        what="invalid JSON arguments",
    )


SENT_KEYS: Final = frozenset({"a", "k"})
SHAPES: Final = ("[1, 2]", '"just text"', "{oops", string_encoded({"k": 1}, 2))
"""Arguments a decoder may invent keys for: an array, a string that is not JSON, invalid JSON, and an
object string-encoded twice. How each one's call and run end is its own check's
(args.non-object-per-option, args.invalid-json-not-called, args.string-encoded-levels)."""


@pytest.mark.checks("args.no-invented-keys")
@pytest.mark.capability("openai.*")
@pytest.mark.parametrize("tool", [WRAP, RAW_WRAP], ids=["fidelity", "rawkeys"])
def test_no_tool_receives_a_key_the_model_did_not_send(tp: Scenario, tool: str) -> None:
    """Once on `fidelity/wrap_names` (raw, value, INVALID_JSON declared: plain identifiers, which every
    runtime builds) and once on `rawkeys/wrap_names`, which declares `_raw` too: a runtime that cannot
    build that tool is still judged on the other names.

    One build per shape: a run that one shape ends or crashes neither hides the keys the others give
    nor charges this test's precondition with what that shape's own check already judges (one
    defect, one failure). Those runs are judged here only by the keys the tool received; the plain
    object's run is the step this test needs, and its call must reach the tool as sent.
    """
    route = tool.partition("/")[0]
    shaped = [tp.sibling() for _ in SHAPES]
    for one, raw in zip(shaped, SHAPES, strict=True):
        _run_batch(one, tool, raw, judged=True)
    _run_batch(tp, tool, '{"a": 1}')
    tp.expect(
        "args.no-invented-keys",
        received_arguments(tp, route),
        [{"a": 1}],
        what=f'what {tool} received for the plain object {{"a": 1}} (the call this check stands on)',
    )
    allowed = SENT_KEYS | ({"value"} if tp.option("non_object_arguments") == "wrap_value" else set())
    received = [args for one in (tp, *shaped) for args in received_arguments(one, route)]
    invented = sorted({key for args in received if isinstance(args, dict) for key in args} - allowed)
    tp.expect(
        "args.no-invented-keys",
        invented,
        [],
        what=f"keys {tool} received beyond those the model sent ({sorted(allowed)})",
    )
