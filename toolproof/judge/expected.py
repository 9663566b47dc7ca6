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

from toolproof import CONTRACT_VERSION
from toolproof.errors import UsageError
from toolproof.judge.catalog import load_catalog
from toolproof.judge.contract_files import parse_yaml
from toolproof.judge.versions import Retired, retired

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


def _document(path: str | Path) -> dict[str, Any]:
    """The baseline file as a mapping with an `expected_failures` list (a usage error otherwise)."""
    try:
        document = parse_yaml(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"--expected-failures {path}: {exc}") from exc
    entries = document.get("expected_failures", []) if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise UsageError(f"--expected-failures {path}: expected a mapping with an 'expected_failures' list")
    return {**document, "expected_failures": entries}


def contract_of(document: dict[str, Any]) -> int:
    """The contract version a baseline was written for: its `contract` key; 1 when absent (the
    key came with contract version 2)."""
    value = document.get("contract", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _known_contract(document: dict[str, Any], path: str | Path) -> int:
    """The baseline's contract version; a usage error when this toolproof does not know it (a
    newer toolproof wrote it, or the key is garbage): never migrated or read as if current."""
    written_for = contract_of(document)
    if not 1 <= written_for <= CONTRACT_VERSION:
        raise UsageError(
            f"--expected-failures {path}: contract {document.get('contract')!r} is not a contract"
            f" version this toolproof knows (1 to {CONTRACT_VERSION})"
        )
    return written_for


def load_baseline(path: str | Path) -> dict[str, Expected]:
    """Parse and validate a baseline file.

    An entry for a check ID that a later contract version retired is a usage error naming the
    migration (`toolproof baseline update --output PATH`), never silently ignored: its reason was
    written about a check that no longer exists.
    """
    document = _document(path)
    written_for = _known_contract(document, path)
    catalog = load_catalog()
    out: dict[str, Expected] = {}
    for entry in document["expected_failures"]:
        if (
            not isinstance(entry, dict)
            or set(entry) - _ENTRY_KEYS
            or "check" not in entry
            or "reason" not in entry
        ):
            raise UsageError(f"--expected-failures {path}: bad entry {entry!r} (keys: {sorted(_ENTRY_KEYS)})")
        gone = retired(str(entry["check"]))
        if gone is not None:
            raise UsageError(
                f"--expected-failures {path}: {gone.describe()}; the baseline was written for contract"
                f" v{written_for}: `toolproof baseline update --output {path}` migrates it"
            )
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


def migrate_baseline(path: str | Path) -> tuple[dict[str, Any], list[Retired]]:
    """The baseline at `path` rewritten for the current contract version, and what it dropped.

    Entries for retired check IDs are dropped; every other entry is kept as it is (its reason
    included). The result is then validated like any baseline, so an unknown ID still fails.
    """
    document = _document(path)
    _known_contract(document, path)
    kept: list[Any] = []
    dropped: list[Retired] = []
    for entry in document["expected_failures"]:
        gone = retired(str(entry.get("check"))) if isinstance(entry, dict) else None
        if gone is None:
            kept.append(entry)
        else:
            dropped.append(gone)
    others = {k: v for k, v in document.items() if k not in ("version", "contract", "expected_failures")}
    migrated = {"version": document.get("version", 1), "contract": CONTRACT_VERSION, **others}
    return {**migrated, "expected_failures": kept}, dropped


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
    """A baseline listing exactly the checks that ran and failed in `report`, except the
    explore-only ones (`explore_only`).

    `candidate` (the previous file's, when there is one) is kept instead of the report's spec,
    which names the machine's own paths (a tox env's interpreter, say).
    """
    entries = []
    for check in report["checks"]:
        if check["status"] != "fail" or check.get("draws") == "explore-only":
            continue  # explore-only: see explore_only()
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
    return {"version": 1, "contract": CONTRACT_VERSION, "candidate": spec, "expected_failures": entries}


def explore_only(report: dict[str, Any]) -> list[str]:
    """Why each explore-only failure of `report` stays out of a baseline, one line per check.

    Only --toolproof-explore's extra draws failed it; the default draws (the seed a plain run
    uses) pass it, so a baseline listing it would go stale, or hide a random find, on every run.
    """
    draws = report.get("draws") or {}
    return [
        f"skipped {check['id']}: explore-only (only the exploration draws, "
        f"--toolproof-explore-seed {draws.get('explore_seed')}, fail it; the default draws, "
        f"--toolproof-seed {draws.get('seed')}, pass it): a baseline lists only what a run without "
        "--toolproof-explore fails"
        for check in report["checks"]
        if check["status"] == "fail" and check.get("draws") == "explore-only"
    ]
