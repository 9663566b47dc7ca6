"""Report rows under exploration (toolproof.report.model, toolproof.judge.expected): a row is
`explore-only` when only results of the exploration phase fail it (or leave it undecided); a
failure the default draws also show, in any test, is not; the baseline is judged on the default
draws alone, and `baseline_from_report` never writes an explore-only row."""

from __future__ import annotations

from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import CheckResult, Status
from toolproof.judge.expected import Expected, baseline_from_report, explore_only
from toolproof.report.model import Report

CHECK = "loop.completed-output"


def result(status: Status, draws: str | None, test: str = "t") -> CheckResult:
    return (
        load_catalog()
        .check(CHECK)
        .result(status=status, side="candidate", message=f"{status} {draws}", test=test, draws=draws)
    )


def row(*results: CheckResult, listed: bool = False) -> dict[str, object]:
    baseline = {CHECK: Expected(check=CHECK, reason="r")} if listed else {}
    (only,) = Report(candidate_spec="x", hello=None, results=list(results)).aggregate(baseline)
    return {k: only[k] for k in ("status", "draws", "expected_failure", "baseline_stale")}


def test_rows_say_which_draws_decided_them() -> None:
    assert row(result("pass", None)) == {
        "status": "pass",
        "draws": None,
        "expected_failure": False,
        "baseline_stale": False,
    }
    assert row(result("pass", "default"), result("fail", "default"))["draws"] == "default"
    # Only the exploration fails it: explore-only, never covered, and a listing of it is stale.
    assert row(result("pass", "default"), result("fail", "explore"), listed=True) == {
        "status": "fail",
        "draws": "explore-only",
        "expected_failure": False,
        "baseline_stale": True,
    }
    # The default draws of another test fail it too: a default-draws failure, covered.
    assert row(
        result("fail", "default", test="a"),
        result("pass", "default", test="b"),
        result("fail", "explore", test="b"),
        listed=True,
    ) == {"status": "fail", "draws": "default", "expected_failure": True, "baseline_stale": False}
    # An exploration that stopped its test leaves checks undecided that the default draws passed.
    assert row(result("pass", "default"), result("undecided", "explore"))["draws"] == "explore-only"


def test_a_baseline_from_a_report_skips_explore_only_rows_and_says_why() -> None:
    report = Report(
        candidate_spec="cmd:x", hello=None, results=[result("pass", "default"), result("fail", "explore")]
    ).serializable({})
    report["draws"] = {"seed": 0, "explore_seed": 7}
    assert baseline_from_report(report, {})["expected_failures"] == []
    assert explore_only(report) == [
        f"skipped {CHECK}: explore-only (only the exploration draws, --toolproof-explore-seed 7, fail it;"
        " the default draws, --toolproof-seed 0, pass it): a baseline lists only what a run without"
        " --toolproof-explore fails"
    ]
