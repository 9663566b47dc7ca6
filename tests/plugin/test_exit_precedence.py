"""The run's exit status, its reason line and the per-check console lines, decided from literal reports.

Every precedence case of toolproof/report/exitcodes.py: verdicts (1) over a broken candidate (3)
over a broken harness or missing results (4) over an empty run (5); what else applied is listed
after "also".
"""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.judge import idle
from toolproof.judge.catalog import load_catalog
from toolproof.report import exitcodes
from toolproof.report.exitcodes import Decision, decide


def row(
    check: str,
    *,
    side: str = "candidate",
    level: str = "MUST",
    status: str = "fail",
    message: str = "boom",
    expected_failure: bool = False,
    baseline_stale: bool = False,
    finding: str | None = None,
) -> dict[str, Any]:
    """One `checks` row of a report, hosted by the test named after the check; its observation is
    the catalog's (a check the catalog lacks: its own ID); a failing row is its own finding unless
    `finding` names the primary check it is the same finding as."""
    spec = load_catalog().checks.get(check)
    own = finding or (check if status == "fail" else None)
    return {
        "id": check,
        "observation": spec.group if spec else check,
        "requirement": "tp-loop-completed",
        "level": level,
        "source_class": "spec" if level == "MUST" else "toolproof",
        "capability": None,
        "invariant": False,
        "status": status,
        "expected_failure": expected_failure,
        "baseline_stale": baseline_stale,
        "side": side,
        "message": message,
        "tests": [f"test_x.py::test_{check}"],
        "occurrences": 1,
        "finding": own,
        "same_finding_as": own if own != check else None,
    }


