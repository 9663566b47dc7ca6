"""Exit codes of `toolproof run` (and of pytest running the suite).

0  every MUST check passed (and every SHOULD with --toolproof-strict)
1  a check failed on the candidate's side (a verdict), or an expected-failure baseline entry is stale
2  usage error: bad spec, option, or baseline file
3  no verdict, but the candidate could not be started, broke protocol v1, or timed out
4  no verdict and no broken candidate, but toolproof failed (harness error) or fewer results than tests
5  nothing was judged: no check ran, every check was "not claimed", or no capability is claimed

When several apply, the code that tells a maintainer the most wins: verdicts (1)
over a broken candidate (3) over a broken harness or missing results (4); the
others are listed after "also" in the reason line, the last line of the
`toolproof` terminal section (`toolproof: exit 1: 24 MUST checks failed in 3
root-cause groups (candidate); also 2 timeouts: ...`). Failing checks are
counted and listed by root-cause group (the catalog's `group`: checks reading
one observation, which one defect fails together): a `GROUP <id>: <n> failing
checks` line, then the `FAIL` line of each, groups in ID order. A failure on
any side but `candidate` is not a verdict and counts whatever the check's
level: a SHOULD check that timed out or hit a harness error was not decided. A
session abort (an in-process candidate timed out and cannot be interrupted, or
the candidate could not be started) counts as a broken candidate: 3, unless
verdicts were reached before it (then 1, and the abort is listed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolproof.report.reasons import HEADING_WIDTH, clip, dumps_of, reason_lines

OK, CHECK_FAILED, USAGE, CANDIDATE_BROKEN, HARNESS, EMPTY = 0, 1, 2, 3, 4, 5

SHOWN_IDS = 5
"""Check IDs listed per part of the reason line; the rest are counted."""
HANG_CHECK = "proto.answers-when-idle"
"""toolproof.judge.idle.CHECK_ID (kept apart: reports are judged without the fakes), counted per test."""

# Non-verdict sides: (singular, plural) of what a failure on that side is called in the reason line.
_BROKEN_SIDES = {
    "timeout": ("timeout", "timeouts"),
    "adapter-protocol": ("protocol break", "protocol breaks"),
}
_HARNESS_SIDES = {
    "harness": ("harness error", "harness errors"),
    "environment": ("environment problem", "environment problems"),
}


@dataclass(frozen=True)
class Decision:
    """The run's exit status, why (one line), and the per-check lines printed above that reason."""

    status: int
    reason: str
    lines: list[str] = field(default_factory=list)

    def exit_line(self) -> str:
        """The last line of the `toolproof` terminal section."""
        return f"toolproof: exit {self.status}: {self.reason}"


def _ids(rows: list[dict[str, Any]]) -> str:
    names = [row["id"] for row in rows]
    more = len(names) - SHOWN_IDS
    return ", ".join(names[:SHOWN_IDS]) + (f", ... (+{more} more)" if more > 0 else "")


def _counted(rows: list[dict[str, Any]], singular: str, plural: str) -> str:
    return f"{len(rows)} {singular if len(rows) == 1 else plural}: {_ids(rows)}"


def _failed_in_tests(report: dict[str, Any], side: str, singular: str, plural: str) -> str:
    """How many tests failed a check on `side`, and which checks ("" when none), baseline entries apart."""
    listed = {c["id"] for c in report["checks"] if c["expected_failure"]}
    hits = [r for r in report["results"] if r["status"] == "fail" and r["side"] == side]
    hits = [r for r in hits if r["check"] not in listed]
    if not hits:
        return ""
    tests, ids = len({r["test"] for r in hits}), {r["check"] for r in hits}
    rows = [c for c in report["checks"] if c["id"] in ids]
    return f"{tests} {singular if tests == 1 else plural}: {_ids(rows)}"


def _hangs(report: dict[str, Any]) -> str:
    """The hang verdicts, one per test: a request left unanswered while the harness owed nothing."""
    listed = {c["id"] for c in report["checks"] if c["expected_failure"]}
    if HANG_CHECK in listed:
        return ""
    tests = {r["test"] for r in report["results"] if r["check"] == HANG_CHECK and r["status"] == "fail"}
    if not tests:
        return ""
    noun = "hang" if len(tests) == 1 else "hangs"
    return f"{len(tests)} {noun} with every request of the harness answered ({HANG_CHECK})"


def _fail_lines(check: dict[str, Any], tag: str, paths: list[str]) -> list[str]:
    head, *details = reason_lines(check["message"])
    lines = [f"FAIL {check['id']} [{check['level']} ({check['source_class']}), {check['side']}]{tag}: {head}"]
    lines += [f"    {detail}" for detail in details]
    if paths:
        more = f" (+{len(paths) - 1} more in the JSON report)" if len(paths) > 1 else ""
        lines.append(f"    dump: {paths[0]}{more}")
    return lines


def _verdicts(verdicts: list[dict[str, Any]], strict: bool) -> str:
    must = sum(1 for c in verdicts if c["level"] == "MUST")
    should = len(verdicts) - must
    counts = [f"{n} {level}" for n, level in ((must, "MUST"), (should, "SHOULD")) if n]
    noun = "check" if len(verdicts) == 1 else "checks"
    groups = len({c["group"] for c in verdicts})
    in_groups = f"in {groups} root-cause group{'' if groups == 1 else 's'}"
    flag = "; --toolproof-strict" if should and strict else ""
    return f"{' and '.join(counts)} {noun} failed {in_groups} (candidate{flag})"


