"""toolproof.judge.findings: each classifier names a deviation only when it explains the whole
observed difference, from literal inputs; and the report merges failures that share one."""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import CheckResult
from toolproof.judge.findings import (
    CLASSIFIERS,
    DEVIATIONS,
    NAMES_UNCHANGED_MESSAGES,
    READERS,
    Traffic,
    classify,
    invariant_deviation,
    invented_keys,
    merge,
    names_unchanged,
    python_repr,
    received_arguments,
    received_from_sent,
    repr_texts,
    row_deviation,
    sent_values,
    tool_texts,
)
from toolproof.judge.jsondiff import Multiset
from toolproof.report.model import Report


@pytest.mark.parametrize(
    ("observed", "expected", "deviation"),
    [
        pytest.param(
            [{"a": 1}, {"b": {"c": 2}, "l": [None, {"k": 1}]}],
            [{"a": 1, "x": None}, {"b": {"c": 2, "d": None}, "l": [None, {"k": 1, "m": None}]}],
            "nulls-dropped",
            id="null-valued keys dropped at every depth; null array items kept",
        ),
        pytest.param(
            Multiset([{"y": 2}, {"z": 1}]),
            Multiset([{"a": None, "z": 1}, {"b": None, "y": 2}]),
            "nulls-dropped",
            id="one null dropped from each object of a multiset, whose sort order it changes",
        ),
        pytest.param(
            [{"0": 1, "1": "two", "2": None}, {"value": 42}, {}],
            [{"value": [1, "two", None]}, {"value": 42}, {"value": []}],
            "index-keys",
            id="wrapped arrays spread into index keys, the empty one into {}",
        ),
        pytest.param(
            Multiset([{"raw": 42}, {"raw": None}, {"raw": [1]}]),
            Multiset([{"value": None}, {"value": 42}, {"value": [1]}]),
            "raw-wrapper",
            id="every wrapped non-object under raw",
        ),
        pytest.param(
            [{"a": 2}],
            [{"a": 1, "x": None}],
            None,
            id="a null dropped and a value changed: not only the drop",
        ),
        pytest.param(
            [{"b": {"d": None}}],
            [{"x": None, "b": {"d": None}}],
            None,
            id="only the top-level null dropped: not the transformation named",
        ),
        pytest.param([{"a": [1]}], [{"a": [1, None]}], None, id="a null array item removed"),
        pytest.param(
            [{"0": [1, "two"]}],
            [{"value": [1, "two"]}],
            None,
            id="an array wrapped under the key 0, not spread",
        ),
        pytest.param(
            [{"raw": 42}, {"value": "x"}],
            [{"value": 42}, {"value": "x"}],
            None,
            id="raw for one non-object, value for the other: not one transformation",
        ),
        pytest.param([{"raw": 42}], [], None, id="a call that should not have happened (declared reject)"),
        pytest.param([{"value": 1}], [{"value": 1}], None, id="no difference"),
        pytest.param(
            [{"q": 1}, {"q": 2}],
            [{"q": 2}, {"q": 1}],
            None,
            id="the order of an ordered comparison: no transformation explains it",
        ),
        pytest.param("<no model request 1>", ["a"], None, id="not a list"),
    ],
)
def test_received_arguments(observed: Any, expected: Any, deviation: str | None) -> None:
    assert received_arguments(observed, expected) == deviation


def test_a_multiset_drop_is_not_explained_by_an_ordered_comparison() -> None:
    # the same values, compared in order: the dropped nulls explain them only as a multiset
    observed = [{"y": 2}, {"z": 1}]
    expected = [{"a": None, "z": 1}, {"b": None, "y": 2}]
    assert (received_arguments(observed, expected), received_arguments(observed, Multiset(expected))) == (
        None,
        "nulls-dropped",
    )


SENT = sent_values(["[1, 2]", '"just text"', "{oops", '"{\\"k\\": 1}"', '{"a": 1}', '{"q": NaN}'])


def test_sent_values_are_the_json_values_of_the_arguments_the_model_sent() -> None:
    assert SENT == ([1, 2], "just text", '{"k": 1}', {"a": 1})


