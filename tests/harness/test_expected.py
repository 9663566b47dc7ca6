"""toolproof.judge.expected and the report model: strict baselines, typos named, stale entries found."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from toolproof.errors import Side, UsageError
from toolproof.judge.checks import CheckResult, Status
from toolproof.judge.expected import (
    Expected,
    baseline_from_report,
    heading_and_first_difference,
    load_baseline,
    overdue,
)
from toolproof.report import exitcodes
from toolproof.report.model import Report

PASSING = "proto.unknown-build-id"
FAILING = "loop.completed-output"
KEYS = "['check', 'issue', 'observed', 'reason', 'review_by']"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "baseline.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def result(
    check: str, status: Status, *, side: Side = "candidate", message: str = "", test: str = "t"
) -> CheckResult:
    levels = {PASSING: "MUST", FAILING: "MUST", "wire.tool-answers-in-call-order": "SHOULD"}
    requirements = {
        PASSING: "tp-proto-unknown-build",
        FAILING: "tp-loop-completed",
        "wire.tool-answers-in-call-order": "tp-wire-answer-order",
    }
    return CheckResult(
        check=check,
        requirement=requirements[check],
        level=levels[check],  # type: ignore[arg-type]
        status=status,
        side=side,
        message=message or f"{check} {status}",
        test=test,
    )


def test_a_baseline_is_parsed_into_entries(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"""
version: 1
candidate: reference
expected_failures:
  - check: {FAILING}
    reason: upstream bug
    observed: "$.output: expected x got y"
    issue: https://example.org/issues/1
    review_by: 2030-01-31
  - check: {PASSING}
    reason: flaky adapter
