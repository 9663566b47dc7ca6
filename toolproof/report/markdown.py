"""Markdown summary for a CI step summary: the exit reason, then failing checks with a repro command.

Root causes first: the failing root-cause groups (the catalog's `group`, checks
that read one observation) are listed before the per-check rows, which name
their group and come in group order.

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


def _failing_groups(report: dict[str, Any]) -> dict[str, list[str]]:
    """Root-cause group -> its failing checks (expected failures apart), groups in ID order."""
    groups: dict[str, list[str]] = {}
    for check in report["checks"]:
        if check["status"] == "fail" and not check["expected_failure"]:
            groups.setdefault(check["group"], []).append(check["id"])
    return dict(sorted(groups.items()))


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
    failing.sort(key=lambda c: c["group"])  # stable: by check ID within a group
    groups = _failing_groups(report)
    if groups:
        lines += [
            f"**Failing root-cause groups: {len(groups)}** "
            "(checks reading one observation share a group; expected failures apart)",
            "",
            *(
                f"- `{group}`: {len(ids)} failing check{'' if len(ids) == 1 else 's'} ("
                + ", ".join(f"`{i}`" for i in ids)
                + ")"
                for group, ids in groups.items()
            ),
            "",
        ]
    if failing:
        lines += [
            "| group | check | requirement | level | side | reason | reproduce |",
            "|---|---|---|---|---|---|---|",
        ]
        for check in failing:
            lines.append(
                f"| `{check['group']}` | `{check['id']}` | `{check['requirement']}` "
                f"| {check['level']} ({check['source_class']}) "
                f"| {check['side']} | {_reason(check)} | {_reproduce(report, check)} |"
            )
        lines += ["", "Reasons are shortened; the JSON report (`--report-json`) has every message in full."]
    else:
        lines.append("No failing checks.")
    if report.get("draws") is not None:  # last: the seeds that repeat every verdict above
        lines += ["", _text(describe(report["draws"]))]
    return "\n".join(lines) + "\n"