@pytest.mark.parametrize(
    ("observed", "received", "deviation"),
    [
        pytest.param(
            ["0", "1"],
            ({"0": 1, "1": 2}, {"value": "just text"}, {"k": 1}, {"a": 1}),
            "index-keys",
            id="the index keys of the array the model sent",
        ),
        pytest.param(
            ["raw"],
            ({"raw": [1, 2]}, {"raw": "just text"}, {"k": 1}, {"a": 1}),
            "raw-wrapper",
            id="raw around the non-objects the model sent",
        ),
        pytest.param(
            ["0"],
            ({"0": [1, 2]}, {"value": "just text"}, {"k": 1}, {"a": 1}),
            None,
            id="an array wrapped under the key 0: not spread",
        ),
        pytest.param(
            ["0", "1", "2", "3", "4", "5", "6", "7", "8"],
            ({"0": 1, "1": 2}, dict(enumerate("just text")), {"k": 1}, {"a": 1}),
            None,
            id="a string spread too: more than the arrays' index keys",
        ),
        pytest.param(
            ["raw"],
            ({"value": [1, 2]}, {"value": "just text"}, {"raw": "{oops"}, {"k": 1}, {"a": 1}),
            None,
            id="raw around the invalid JSON text, which is no value the model sent",
        ),
        pytest.param(
            ["0", "1", "raw"],
            ({"0": 1, "1": 2}, {"raw": "just text"}, {"k": 1}, {"a": 1}),
            None,
            id="two deviations at once",
        ),
        pytest.param(["0", "1"], (), None, id="no received object holds the keys"),
    ],
)
def test_invented_keys(observed: list[str], received: tuple[Any, ...], deviation: str | None) -> None:
    assert invented_keys(observed, [], Traffic(sent=SENT, received=received)) == deviation


def test_invented_keys_only_judge_the_invented_keys_comparison() -> None:
    traffic = Traffic(sent=SENT, received=({"0": 1, "1": 2},))
    assert invented_keys([], [], traffic) is None
    assert invented_keys(["0", "1"], ["0"], traffic) is None
    assert classify("tool-arguments", "args.no-invented-keys", ["0", "1"], [], traffic) == "index-keys"
    # the same observation under any other check of the observation is an argument list: no name
    assert classify("tool-arguments", "args.invalid-json-not-called", ["0", "1"], [], traffic) is None


REPR_OK = "[TextContent(type='text', text='ok', annotations=None, meta=None)]"


@pytest.mark.parametrize(
    ("text", "texts"),
    [
        (REPR_OK, ["ok"]),
        ("[]", []),
        (
            "[TextContent(type='text', text=\"it's\"), TextContent(type='text', text='\\n b ')]",
            ["it's", "\n b "],
        ),
        ("[ImageContent(type='image', data='', mimeType='image/png')]", None),
        ("[TextContent(type='image', text='x')]", None),
        ("[TextContent('text', 'ok')]", None),
        ("[TextContent(type='text', text=str(1))]", None),
        ("TextContent(type='text', text='ok')", None),
        ("type='text' text='ok' annotations=None meta=None", None),
        ("[1, 2]", None),
        ("ok", None),
        ("", None),
    ],
)
def test_repr_texts(text: str, texts: list[str] | None) -> None:
    assert repr_texts(text) == texts


@pytest.mark.parametrize(
    ("observed", "expected", "deviation"),
    [
        pytest.param(
            ["lookup failed\n  (code 42)", "ok"],
            ["lookup failed\n  (code 42) ", "ok"],
            "text-trimmed",
            id="trim",
        ),
        pytest.param("two lines", " two lines\n", "text-trimmed", id="one text"),
        pytest.param([REPR_OK, REPR_OK], ["ok", "ok"], "python-repr", id="repr of one block each"),
        pytest.param(["[]"], [""], "python-repr", id="repr of no block for an empty text"),
        pytest.param(
            [
                "[TextContent(type='text', text='a'), TextContent(type='text', text=''),"
                " TextContent(text='c')]"
            ],
            ["a--c"],
            "python-repr",
            id="repr of several blocks, whose texts joined by one separator are the expected text",
        ),
        pytest.param(
            ["[TextContent(type='text', text='a'), TextContent(type='text', text='b')]"],
            ["a-b-"],
            None,
            id="the blocks' texts do not make the expected text",
        ),
        pytest.param(["lookup failed"], [" lookup failed: 42 "], None, id="trimmed and cut"),
        pytest.param(["a "], [" a "], None, id="only the leading whitespace removed"),
        pytest.param([REPR_OK, "ok"], ["okay", "ok"], None, id="a repr of another text than the tool's"),
        pytest.param(["ok", "ok"], ["ok"], None, id="another number of texts"),
        pytest.param([{"text": "a"}], [{"text": " a "}], None, id="parsed JSON, not text"),
        pytest.param(["<no tool message for call c1>"], ["ok"], None, id="a missing answer"),
        pytest.param(["ok"], ["ok"], None, id="no difference"),
    ],
)
def test_tool_texts(observed: Any, expected: Any, deviation: str | None) -> None:
    assert tool_texts("result.verbatim", observed, expected, Traffic()) == deviation


