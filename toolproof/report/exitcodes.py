"""Exit codes of `toolproof run` (and of pytest running the suite).

0  every MUST check passed (and every SHOULD with --toolproof-strict)
1  a check failed, or an expected-failure baseline entry is stale
2  usage error: bad spec, option, or baseline file
3  the candidate could not be started, broke protocol v1, or timed out
4  toolproof itself failed (harness error), or fewer results than tests
5  nothing was judged: no check ran, every check was "not claimed", or no capability is claimed
"""

from __future__ import annotations

from typing import Any

OK, CHECK_FAILED, USAGE, CANDIDATE_BROKEN, HARNESS, EMPTY = 0, 1, 2, 3, 4, 5


def judge(
    report: dict[str, Any],
    *,
    strict: bool,
    allow_empty: bool,
    aborted: str | None,
    pytest_status: int,
    lines: list[str],
) -> int:
    """Decide the run's exit status from the aggregated report; explain it in `lines`."""
    checks = report["checks"]
    failing = [c for c in checks if c["status"] == "fail" and not c["expected_failure"]]
    hard = [c for c in failing if c["level"] == "MUST" or strict]
    stale = [c for c in checks if c["baseline_stale"]]
    for check in failing:
        first = (check["message"].splitlines() or [""])[0]
        tag = "" if check in hard else " (SHOULD: reported, not failing without --toolproof-strict)"
        lines.append(f"FAIL {check['id']} [{check['level']}, {check['side']}]{tag}: {first}")
    for check in stale:
        lines.append(f"STALE baseline entry {check['id']}: the check passes now; remove it from the baseline")
    summary = report["summary"]
    if aborted:
        lines.append(f"ABORTED: {aborted}")
        return CANDIDATE_BROKEN
    sides = {c["side"] for c in hard}
    if sides & {"adapter-protocol", "timeout"}:
        return CANDIDATE_BROKEN
    if "harness" in sides or "environment" in sides:
        return HARNESS
    if hard or stale:
        return CHECK_FAILED  # a verdict stands even when -x/--maxfail stopped the run early
    if summary["reported_tests"] < summary["collected_tests"]:
        lines.append(
            f"INCOMPLETE: {summary['reported_tests']} of {summary['collected_tests']} tests reported results"
        )
        return HARNESS
    judged = summary["pass"] + summary["fail"]
    if not allow_empty and judged == 0:
        lines.append("EMPTY: no check was judged (nothing claimed?); pass --allow-empty if that is intended")
        return EMPTY
    hello = (report.get("candidate") or {}).get("hello") or {}
    if not allow_empty and hello.get("ok") is True and not hello.get("capabilities"):
        # Only capability-free (protocol) checks ran: a green that says nothing about the runtime.
        lines.append("EMPTY: the candidate claims no capability; pass --allow-empty if that is intended")
        return EMPTY
    if pytest_status not in (0, 5):
        lines.append(f"pytest reported status {pytest_status} (a test error outside any check?)")
        return pytest_status
    return OK
