"""Markdown summary for a CI step summary: failing checks first, each with a repro command."""

from __future__ import annotations

import shlex
from typing import Any


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0].replace("|", "\\|")[:200]


def render_summary(report: dict[str, Any]) -> str:
    """Render the `--summary-md` document from a serialized report."""
    summary = report["summary"]
    implementation = (report["candidate"]["hello"] or {}).get("implementation", {})
    lines = [
        f"# toolproof: {implementation.get('name', '?')} {implementation.get('version', '')}".rstrip(),
        "",
        f"Candidate `{report['candidate']['spec']}`, contract v{report['contract_version']}, "
        f"toolproof {report['toolproof_version']}.",
        "",
        f"**{summary['pass']} pass, {summary['fail']} fail, {summary['not_claimed']} not claimed, "
        f"{summary['not_testable']} not testable** ({summary['expected_failures']} expected failures).",
        "",
    ]
    failing = [c for c in report["checks"] if c["status"] == "fail" or c["baseline_stale"]]
    if failing:
        lines += ["| check | requirement | level | side | reason | reproduce |", "|---|---|---|---|---|---|"]
        for check in failing:
            reason = (
                "baseline entry is stale: the check passes" if check["baseline_stale"] else check["message"]
            )
            if check["expected_failure"] and not check["baseline_stale"]:
                reason = "(expected) " + reason
            test = check["tests"][0] if check["tests"] else ""
            repro = (
                f"toolproof run --candidate {shlex.quote(report['candidate']['spec'])} -- "
                f"--toolproof-checks {check['id']}"
            )
            if test and not check["invariant"]:
                repro += f" -k {shlex.quote(test.split('::')[-1])}"
            lines.append(
                f"| `{check['id']}` | `{check['requirement']}` | {check['level']} | {check['side']} | "
                f"{_first_line(reason)} | `{repro}` |"
            )
    else:
        lines.append("No failing checks.")
    return "\n".join(lines) + "\n"