def test_texts_per_request_are_paired_position_by_position() -> None:
    observed = [[REPR_OK], ["[TextContent(type='text', text='long ok', annotations=None, meta=None)]"]]
    assert tool_texts("x", observed, [["ok"], ["long ok"]], Traffic()) == "python-repr"
    assert tool_texts("x", observed, [["ok"], ["long ok", "more"]], Traffic()) is None
    assert tool_texts("x", [("q", REPR_OK)], [("q", "ok")], Traffic()) is None


def test_checks_of_other_observations_are_classified_only_when_named() -> None:
    texts = ([REPR_OK], ["ok"])
    assert classify("dedup-survivor-endpoint", "dedup.balda-call-carries-token", *texts) == "python-repr"
    assert classify("tool-wire-names", "wire.invalid-name-maps-back", [texts[0]], [texts[1]]) == "python-repr"
    assert classify("tool-wire-names", "wire.invalid-name-reject", *texts) is None
    dropped = ([{"q": 1}], [{"q": 1, "n": None}])
    assert classify("undeclared-arguments", "args.undeclared-keys-per-option", *dropped) == "nulls-dropped"


def test_an_observation_without_a_classifier_is_never_named() -> None:
    assert python_repr(REPR_OK, "ok") is True
    assert classify("run-output", "loop.completed-output", [REPR_OK], ["ok"]) is None
    assert classify("tool-result-text", "receipt.ok-verbatim", [REPR_OK], ["ok"]) == "python-repr"


def test_every_owner_is_a_catalog_check_that_a_classifier_reads() -> None:
    checks = load_catalog().checks
    groups = {d.id: {checks[c].group for c in d.owners} for d in DEVIATIONS.values()}
    assert groups == {
        "nulls-dropped": {"tool-arguments", "undeclared-arguments"},
        "index-keys": {"tool-arguments"},
        "raw-wrapper": {"tool-arguments"},
        "passed-through": {"tool-arguments"},
        "text-trimmed": {"tool-result-text"},
        "python-repr": {"tool-result-text"},
        "names-unchanged": {"tool-wire-names"},
        "names-unchanged-messages": {"anthropic-tool-names"},
    }
    unread = [
        c
        for d in DEVIATIONS.values()
        for c in d.owners
        if c not in READERS and checks[c].group not in CLASSIFIERS
    ]
    assert unread == []
    assert sorted(c for c in READERS if c not in checks) == []


def test_a_row_has_a_deviation_only_when_every_failure_of_it_has_the_same() -> None:
    assert row_deviation(["python-repr", "python-repr"]) == "python-repr"
    assert row_deviation(["python-repr", None]) is None
    assert row_deviation(["python-repr", "text-trimmed"]) is None
    assert row_deviation(["no-such-deviation"]) is None
    assert row_deviation([]) is None


def test_merge_charges_a_deviation_to_its_first_failing_owner() -> None:
    rows = [
        {"id": "receipt.ok-verbatim", "deviation": "python-repr"},
        {"id": "result.empty", "deviation": "python-repr"},
        {"id": "receipt.no-synthesized-status", "deviation": "python-repr"},
        {"id": "args.no-invented-keys", "deviation": "raw-wrapper"},
        {"id": "args.null-per-option", "deviation": "raw-wrapper"},
        {"id": "loop.completed-output", "deviation": None},
    ]
    assert merge(rows) == {
        # result.verbatim did not fail: the next owner, never a receipt check
        "receipt.ok-verbatim": "result.empty",
        "result.empty": "result.empty",
        "receipt.no-synthesized-status": "result.empty",
        "args.no-invented-keys": "args.null-per-option",
        "args.null-per-option": "args.null-per-option",
        "loop.completed-output": "loop.completed-output",
    }
    # no owner failed: the first by ID
    assert merge([{"id": "receipt.ok-verbatim", "deviation": "python-repr"}]) == {
        "receipt.ok-verbatim": "receipt.ok-verbatim"
    }


def result(
    check: str, status: str, test: str, deviation: str | None = None, message: str = "m"
) -> CheckResult:
    spec = load_catalog().check(check)
    return CheckResult(
        check=check,
        requirement=spec.requirement,
        level=spec.level,
        status=status,  # type: ignore[arg-type]
        side="candidate",
        message=message,
        test=test,
        deviation=deviation,
    )