def report(
    *rows: dict[str, Any],
    collected: int = 3,
    reported: int = 3,
    capabilities: tuple[str, ...] = ("openai.chat",),
    dumps: dict[str, str] | None = None,
    findings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A serialized report holding `rows` (one result per row, in its test), as the plugin writes it;
    `findings`: primary check -> the deviation its finding names (the others name none)."""
    return {
        "candidate": {
            "spec": "cmd:./adapter",
            "hello": {"ok": True, "protocol": 1, "capabilities": list(capabilities)},
            "origin": "./adapter",
        },
        "summary": {
            "checks": len(rows),
            "pass": sum(1 for r in rows if r["status"] == "pass"),
            "fail": sum(1 for r in rows if r["status"] == "fail"),
            "not_claimed": sum(1 for r in rows if r["status"] == "not_claimed"),
            "not_testable": 0,
            "expected_failures": sum(1 for r in rows if r["status"] == "fail" and r["expected_failure"]),
            "stale_baseline_entries": sum(1 for r in rows if r["baseline_stale"]),
            "collected_tests": collected,
            "reported_tests": reported,
        },
        "checks": list(rows),
        "findings": [{"id": primary, "text": text} for primary, text in (findings or {}).items()],
        "results": [
            {"check": r["id"], "status": r["status"], "side": r["side"], "test": r["tests"][0]} for r in rows
        ],
        "dumps": dumps or {},
    }


def run(
    data: dict[str, Any],
    *,
    strict: bool = False,
    allow_empty: bool = False,
    aborted: str | None = None,
    pytest_status: int = 1,
) -> Decision:
    return decide(data, strict=strict, allow_empty=allow_empty, aborted=aborted, pytest_status=pytest_status)


PASS = row("proto.unknown-build-id", status="pass", message="as expected")


REPR = "tool text replaced by a Python repr of the MCP content objects"
NULLS = "null-valued keys dropped from object arguments"
TRIM = "tool text trimmed of surrounding whitespace"
PRIMARY_OF = ("wire.check-00",) * 10 + ("wire.check-10",) * 10 + ("wire.check-20",) * 4
"""The findings of the 24 verdicts below: 24 failing checks, three observed deviations."""


def test_the_reported_case_verdicts_and_timeouts_exit_1_and_list_the_timeouts() -> None:
    # Issue 12: 24 candidate verdicts and two timeouts exited 3, and the console never said why.
    # Issue 22: the 24 are three deviations; the console counts and lists findings, their checks under them.
    verdicts = [row(f"wire.check-{n:02d}", finding=PRIMARY_OF[n]) for n in range(24)]
    timeouts = [row("loop.cap-exact", side="timeout"), row("wire.tool-message-content", side="timeout")]
    named = {"wire.check-00": REPR, "wire.check-10": NULLS, "wire.check-20": TRIM}
    decision = run(report(PASS, *verdicts, *timeouts, collected=30, reported=30, findings=named))
    assert decision.status == exitcodes.CHECK_FAILED
    assert decision.reason == (
        "3 MUST findings (24 failing MUST checks) (candidate);"
        " also 2 timeouts: loop.cap-exact, wire.tool-message-content"
    )
    assert decision.exit_line() == (
        "toolproof: exit 1: 3 MUST findings (24 failing MUST checks) (candidate);"
        " also 2 timeouts: loop.cap-exact, wire.tool-message-content"
    )
    assert decision.lines == [
        "FAIL loop.cap-exact [MUST (spec), timeout]: boom",
        f"FAIL wire.check-00 [MUST (spec), candidate]: {REPR}",
        "    boom",
        "    same finding: " + ", ".join(f"wire.check-{n:02d}" for n in range(1, 10)),
        f"FAIL wire.check-10 [MUST (spec), candidate]: {NULLS}",
        "    boom",
        "    same finding: " + ", ".join(f"wire.check-{n:02d}" for n in range(11, 20)),
        f"FAIL wire.check-20 [MUST (spec), candidate]: {TRIM}",
        "    boom",
        "    same finding: wire.check-21, wire.check-22, wire.check-23",
        "FAIL wire.tool-message-content [MUST (spec), timeout]: boom",
    ]


def test_one_deviation_is_one_finding_however_many_checks_and_requirements_it_fails() -> None:
    # Issue 13: one runtime's `str(result)` failed seven MUST checks across requirements; issue 22:
    # that is one finding, charged to result.verbatim, never to a receipt check.
    checks = [
        "receipt.no-synthesized-status",
        "receipt.ok-verbatim",
        "result.empty",
        "result.is-error",
        "result.multi-block",
        "result.structured",
        "result.verbatim",
    ]
    rows = (row(c, finding="result.verbatim") for c in checks)
    decision = run(report(PASS, *rows, collected=8, reported=8, findings={"result.verbatim": REPR}))
    assert decision.exit_line() == "toolproof: exit 1: 1 MUST finding (7 failing MUST checks) (candidate)"
    assert decision.lines == [
        f"FAIL result.verbatim [MUST (spec), candidate]: {REPR}",
        "    boom",
        "    same finding: receipt.no-synthesized-status, receipt.ok-verbatim, result.empty, result.is-error,"
        " result.multi-block, result.structured",
    ]


def test_a_finding_counts_once_at_its_highest_level_and_its_checks_by_level() -> None:
    # strict: a SHOULD check of a MUST finding adds a failing SHOULD check, not a SHOULD finding
    rows = [
        row("result.verbatim"),
        row("result.no-content-block", level="SHOULD", finding="result.verbatim"),
        row("wire.tool-answers-in-call-order", level="SHOULD"),
    ]
    decision = run(report(PASS, *rows, findings={"result.verbatim": REPR}), strict=True)
    assert decision.reason == (
        "1 MUST and 1 SHOULD findings (1 failing MUST check, 2 failing SHOULD checks)"
        " (candidate; --toolproof-strict)"
    )
    assert decision.lines == [
        f"FAIL result.verbatim [MUST (spec), candidate]: {REPR}",
        "    boom",
        "    same finding: result.no-content-block",
        "FAIL wire.tool-answers-in-call-order [SHOULD (toolproof), candidate]: boom",
    ]


def test_a_finding_whose_primary_check_is_in_the_baseline_leads_with_its_next_check() -> None:
    rows = [
        row("result.verbatim", expected_failure=True),
        row("result.empty", finding="result.verbatim"),
        row("receipt.ok-verbatim", finding="result.verbatim"),
    ]
    decision = run(report(PASS, *rows, findings={"result.verbatim": REPR}))
    assert decision.reason == "1 MUST finding (2 failing MUST checks) (candidate)"
    assert decision.lines == [
        f"FAIL receipt.ok-verbatim [MUST (spec), candidate]: {REPR}",
        "    boom",
        "    same finding as result.verbatim (an expected failure, in the baseline)",
        "    same finding: result.empty",
    ]


@pytest.mark.parametrize(
    ("data", "options", "status", "reason", "lines"),
    [
        pytest.param(
            report(PASS, row("loop.completed-output")),
            {},
            1,
            "1 MUST finding (1 failing MUST check) (candidate)",
            ["FAIL loop.completed-output [MUST (spec), candidate]: boom"],
            id="a verdict",
        ),
        pytest.param(
            report(
                row("loop.completed-output"),
                row("proto.hello-first", side="adapter-protocol"),
                row("dedup.preferred-survives", side="harness"),
                row("wire.endpoint", side="environment"),
                row("wire.tool-answers-in-call-order", level="SHOULD"),
                collected=9,
                reported=5,
            ),
            {"aborted": "session aborted earlier: reference run() did not return within 60 s\nmore"},
            1,
            "1 MUST finding (1 failing MUST check) (candidate); also 1 protocol break: proto.hello-first;"
            " session aborted:"
            " session aborted earlier: reference run() did not return within 60 s; 1 harness error:"
            " dedup.preferred-survives; 1 environment problem: wire.endpoint; incomplete: 5 of 9 tests"
            " reported results; 1 SHOULD check failed (not failing without --toolproof-strict)",
            [
                "FAIL dedup.preferred-survives [MUST (spec), harness]: boom",
                "FAIL loop.completed-output [MUST (spec), candidate]: boom",
                "FAIL proto.hello-first [MUST (spec), adapter-protocol]: boom",
                "FAIL wire.endpoint [MUST (spec), environment]: boom",
                "FAIL wire.tool-answers-in-call-order [SHOULD (toolproof), candidate]"
                " (SHOULD: reported, not failing without --toolproof-strict): boom",
                "ABORTED: session aborted earlier: reference run() did not return within 60 s\nmore",
                "INCOMPLETE: 5 of 9 tests reported results",
            ],
            id="a verdict over everything else, which is listed",
        ),
        pytest.param(
            report(PASS, row("loop.completed-output", status="pass", baseline_stale=True)),
            {"pytest_status": 0},
            1,
            "1 stale baseline entry: loop.completed-output",
            ["STALE baseline entry loop.completed-output: the check passes now; remove it from the baseline"],
            id="a stale baseline entry",
        ),
        pytest.param(
            report(
                PASS, row("wire.tool-answers-in-call-order", level="SHOULD"), row("loop.completed-output")
            ),
            {"strict": True},
            1,
            "1 MUST and 1 SHOULD findings (1 failing MUST check, 1 failing SHOULD check)"
            " (candidate; --toolproof-strict)",
            [
                "FAIL loop.completed-output [MUST (spec), candidate]: boom",
                "FAIL wire.tool-answers-in-call-order [SHOULD (toolproof), candidate]: boom",
            ],
            id="strict: a SHOULD verdict",
        ),
        pytest.param(
            report(
                PASS,
                *(row(f"loop.cap-{n}", side="timeout") for n in range(7)),
                row("wire.endpoint", side="harness"),
            ),
            {},
            3,
            "7 timeouts: loop.cap-0, loop.cap-1, loop.cap-2, loop.cap-3, loop.cap-4, ... (+2 more);"
            " also 1 harness error: wire.endpoint",
            [
                *(f"FAIL loop.cap-{n} [MUST (spec), timeout]: boom" for n in range(7)),
                "FAIL wire.endpoint [MUST (spec), harness]: boom",
            ],
            id="timeouts over a harness error; five IDs shown",
        ),
        pytest.param(
            report(PASS, row("proto.hello-first", side="adapter-protocol"), collected=88, reported=80),
            {},
            3,
            "1 protocol break: proto.hello-first; also incomplete: 80 of 88 tests reported results",
            [
                "FAIL proto.hello-first [MUST (spec), adapter-protocol]: boom",
                "INCOMPLETE: 80 of 88 tests reported results",
            ],
            id="a protocol break over missing results",
        ),
        pytest.param(
            report(collected=5, reported=0),
            {"aborted": "candidate could not be started: cannot start './adapter': [Errno 2]"},
            3,
            "session aborted: candidate could not be started: cannot start './adapter': [Errno 2];"
            " also incomplete: 0 of 5 tests reported results",
            [
                "ABORTED: candidate could not be started: cannot start './adapter': [Errno 2]",
                "INCOMPLETE: 0 of 5 tests reported results",
            ],
            id="the candidate could not be started",
        ),
        pytest.param(
            report(PASS, row("wire.tool-answers-in-call-order", level="SHOULD", side="timeout")),
            {},
            3,
            "1 timeout: wire.tool-answers-in-call-order",
            [
                "FAIL wire.tool-answers-in-call-order [SHOULD (toolproof), timeout]: boom",
            ],
            id="a SHOULD check that timed out was not decided",
        ),
        pytest.param(
            report(PASS, row("dedup.preferred-survives", side="harness")),
            {},
            4,
            "1 harness error: dedup.preferred-survives",
            [
                "FAIL dedup.preferred-survives [MUST (spec), harness]: boom",
            ],
            id="a harness error",
        ),
        pytest.param(
            report(PASS, collected=2, reported=1),
            {"pytest_status": 0},
            4,
            "incomplete: 1 of 2 tests reported results",
            ["INCOMPLETE: 1 of 2 tests reported results"],
            id="missing results",
        ),
        pytest.param(
            report(row("dedup.preferred-survives", status="not_claimed", side="candidate")),
            {"pytest_status": 0},
            5,
            "no check was judged (nothing claimed?)",
            ["EMPTY: no check was judged (nothing claimed?); pass --allow-empty if that is intended"],
            id="nothing judged",
        ),
        pytest.param(
            report(PASS, capabilities=()),
            {"pytest_status": 0},
            5,
            "the candidate claims no capability",
            ["EMPTY: the candidate claims no capability; pass --allow-empty if that is intended"],
            id="no capability claimed",
        ),
        pytest.param(
            report(row("dedup.preferred-survives", status="not_claimed")),
            {"pytest_status": 0, "allow_empty": True},
            0,
            "no check was judged (--allow-empty)",
            [],
            id="nothing judged, allowed",
        ),
        pytest.param(
            report(PASS),
            {"pytest_status": 1},
            1,
            "pytest reported status 1 outside any check",
            ["pytest reported status 1 (a test error outside any check?)"],
            id="a failure outside any check",
        ),
        pytest.param(
            report(
                PASS,
                row("wire.tool-answers-in-call-order", level="SHOULD"),
                row("loop.completed-output", expected_failure=True),
                row("wire.endpoint", expected_failure=True),
            ),
            {"pytest_status": 0},
            0,
            "every MUST check passed (1 passing check); also 1 SHOULD check failed (not failing without"
            " --toolproof-strict); 2 expected failures (baseline)",
            [
                "FAIL wire.tool-answers-in-call-order [SHOULD (toolproof), candidate]"
                " (SHOULD: reported, not failing without --toolproof-strict): boom",
            ],
            id="green, with what stands in the report",
        ),
        pytest.param(
            report(PASS),
            {"pytest_status": 0, "strict": True},
            0,
            "every MUST and SHOULD check passed (1 passing check)",
            [],
            id="green, strict",
        ),
    ],
)
def test_precedence(
    data: dict[str, Any], options: dict[str, Any], status: int, reason: str, lines: list[str]
) -> None:
    decision = run(data, **options)
    assert (decision.status, decision.reason, decision.lines) == (status, reason, lines)
    assert decision.exit_line() == f"toolproof: exit {status}: {reason}"


def test_a_timeout_alone_is_a_broken_candidate_with_its_fail_line() -> None:
    data = report(PASS, row("loop.completed-output", side="timeout"))
    decision = exitcodes.decide(data, strict=False, allow_empty=False, aborted=None, pytest_status=1)
    assert (decision.status, decision.lines) == (
        3,
        ["FAIL loop.completed-output [MUST (spec), timeout]: boom"],
    )


EXPECT_MESSAGE = (
    "tool results in call order:\n"
    '  $[0]: expected "a" got "b"\n'
    '  $[1]: expected "b" got "a"\n'
    "  $[2]: expected <missing> got 3\n"
    '  $[3].text: expected "x" got "y"\n'
    "  $[4]: expected 5 got " + "9" * 200 + "\n"
    '  observed: ["b", "a", 3, {"text": "y"}, ' + "9" * 200 + "]"
)


def test_a_failing_expect_shows_its_first_differences_and_the_observed_value_clipped() -> None:
    dumped = {"test_x.py::test_wire.tool-answers-in-call-order": "out/dump/test_x__test_order.json"}
    data = report(PASS, row("wire.tool-answers-in-call-order", message=EXPECT_MESSAGE), dumps=dumped)
    assert run(data).lines == [
        "FAIL wire.tool-answers-in-call-order [MUST (spec), candidate]: tool results in call order:",
        '    $[0]: expected "a" got "b"',
        '    $[1]: expected "b" got "a"',
        "    $[2]: expected <missing> got 3",
        "    ... 2 more differences",
        '    observed: ["b", "a", 3, {"text": "y"}, ' + "9" * 118 + "...",
        "    dump: out/dump/test_x__test_order.json",
    ]


def test_other_messages_show_their_first_line_clipped() -> None:
    crash = (
        "not decided: ProtocolViolation during call: " + "x" * 300 + "\n--- candidate stderr (tail) ---\nboom"
    )
    data = report(PASS, row("loop.completed-output", side="adapter-protocol", message=crash))
    assert run(data).lines == [
        "FAIL loop.completed-output [MUST (spec), adapter-protocol]: "
        "not decided: ProtocolViolation during call: " + "x" * 153 + "...",
    ]


def occurrences(base: dict[str, Any], check: str, side: str, tests: list[str]) -> list[dict[str, Any]]:
    """More failed occurrences of `check` (status fail, on `side`), one in each of `tests`."""
    return [{**base, "check": check, "status": "fail", "side": side, "test": test} for test in tests]


def test_build_hangs_are_counted_per_test_though_a_verdict_is_their_row_s_worst() -> None:
    # Issue 22 §5: one build answered ok false (a verdict) and four builds never answered; the row
    # shows its worst occurrence (the verdict), and the four timeouts showed only as UNDECIDED lines.
    data = report(PASS, row("proto.valid-config-builds-and-runs"), collected=6, reported=6)
    hung = [f"test_x.py::test_hang_{n}" for n in range(4)]
    data["results"] += occurrences(data["results"][-1], "proto.valid-config-builds-and-runs", "timeout", hung)
    decision = run(data)
    assert decision.exit_line() == (
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate);"
        " also 4 timeouts: proto.valid-config-builds-and-runs"
    )


def test_timeouts_are_counted_per_test_not_per_check_that_failed() -> None:
    # One judged run timing out fails each check its test declares, on side timeout: one test.
    data = report(PASS, row("loop.cap-exact", side="timeout"), row("loop.cap-end-text", side="timeout"))
    for result in data["results"][1:]:
        result["test"] = "test_x.py::test_one"
    assert run(data).exit_line() == "toolproof: exit 3: 1 timeout: loop.cap-exact, loop.cap-end-text"


def test_hang_verdicts_are_counted_per_test_in_the_exit_line() -> None:
    data = report(PASS, row("proto.answers-when-idle"), collected=3, reported=3)
    data["results"] += occurrences(
        data["results"][-1], "proto.answers-when-idle", "candidate", ["test_x.py::test_dropped"]
    )
    assert run(data).exit_line() == (
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate);"
        " 2 hangs with every request of the harness answered (proto.answers-when-idle)"
    )


def test_a_hang_listed_in_the_baseline_is_not_counted() -> None:
    data = report(PASS, row("proto.answers-when-idle", expected_failure=True))
    assert run(data, pytest_status=0).exit_line() == (
        "toolproof: exit 0: every MUST check passed (1 passing check); also 1 expected failure (baseline)"
    )


def test_the_exit_line_counts_the_idle_check_the_harness_records() -> None:
    assert exitcodes.HANG_CHECK == idle.CHECK_ID