def _by_group(rows: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Rows by root-cause group, groups in ID order, rows in their order within each."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    return sorted(groups.items())


def decide(
    report: dict[str, Any], *, strict: bool, allow_empty: bool, aborted: str | None, pytest_status: int
) -> Decision:
    """Decide the run's exit status from the aggregated report, with its reason and per-check lines."""
    checks = report["checks"]
    failing = [c for c in checks if c["status"] == "fail" and not c["expected_failure"]]
    on_candidate = [c for c in failing if c["side"] == "candidate"]
    verdicts = [c for c in on_candidate if c["level"] == "MUST" or strict]
    lenient = [c for c in on_candidate if c not in verdicts]
    stale = [c for c in checks if c["baseline_stale"]]
    summary = report["summary"]
    missing = _missing(summary)
    incomplete = bool(missing)

    lines: list[str] = []
    for group, rows in _by_group(failing):  # one root cause first, then the checks it failed
        lines.append(f"GROUP {group}: {len(rows)} failing check{'' if len(rows) == 1 else 's'}")
        for check in rows:
            tag = " (SHOULD: reported, not failing without --toolproof-strict)" if check in lenient else ""
            lines += _fail_lines(check, tag, dumps_of(report, check["id"]))
    for check in stale:
        lines.append(f"STALE baseline entry {check['id']}: the check passes now; remove it from the baseline")
    for check in checks:
        if check["status"] == "undecided":  # not a verdict: listed, never an exit code of its own
            head = (check["message"].splitlines() or [""])[0]
            lines.append(f"UNDECIDED {check['id']} [{check['level']}]: {head}")
    if aborted:
        lines.append(f"ABORTED: {aborted}")
    if incomplete:
        lines.append(f"INCOMPLETE: {missing}")

    judged: list[str] = []
    if verdicts:
        judged.append(_verdicts(verdicts, strict))
    hangs = _hangs(report)
    if hangs:
        judged.append(hangs)
    if stale:
        judged.append(_counted(stale, "stale baseline entry", "stale baseline entries"))
    # Counted per test from the occurrences, not per row: a row shows its worst occurrence, so a
    # verdict elsewhere in the same row (one build failing ok false) would hide a timeout (another
    # test's build that never answered).
    broken = [
        part for side, names in _BROKEN_SIDES.items() if (part := _failed_in_tests(report, side, *names))
    ]
    if aborted:
        broken.append(f"session aborted: {clip((aborted.splitlines() or [''])[0], HEADING_WIDTH)}")
    harness = [
        _counted(rows, *names)
        for side, names in _HARNESS_SIDES.items()
        if (rows := [c for c in failing if c["side"] == side])
    ]
    if incomplete:
        harness.append(f"incomplete: {missing}")
    reported = []  # failures that stand in the report but do not set the status
    if lenient:
        noun = "check" if len(lenient) == 1 else "checks"
        reported.append(f"{len(lenient)} SHOULD {noun} failed (not failing without --toolproof-strict)")

    # Precedence: what the maintainer can act on first. A verdict stands even when the candidate
    # also broke or -x/--maxfail stopped the run early; a broken candidate explains harness-side
    # symptoms (missing results) better than the reverse.
    for status, primary, others in (
        (CHECK_FAILED, judged, [*broken, *harness, *reported]),
        (CANDIDATE_BROKEN, broken, [*harness, *reported]),
        (HARNESS, harness, reported),
    ):
        if primary:
            also = f"; also {'; '.join(others)}" if others else ""
            return Decision(status, "; ".join(primary) + also, lines)

    passed, failed = summary["pass"], summary["fail"]
    if not allow_empty and passed + failed == 0:
        lines.append("EMPTY: no check was judged (nothing claimed?); pass --allow-empty if that is intended")
        return Decision(EMPTY, "no check was judged (nothing claimed?)", lines)
    hello = (report.get("candidate") or {}).get("hello") or {}
    if not allow_empty and hello.get("ok") is True and not hello.get("capabilities"):
        # Only capability-free (protocol) checks ran: a green that says nothing about the runtime.
        lines.append("EMPTY: the candidate claims no capability; pass --allow-empty if that is intended")
        return Decision(EMPTY, "the candidate claims no capability", lines)
    if pytest_status not in (0, 5):
        lines.append(f"pytest reported status {pytest_status} (a test error outside any check?)")
        return Decision(pytest_status, f"pytest reported status {pytest_status} outside any check", lines)
    if passed + failed == 0:
        return Decision(OK, "no check was judged (--allow-empty)", lines)
    expected = summary["expected_failures"]
    if expected:
        reported.append(f"{expected} expected failure{'s' if expected > 1 else ''} (baseline)")
    also = f"; also {'; '.join(reported)}" if reported else ""
    every = "every MUST and SHOULD check" if strict else "every MUST check"
    passing = f"{passed} passing check{'s' if passed != 1 else ''}"
    return Decision(OK, f"{every} passed ({passing}){also}", lines)


def _missing(summary: dict[str, Any]) -> str:
    """What the report lacks ("" when complete): tests that reported nothing, and declared check x test
    pairs without a result (a test that reported, but left a check it declares out)."""
    parts = []
    if summary["reported_tests"] < summary["collected_tests"]:
        parts.append(f"{summary['reported_tests']} of {summary['collected_tests']} tests reported results")
    declared, decided = summary.get("declared_pairs", 0), summary.get("decided_pairs", 0)
    if decided < declared:
        parts.append(f"{decided} of {declared} declared check x test pairs have a result")
    return "; ".join(parts)