def test_the_report_keeps_every_failing_row_and_marks_the_same_finding() -> None:
    report = Report(
        candidate_spec="x",
        hello=None,
        results=[
            result("result.verbatim", "fail", "t1", "python-repr"),
            result("receipt.ok-verbatim", "fail", "t2", "python-repr", message="receipts"),
            # failed twice, once unexplained: a finding of its own
            result("result.empty", "fail", "t3", "python-repr"),
            result("result.empty", "fail", "t4"),
            result("result.is-error", "pass", "t5"),
            result("args.object-arrives", "fail", "t6", "nulls-dropped"),
        ],
    )
    data = report.serializable({})
    rows = {
        r["id"]: (r["status"], r["deviation"], r["finding"], r["same_finding_as"], r["message"])
        for r in data["checks"]
    }
    assert rows == {
        "args.object-arrives": ("fail", "nulls-dropped", "args.object-arrives", None, "m"),
        "receipt.ok-verbatim": ("fail", "python-repr", "result.verbatim", "result.verbatim", "receipts"),
        "result.empty": ("fail", None, "result.empty", None, "m"),
        "result.is-error": ("pass", None, None, None, "m"),
        "result.verbatim": ("fail", "python-repr", "result.verbatim", None, "m"),
    }
    assert data["findings"] == [
        {
            "id": "args.object-arrives",
            "deviation": "nulls-dropped",
            "text": "null-valued keys dropped from object arguments",
            "checks": ["args.object-arrives"],
            "level": "MUST",
            "expected_failure": False,
        },
        {
            "id": "result.empty",
            "deviation": None,
            "text": None,
            "checks": ["result.empty"],
            "level": "MUST",
            "expected_failure": False,
        },
        {
            "id": "result.verbatim",
            "deviation": "python-repr",
            "text": "tool text replaced by a Python repr of the MCP content objects",
            "checks": ["result.verbatim", "receipt.ok-verbatim"],
            "level": "MUST",
            "expected_failure": False,
        },
    ]
    assert [(r["check"], r["test"], r["finding"]) for r in data["results"]] == [
        ("result.verbatim", "t1", "result.verbatim"),
        ("receipt.ok-verbatim", "t2", "result.verbatim"),
        ("result.empty", "t3", "result.empty"),
        ("result.empty", "t4", "result.empty"),
        ("result.is-error", "t5", None),
        ("args.object-arrives", "t6", "args.object-arrives"),
    ]
    assert (
        data["summary"]["findings"],
        data["summary"]["fail"],
        data["summary"]["failing_observations"],
    ) == (
        3,
        4,
        2,
    )


NON_OBJECTS_SENT = ('[1, "two", null]', "42", "-0.5", "true", '"just text"', '"  "', '"{nope"')
"""The non-object arguments conformance/test_arguments.py sends (raw texts)."""


def _sent(*texts: str) -> Traffic:
    return Traffic(sent=sent_values(texts), texts=texts)


@pytest.mark.parametrize(
    ("observed", "expected", "traffic", "deviation"),
    [
        pytest.param(
            [[1, "two", None], 42, -0.5, True, "just text", "  ", "{nope"],
            [],
            _sent(*NON_OBJECTS_SENT),
            "passed-through",
            id="not-called path: every decoded non-object reached the tool as it is (the AI SDK)",
        ),
        pytest.param(
            [None],
            [{}],
            _sent("null"),
            "passed-through",
            id="null forwarded where {} was declared",
        ),
        pytest.param(
            ['"{\\"city\\": 1}"'],
            [{"city": 1}],
            _sent('"\\"{\\\\\\"city\\\\\\": 1}\\""'),
            "passed-through",
            id="a string-encoded object forwarded as the string it decodes to, not unwrapped",
        ),
        pytest.param(
            [{"raw": [1, "two", None]}, {"raw": 42}, {"raw": "{nope"}],
            [],
            _sent('[1, "two", null]', "42", '"{nope"'),
            "raw-wrapper",
            id='not-called path: non-objects wrapped as {"raw": value} (Agent Framework)',
        ),
        pytest.param(
            [{"raw": None}],
            [{}],
            _sent("null"),
            "raw-wrapper",
            id='"null" wrapped as {"raw": null} where {} was declared',
        ),
        pytest.param(
            [{"raw": "{q: 1}"}, {"raw": "nul"}],
            [],
            _sent("{q: 1}", "nul"),
            "raw-wrapper",
            id="invalid JSON wrapped as its raw text (the seed's form)",
        ),
        pytest.param(
            [{"0": 1, "1": 2}],
            [],
            _sent("[1, 2]"),
            "index-keys",
            id="not-called path: an array spread into index keys",
        ),
        pytest.param(
            [{"raw": "{q: 1}"}, {"q": None}],
            [],
            _sent("{q: 1}", '{"q": NaN}'),
            None,
            id="two defects (a raw wrapper and NaN read as null) are not one",
        ),
        pytest.param(
            [42, {"a": 1}],
            [],
            _sent("42"),
            None,
            id="an item no deviation makes of what was sent",
        ),
        pytest.param(
            [{"a": 1}],
            [{"a": 1}, {"b": 2}],
            _sent('{"a": 1}', '{"b": 2}'),
            None,
            id="a call missing, nothing extra: not named",
        ),
        pytest.param(
            [{"a": 1}, {"a": 1}],
            [{"a": 1}],
            _sent('{"a": 1}'),
            None,
            id="an object delivered twice is no transformation",
        ),
    ],
)
def test_received_from_sent(observed: Any, expected: Any, traffic: Traffic, deviation: str | None) -> None:
    assert received_from_sent(observed, expected, traffic) == deviation


