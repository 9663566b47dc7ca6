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
`toolproof` terminal section (`toolproof: exit 1: 5 MUST findings (12 failing
MUST checks) (candidate); also 2 timeouts: ...`). Failing checks are listed by
finding (toolproof/judge/findings.py: one observed deviation, however many
checks it fails), findings in their primary check's ID order: the `FAIL` line
of the primary check, naming the deviation when one was recognised, then
`same finding: <ids>` for the other checks it failed (their evidence stays in
the JSON report). The reason counts findings, each once at the highest level
of its checks, then the failing checks. A failure on any side but `candidate`
is not a verdict and counts whatever the check's level: a SHOULD check that
timed out or hit a harness error was not decided. A session abort (an
in-process candidate timed out and cannot be interrupted, or the candidate
could not be started) counts as a broken candidate: 3, unless verdicts were
reached before it (then 1, and the abort is listed). A failure
that only --toolproof-explore's draws found is a verdict too (1): its FAIL line
and the reason say `explore-only`, and no baseline covers it.
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


def _fail_lines(
    check: dict[str, Any], tag: str, paths: list[str], deviation: str | None, draws: dict[str, Any] | None
) -> list[str]:
    head, *details = reason_lines(check["message"])
    if deviation:  # the deviation named first; the message's heading becomes the first detail
        head, details = deviation, [head, *details]
    if check.get("draws") == "explore-only":
        tag += " (explore-only)"
    lines = [f"FAIL {check['id']} [{check['level']} ({check['source_class']}), {check['side']}]{tag}: {head}"]
    lines += [f"    {detail}" for detail in details]
    if paths:
        more = f" (+{len(paths) - 1} more in the JSON report)" if len(paths) > 1 else ""
        lines.append(f"    dump: {paths[0]}{more}")
    lines += _draws_lines(check, draws)
    return lines


def _draws_lines(check: dict[str, Any], draws: dict[str, Any] | None) -> list[str]:
    """How to repeat the Hypothesis draws a failure came from (toolproof.plugin.draws)."""
    if draws is None or check.get("draws") is None:
        return []
    if check["draws"] == "explore-only":
        return [
            f"    explore-only: only the exploration draws fail it ({draws['reproduce']} repeats them); "
            f"the default draws (--toolproof-seed {draws['seed']}) pass it, so no baseline covers it"
        ]
    return [f"    drawn: --toolproof-seed {draws['seed']} repeats these Hypothesis draws"]


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _verdicts(verdicts: list[dict[str, Any]], strict: bool) -> str:
    """`5 MUST findings (12 failing MUST checks) (candidate)`: findings counted once, at the highest
    level of their checks, then the failing checks themselves."""
    must_rows = [c for c in verdicts if c["level"] == "MUST"]
    should_rows = [c for c in verdicts if c["level"] != "MUST"]
    must = {c.get("finding") or c["id"] for c in must_rows}
    should = {c.get("finding") or c["id"] for c in should_rows} - must
    counts = [f"{len(found)} {level}" for found, level in ((must, "MUST"), (should, "SHOULD")) if found]
    noun = "finding" if len(must) + len(should) == 1 else "findings"
    checks = ", ".join(
        _plural(len(rows), f"failing {level} check")
        for rows, level in ((must_rows, "MUST"), (should_rows, "SHOULD"))
        if rows
    )
    flag = "; --toolproof-strict" if should_rows and strict else ""
    explored = sum(1 for c in verdicts if c.get("draws") == "explore-only")
    if explored:
        flag += f"; {explored} explore-only: the default draws pass {'it' if explored == 1 else 'them'}"
    return f"{' and '.join(counts)} {noun} ({checks}) (candidate{flag})"


def _by_finding(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Rows by finding, findings in their primary check's ID order; within one, the primary (or,
    when the primary is not among `rows`, the first of them) leads, the same-finding checks follow."""
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row.get("finding") or row["id"], []).append(row)
    return [
        sorted(members, key=lambda r: (r["id"] != finding, r["id"]))
        for finding, members in sorted(found.items())
    ]


def _texts(report: dict[str, Any]) -> dict[str, str]:
    """Finding id -> the deviation it names (findings without one left out)."""
    return {f["id"]: f["text"] for f in report.get("findings", []) if f.get("text")}


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
    texts = _texts(report)
    for leader, *same in _by_finding(failing):  # one observed deviation: one FAIL line
        tag = " (SHOULD: reported, not failing without --toolproof-strict)" if leader in lenient else ""
        deviation = texts.get(leader.get("finding") or "")
        lines += _fail_lines(leader, tag, dumps_of(report, leader["id"]), deviation, report.get("draws"))
        if leader.get("same_finding_as"):  # its primary check is an expected failure (baseline)
            lines.append(
                f"    same finding as {leader['same_finding_as']} (an expected failure, in the baseline)"
            )
        if same:
            lines.append(f"    same finding: {', '.join(row['id'] for row in same)}")
    for check in stale:
        now = "the default draws pass it" if check.get("draws") == "explore-only" else "the check passes now"
        lines.append(f"STALE baseline entry {check['id']}: {now}; remove it from the baseline")
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
