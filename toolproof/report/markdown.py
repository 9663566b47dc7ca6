"""Markdown summary for a CI step summary: the exit reason, then failing checks with a repro command.

Findings first (toolproof/judge/findings.py: one observed deviation, however
many checks it fails): each names its primary check, the deviation when one
was recognised, and the checks marked "same finding". The per-check rows
follow in finding order, the primary first; every row keeps its own reason.

A row's reason is the shortened message (`toolproof.report.reasons`): the
heading as text, each difference and the observed value as code, one per
line; the JSON report keeps every message whole. Beside the reproduce
command: the `--toolproof-dump` file of the failing test, when one was written.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from toolproof.report.reasons import dumps_of, failed_tests, reason_lines
from toolproof.report.seeds import describe

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")


def _text(text: str) -> str:
    """Plain text in a table cell: Markdown and HTML punctuation escaped (`<missing>` is no tag)."""
    return _SPECIAL.sub(r"\\\1", text)


def _code(text: str, *, cell: bool = True) -> str:
    """`text` as a code span: a fence longer than any backtick run; in a table `cell`, pipes escaped."""
    ticks = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (ticks + 1)
    # CommonMark strips one space from each end when both ends have one: pad to keep them.
    pad = " " if ticks or (text.startswith(" ") and text.endswith(" ")) else ""
    escaped = text.replace("|", "\\|") if cell else text
    return f"{fence}{pad}{escaped}{pad}{fence}"


def _reason(check: dict[str, Any]) -> str:
    if check["baseline_stale"]:
        return _text("baseline entry is stale: the check passes")
    head, *details = reason_lines(check["message"])
    if check["expected_failure"]:
        head = "(expected) " + head
    if check.get("draws") == "explore-only":
        head = "(explore-only: the default draws pass it) " + head
    cells = [_text(head)]
    for detail in details:
        cells.append(_text(detail) if detail.startswith("... ") else _code(detail))
    return "<br>".join(cells)


def _reproduce(report: dict[str, Any], check: dict[str, Any]) -> str:
    repro = (
        f"toolproof run --candidate {shlex.quote(report['candidate']['spec'])} -- "
        f"--toolproof-checks {check['id']}"
    )
    # The first test the check failed in (a stale entry's check failed nowhere: its first test).
    test = (failed_tests(report, check["id"]) or check["tests"] or [""])[0]
    if test and not check["invariant"]:
        repro += f" -k {shlex.quote(test.split('::')[-1])}"
    draws = report.get("draws")
    if draws is not None and check.get("draws") is not None:  # drawn by Hypothesis: the seeds repeat it
        explored = check["draws"] == "explore-only"
        repro += " " + (draws["reproduce"] if explored else f"--toolproof-seed {draws['seed']}")
    cell = _code(repro)
    dumps = dumps_of(report, check["id"])
    if dumps:
        target = dumps[0].replace("|", "\\|")
        more = f" (+{len(dumps) - 1} more in the JSON report)" if len(dumps) > 1 else ""
        cell += f"<br>dump: [{_code(dumps[0])}](<{target}>){more}"
    return cell


def _finding(check: dict[str, Any]) -> str:
    """The finding a row belongs to (a report without findings: each row its own)."""
    return str(check.get("finding") or check["id"])


def _findings(report: dict[str, Any]) -> list[tuple[str, str | None, list[str]]]:
    """(primary check, deviation named or None, the other checks) of each finding with a failing
    check outside the baseline, in the primary's ID order."""
    texts = {f["id"]: f.get("text") for f in report.get("findings", [])}
    members: dict[str, list[str]] = {}
    for check in report["checks"]:
        if check["status"] == "fail" and not check["expected_failure"]:
            members.setdefault(_finding(check), []).append(check["id"])
    return [
        (primary, texts.get(primary), sorted(c for c in ids if c != primary))
        for primary, ids in sorted(members.items())
    ]


def render_summary(report: dict[str, Any]) -> str:
    """Render the `--summary-md` document from a serialized report (exit status and reason included)."""
    summary = report["summary"]
    spec = _code(report["candidate"]["spec"], cell=False)
    implementation = (report["candidate"]["hello"] or {}).get("implementation", {})
    lines = [
        f"# toolproof: {implementation.get('name', '?')} {implementation.get('version', '')}".rstrip(),
        "",
        f"Candidate {spec}, contract v{report['contract_version']}, toolproof {report['toolproof_version']}.",
        "",
        f"**{summary['pass']} pass, {summary['fail']} fail, {summary.get('undecided', 0)} undecided, "
        f"{summary['not_claimed']} not claimed, "
        f"{summary['not_testable']} not testable** ({summary['expected_failures']} expected failures).",
        "",
        f"**Exit {report['exit_status']}**: {_text(report['exit_reason'])}",
        "",
    ]
    failing = [c for c in report["checks"] if c["status"] == "fail" or c["baseline_stale"]]
    # by finding: its primary check first, then the checks marked "same finding"
    failing.sort(key=lambda c: (_finding(c), c["id"] != _finding(c), c["id"]))
    found = _findings(report)
    if found:
        lines += [
            f"**Findings: {len(found)}** (one observed deviation each, however many checks it fails; "
            "expected failures apart)",
            "",
        ]
        for primary, text, same in found:
            item = f"- `{primary}`" + (f": {_text(text)}" if text else "")
            if same:
                item += "; same finding: " + ", ".join(f"`{c}`" for c in same)
            lines.append(item)
        lines.append("")
    if failing:
        lines += [
            "| finding | check | requirement | level | side | reason | reproduce |",
            "|---|---|---|---|---|---|---|",
        ]
        for check in failing:
            finding = _finding(check)
            if check["status"] != "fail":
                cell = "—"
            elif finding == check["id"]:
                cell = f"`{finding}`"
            else:
                cell = f"same as `{finding}`"
            lines.append(
                f"| {cell} | `{check['id']}` | `{check['requirement']}` "
                f"| {check['level']} ({check['source_class']}) "
                f"| {check['side']} | {_reason(check)} | {_reproduce(report, check)} |"
            )
        lines += ["", "Reasons are shortened; the JSON report (`--report-json`) has every message in full."]
    else:
        lines.append("No failing checks.")
    if report.get("draws") is not None:  # last: the seeds that repeat every verdict above
        lines += ["", _text(describe(report["draws"]))]
    return "\n".join(lines) + "\n"
