"""Strict expected-failure baselines (`--expected-failures PATH`).

A listed check that fails is reported as an expected failure; a listed check
that passes fails the run (the baseline is stale); an unknown ID is a usage
error that names the likely typo.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from toolproof.errors import UsageError
from toolproof.judge.catalog import load_catalog

_ENTRY_KEYS = {"check", "reason", "observed", "issue", "review_by"}


@dataclass(frozen=True)
class Expected:
    """One baseline entry."""

    check: str
    reason: str
    observed: str = ""
    issue: str = ""
    review_by: str = ""


def _is_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def load_baseline(path: str | Path) -> dict[str, Expected]:
    """Parse and validate a baseline file."""
    try:
        document = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"--expected-failures {path}: {exc}") from exc
    entries = document.get("expected_failures", []) if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise UsageError(f"--expected-failures {path}: expected a mapping with an 'expected_failures' list")
    catalog = load_catalog()
    out: dict[str, Expected] = {}
    for entry in entries:
        if (
            not isinstance(entry, dict)
            or set(entry) - _ENTRY_KEYS
            or "check" not in entry
            or "reason" not in entry
        ):
            raise UsageError(f"--expected-failures {path}: bad entry {entry!r} (keys: {sorted(_ENTRY_KEYS)})")
        catalog.check(entry["check"])  # raises with a did-you-mean
        if entry["check"] in out:
            raise UsageError(f"--expected-failures {path}: {entry['check']} listed twice")
        review_by = str(entry.get("review_by", ""))  # as Expected stores it; overdue() parses it at the end
        if review_by and not _is_date(review_by):
            raise UsageError(
                f"--expected-failures {path}: {entry['check']}: review_by {review_by!r} is not a date"
                " (YYYY-MM-DD)"
            )
        out[entry["check"]] = Expected(**{k: str(v) for k, v in entry.items()})
    return out


def overdue(entries: dict[str, Expected], today: dt.date | None = None) -> list[Expected]:
    """Entries whose review_by date has passed (a warning, never a failure by default)."""
    today = today or dt.date.today()
    return [e for e in entries.values() if e.review_by and dt.date.fromisoformat(e.review_by) < today]


#: An invariant's problem line (toolproof.judge.invariants.Verdict.message): "request(s) <labels>: <problem>".
INVARIANT_PROBLEM = re.compile(r"^requests? [^:]+: ")


def heading_and_first_difference(message: str) -> str:
    """A check message as one line: its heading plus its first JSON-path difference (or, for an
    invariant, its first problem)."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    for line in lines[1:]:
        if line.startswith("$"):
            return f"{lines[0].rstrip(':')}: {line}"
        problem = INVARIANT_PROBLEM.match(line)
        if problem:
            return f"{lines[0]}: {line[problem.end() :]}"
    return lines[0]


def baseline_from_report(
    report: dict[str, Any], previous: dict[str, Expected], *, candidate: str | None = None
) -> dict[str, Any]:
    """A baseline listing exactly the checks that ran and failed in `report`.

    `candidate` (the previous file's, when there is one) is kept instead of the report's spec,
    which names the machine's own paths (a tox env's interpreter, say).
    """
    entries = []
    for check in report["checks"]:
        if check["status"] != "fail":
            continue
        old = previous.get(check["id"])
        entries.append(
            {
                "check": check["id"],
                "reason": old.reason if old else "TODO: why this fails (upstream issue?)",
                "observed": heading_and_first_difference(check["message"] or ""),
                **({"issue": old.issue} if old and old.issue else {}),
                **({"review_by": old.review_by} if old and old.review_by else {}),
            }
        )
    spec = candidate or report["candidate"]["spec"]
    return {"version": 1, "candidate": spec, "expected_failures": entries}