""",
    )
    assert load_baseline(path) == {
        FAILING: Expected(
            check=FAILING,
            reason="upstream bug",
            observed="$.output: expected x got y",
            issue="https://example.org/issues/1",
            review_by="2030-01-31",
        ),
        PASSING: Expected(check=PASSING, reason="flaky adapter"),
    }


@pytest.mark.parametrize("text", ["", "expected_failures: []\n", "version: 1\n"])
def test_an_empty_baseline(tmp_path: Path, text: str) -> None:
    assert load_baseline(write(tmp_path, text)) == {}


def test_a_typo_names_the_likely_check(tmp_path: Path) -> None:
    path = write(tmp_path, "expected_failures:\n  - check: loop.completed-outptu\n    reason: r\n")
    with pytest.raises(UsageError) as caught:
        load_baseline(path)
    assert (
        str(caught.value)
        == "unknown check id 'loop.completed-outptu' (did you mean 'loop.completed-output'?)"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("- check: x\n", "expected a mapping with an 'expected_failures' list"),
        ("expected_failures: {check: x}\n", "expected a mapping with an 'expected_failures' list"),
        (
            f"expected_failures:\n  - check: {FAILING}\n",
            f"bad entry {{'check': '{FAILING}'}} (keys: {KEYS})",
        ),
        (
            f"expected_failures:\n  - check: {FAILING}\n    reason: r\n    because: x\n",
            f"bad entry {{'check': '{FAILING}', 'reason': 'r', 'because': 'x'}} (keys: {KEYS})",
        ),
        (
            "expected_failures:\n  - just a string\n",
            f"bad entry 'just a string' (keys: {KEYS})",
        ),
        (
            f"expected_failures:\n  - {{check: {FAILING}, reason: a}}\n  - {{check: {FAILING}, reason: b}}\n",
            f"{FAILING} listed twice",
        ),
        (
            f"expected_failures:\n  - {{check: {FAILING}, reason: a, review_by: next month}}\n",
            f"{FAILING}: review_by 'next month' is not a date (YYYY-MM-DD)",
        ),
    ],
)
def test_malformed_baselines_are_usage_errors(tmp_path: Path, text: str, problem: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as caught:
        load_baseline(path)
    assert str(caught.value) == f"--expected-failures {path}: {problem}"
    assert caught.value.side == "environment"


def test_a_missing_baseline_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(UsageError) as caught:
        load_baseline(path)
    assert str(caught.value) == f"--expected-failures {path}: [Errno 2] No such file or directory: '{path}'"


def test_overdue_entries() -> None:
    entries = {
        "a": Expected(check="a", reason="r", review_by="2026-01-01"),
        "b": Expected(check="b", reason="r", review_by="2026-01-02"),
        "c": Expected(check="c", reason="r"),
    }
    assert overdue(entries, today=dt.date(2026, 1, 2)) == [entries["a"]]
    assert overdue(entries, today=dt.date(2026, 1, 1)) == []


def test_stale_and_expected_through_aggregate() -> None:
    report = Report(
        candidate_spec="cmd:adapter",
        hello=None,
        results=[
            result(PASSING, "pass"),
            result(FAILING, "pass", test="t1"),
            result(FAILING, "fail", message="$.output: expected x got y", test="t2"),
        ],
    )
    baseline = {
        PASSING: Expected(check=PASSING, reason="was broken"),
        FAILING: Expected(check=FAILING, reason="is broken"),
    }
    assert report.aggregate(baseline) == [
        {
            "id": FAILING,
            "observation": "run-output",
            "requirement": "tp-loop-completed",
            "level": "MUST",
            "source_class": "spec",
            "capability": "model.*",
            "invariant": False,
            "status": "fail",
            "expected_failure": True,
            "baseline_stale": False,
            "draws": None,
            "side": "candidate",
            "message": "$.output: expected x got y",
            "tests": ["t1", "t2"],
            "failing_tests": ["t2"],
            "occurrences": 2,
            "deviation": None,
            "finding": FAILING,
            "same_finding_as": None,
        },
        {
            "id": PASSING,
            "observation": "protocol-error-answers",
            "requirement": "tp-proto-unknown-build",
            "level": "MUST",
            "source_class": "spec",
            "capability": None,
            "invariant": False,
            "status": "pass",
            "expected_failure": True,
            "baseline_stale": True,
            "draws": None,
            "side": "candidate",
            "message": f"{PASSING} pass",
            "tests": ["t"],
            "failing_tests": [],
            "occurrences": 1,
            "deviation": None,
            "finding": None,
            "same_finding_as": None,
        },
    ]
    data = report.serializable(baseline)
    assert data["summary"] == {
        "checks": 2,
        "pass": 1,
        "fail": 1,
        "undecided": 0,
        "not_claimed": 0,
        "not_testable": 0,
        "expected_failures": 1,
        "stale_baseline_entries": 1,
        "findings": 0,  # the one failing row is an expected failure
        "failing_observations": 0,
        "collected_tests": 0,
        "reported_tests": 0,
        "declared_pairs": 0,
        "decided_pairs": 0,
    }
    decision = exitcodes.decide(data, strict=False, allow_empty=False, aborted=None, pytest_status=0)
    assert decision.status == exitcodes.CHECK_FAILED
    assert decision.lines == [
        f"STALE baseline entry {PASSING}: the check passes now; remove it from the baseline"
    ]


def test_without_a_baseline_the_failure_fails_the_run() -> None:
    report = Report(candidate_spec="x", hello=None, results=[result(FAILING, "fail", message="boom\nmore")])
    data = report.serializable({})
    decision = exitcodes.decide(data, strict=False, allow_empty=False, aborted=None, pytest_status=1)
    assert decision.status == 1
    assert (data["summary"]["findings"], data["summary"]["failing_observations"]) == (1, 1)
    assert decision.reason == "1 MUST finding (1 failing MUST check) (candidate)"
    assert decision.lines == [
        f"FAIL {FAILING} [MUST (spec), candidate]: boom",
    ]


@pytest.mark.parametrize(
    ("statuses", "status"),
    [
        (["not_claimed", "not_claimed"], "not_claimed"),
        (["not_claimed", "not_testable"], "not_testable"),
        (["not_testable", "pass"], "pass"),
        (["pass", "not_claimed", "fail"], "fail"),
        (["pass", "undecided"], "undecided"),
        (["undecided", "fail"], "fail"),
    ],
)
def test_aggregate_status(statuses: list[Status], status: str) -> None:
    report = Report(candidate_spec="x", hello=None, results=[result(PASSING, s) for s in statuses])
    assert [row["status"] for row in report.aggregate({})] == [status]


def test_a_should_failure_is_reported_but_does_not_fail_the_run_unless_strict() -> None:
    check = "wire.tool-answers-in-call-order"
    data = Report(
        candidate_spec="x", hello=None, results=[result(check, "fail"), result(PASSING, "pass")]
    ).serializable({})
    decision = exitcodes.decide(data, strict=False, allow_empty=False, aborted=None, pytest_status=0)
    assert decision.status == 0
    assert decision.lines == [
        f"FAIL {check} [SHOULD (toolproof), candidate]"
        " (SHOULD: reported, not failing without --toolproof-strict):"
        f" {check} fail",
    ]
    assert exitcodes.decide(data, strict=True, allow_empty=False, aborted=None, pytest_status=0).status == 1


def test_baseline_update_keeps_reasons_and_lists_exactly_the_failures() -> None:
    report = Report(
        candidate_spec="cmd:adapter",
        hello=None,
        results=[
            result(
                FAILING,
                "fail",
                message="what was compared:\n  $[1]: expected {} got null\n  observed: [{}, null]",
            ),
            result(PASSING, "pass"),
        ],
    ).serializable({})
    previous = {FAILING: Expected(check=FAILING, reason="known", issue="#1", review_by="2030-01-01")}
    assert baseline_from_report(report, previous) == {
        "version": 1,
        "contract": 8,
        "candidate": "cmd:adapter",
        "expected_failures": [
            {
                "check": FAILING,
                "reason": "known",
                "observed": "what was compared: $[1]: expected {} got null",
                "issue": "#1",
                "review_by": "2030-01-01",
            }
        ],
    }
    assert baseline_from_report(report, {})["expected_failures"] == [
        {
            "check": FAILING,
            "reason": "TODO: why this fails (upstream issue?)",
            "observed": "what was compared: $[1]: expected {} got null",
        }
    ]
    assert baseline_from_report(report, {}, candidate="cmd:node adapter.mjs")["candidate"] == (
        "cmd:node adapter.mjs"
    )


def test_baseline_update_keeps_the_files_header_and_candidate(tmp_path: Path) -> None:
    from toolproof.tools.cli import main

    report = Report(
        candidate_spec="cmd:/home/ci/.tox/env/bin/python adapter.py",
        hello=None,
        results=[result(FAILING, "fail", message="heading:\n  $: expected 1 got 2"), result(PASSING, "pass")],
    ).serializable({})
    report_path = tmp_path / "report.json"
    report_path.write_text(json.dumps(report), encoding="utf-8")
    baseline = tmp_path / "expected-failures.yaml"
    baseline.write_text(
        "# Known failures of X.\n# Regenerate with toolproof baseline update.\nversion: 1\n"
        "candidate: cmd:python adapter.py\nexpected_failures:\n"
        "  # a section comment (not kept)\n"
        f"  - {{check: {FAILING}, reason: known}}\n",
        encoding="utf-8",
    )
    assert main(["baseline", "update", "--report", str(report_path), "--output", str(baseline)]) == 0
    assert baseline.read_text(encoding="utf-8") == (
        "# Known failures of X.\n# Regenerate with toolproof baseline update.\nversion: 1\n"
        "contract: 8\ncandidate: cmd:python adapter.py\nexpected_failures:\n"
        f"- check: {FAILING}\n  reason: known\n  observed: 'heading: $: expected 1 got 2'\n"
    )


@pytest.mark.parametrize(
    ("message", "line"),
    [
        pytest.param(
            'a text reply:\n  $.output: expected "x" got "y"\n  observed: 1',
            'a text reply: $.output: expected "x" got "y"',
            id="tp.expect",
        ),
        pytest.param(
            "1 of 2 requests violates: tok#1\nrequest tok#1: tools[0].function.name 'a.b' is too long",
            "1 of 2 requests violates: tok#1: tools[0].function.name 'a.b' is too long",
            id="an invariant: its first problem, without the request label twice",
        ),
        pytest.param("boom\nstderr tail", "boom", id="other"),
    ],
)
def test_heading_and_first_difference(message: str, line: str) -> None:
    assert heading_and_first_difference(message) == line