SERVED = frozenset({"balda.control.shutdown", "lookup", "x" * 70})


@pytest.mark.parametrize(
    ("offered", "deviation"),
    [
        pytest.param(("lookup", "balda.control.shutdown"), "names-unchanged", id="a dotted name as served"),
        pytest.param(("x" * 70,), "names-unchanged", id="a 70-character name as served"),
        pytest.param(("lookup", "runtime_tool_0a1b2c3d4e5f"), None, id="aliased: nothing invalid"),
        pytest.param(("balda.control.shutdown", "made.up"), None, id="an invalid name nobody served"),
        pytest.param(("x" * 64 + "...",), None, id="a name the runtime changed into another invalid one"),
    ],
)
def test_names_unchanged(offered: tuple[str, ...], deviation: str | None) -> None:
    assert names_unchanged(offered, SERVED) == deviation


@pytest.mark.parametrize(
    ("offered", "deviation"),
    [
        pytest.param(
            ("lookup", "balda.control.shutdown"), "names-unchanged-messages", id="a dotted name as served"
        ),
        pytest.param(("x" * 70,), None, id="a 70-character name is valid on the Messages API"),
        pytest.param(("lookup", "runtime_tool_0a1b2c3d4e5f"), None, id="aliased: nothing invalid"),
        pytest.param(("balda.control.shutdown", "made.up"), None, id="an invalid name nobody served"),
    ],
)
def test_names_unchanged_on_the_messages_api(offered: tuple[str, ...], deviation: str | None) -> None:
    assert names_unchanged(offered, SERVED, NAMES_UNCHANGED_MESSAGES) == deviation


def test_a_messages_name_check_is_named_by_the_messages_pattern() -> None:
    views = [{"tools": [{"type": "function", "function": {"name": "balda.control.shutdown"}}]}]
    assert invariant_deviation("anthropic.tool-name-pattern", views, SERVED) == "names-unchanged-messages"
    long_views = [{"tools": [{"type": "function", "function": {"name": "x" * 70}}]}]
    assert invariant_deviation("anthropic.tool-name-pattern", long_views, SERVED) is None
    traffic = Traffic(offered=("balda.control.shutdown",), served=SERVED)
    assert classify("anthropic-tool-names", "anthropic.invalid-name-per-option", [1], [2], traffic) == (
        "names-unchanged-messages"
    )
    assert classify("tool-wire-names", "anthropic.invalid-name-per-option", [1], [2], traffic) is None


def test_an_invariant_is_named_only_when_its_classifier_is_listed() -> None:
    views = [{"tools": [{"type": "function", "function": {"name": "balda.control.shutdown"}}]}]
    assert invariant_deviation("wire.function-name-pattern", views, SERVED) == "names-unchanged"
    assert invariant_deviation("wire.unique-function-names", views, SERVED) is None
    traffic = Traffic(offered=("balda.control.shutdown",), served=SERVED)
    assert classify("tool-wire-names", "wire.invalid-name-reject", {"ok": True}, {"ok": False}, traffic) == (
        "names-unchanged"
    )
    # alias-stable and maps-back are not this deviation's: unchanged names are stable and map back
    assert classify("tool-wire-names", "wire.invalid-name-alias-stable", [1], [2], traffic) is None
