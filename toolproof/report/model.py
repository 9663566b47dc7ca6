"""The run report: every check occurrence, aggregated per check ID."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from toolproof import CONTRACT_VERSION, __version__
from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import CheckResult
from toolproof.judge.expected import Expected
from toolproof.judge.findings import DEVIATIONS, merge, row_deviation

_ORDER = {"fail": 0, "undecided": 1, "pass": 2, "not_testable": 3, "not_claimed": 4}
#: 2: rows name their `observation` (was `group`) and `finding`; `findings` lists them; the summary
#: counts `findings` and `failing_observations` (was `failing_groups`).
REPORT_VERSION = 2


def findings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's findings (one observed deviation each), in their primary check's ID order: the
    primary first in `checks`, then the checks marked "same finding"."""
    members: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["finding"] is not None:
            members[row["finding"]].append(row)
    out = []
    for primary in sorted(members):
        group = sorted(members[primary], key=lambda r: (r["id"] != primary, r["id"]))
        deviation = group[0]["deviation"]
        out.append(
            {
                "id": primary,
                "deviation": deviation,
                "text": DEVIATIONS[deviation].text if deviation in DEVIATIONS else None,
                "checks": [r["id"] for r in group],
                "level": "MUST" if any(r["level"] == "MUST" for r in group) else "SHOULD",
                "expected_failure": all(r["expected_failure"] for r in group),
            }
        )
    return out


@dataclass
class Report:
    """Collected results plus what is needed to render and judge them."""

    candidate_spec: str
    hello: dict[str, Any] | None
    origin: str = ""
    results: list[CheckResult] = field(default_factory=list)
    collected_tests: int = 0
    reported_tests: int = 0
    #: Declared check x test pairs of the collected tests, and how many of them have a result.
    declared_pairs: int = 0
    decided_pairs: int = 0
    notes: list[str] = field(default_factory=list)
    #: --toolproof-dump: test node id -> the dump file written for it (failing tests only).
    dumps: dict[str, str] = field(default_factory=dict)
    #: The run selected part of the suite (-k, -m, --toolproof-checks): the tests that fail a
    #: baseline entry may not have run, so an entry that passes here is not judged stale.
    partial: bool = False

    def aggregate(self, baseline: dict[str, Expected]) -> list[dict[str, Any]]:
        """One row per check ID: worst status over its occurrences, baseline applied."""
        by_check: dict[str, list[CheckResult]] = defaultdict(list)
        for result in self.results:
            by_check[result.check].append(result)
        catalog = load_catalog()
        rows: list[dict[str, Any]] = []
        for check_id in sorted(by_check):
            occurrences = by_check[check_id]
            worst = min(occurrences, key=lambda r: _ORDER[r.status])
            status = _status(occurrences)
            # What a run without --toolproof-explore, on the same seed, decides: the baseline's terms.
            default_status = _status([r for r in occurrences if r.draws != "explore"])
            draws = _draws(occurrences, status, default_status)
            spec = catalog.check(check_id)
            expected = baseline.get(check_id)
            rows.append(
                {
                    "id": check_id,
                    # the observation the check reads (its catalog `group`), shared by checks that read it
                    "observation": spec.group,
                    "requirement": spec.requirement,
                    "level": spec.level,
                    "source_class": spec.source_class,
                    "capability": spec.capability,
                    "invariant": spec.invariant,
                    "status": status,
                    # An explore-only failure is never covered: a baseline lists default-draw verdicts.
                    "expected_failure": expected is not None and draws != "explore-only",
                    "baseline_stale": expected is not None and default_status == "pass" and not self.partial,
                    "draws": draws,
                    "side": worst.side,
                    "message": worst.message,
                    "tests": sorted({r.test for r in occurrences}),
                    # every test whose occurrence failed (an invariant fails in several tests)
                    "failing_tests": sorted({r.test for r in occurrences if r.status == "fail"}),
                    "occurrences": len(occurrences),
                    # a failing row: the deviation every failure of it shows (judge/findings.py)
                    "deviation": (
                        row_deviation([r.deviation for r in occurrences if r.status == "fail"])
                        if status == "fail"
                        else None
                    ),
                }
            )
        finding_of = merge([row for row in rows if row["status"] == "fail"])
        for row in rows:
            row["finding"] = finding_of.get(row["id"])
            row["same_finding_as"] = row["finding"] if row["finding"] not in (None, row["id"]) else None
        return rows

    def unproven_stale(self, rows: list[dict[str, Any]]) -> list[str]:
        """In a partial run, the baseline entries that pass here but are not judged stale."""
        passing = [r["id"] for r in rows if r["expected_failure"] and r["status"] == "pass"]
        if not self.partial or not passing:
            return []
        return [
            "partial run (-k, -m or --toolproof-checks): baseline entries that pass here are not judged"
            f" stale, since the tests that fail them may not have run: {', '.join(passing)}"
        ]

    def serializable(self, baseline: dict[str, Expected]) -> dict[str, Any]:
        """The JSON report (contracts/report.json)."""
        checks = self.aggregate(baseline)
        found = findings(checks)
        finding_of = {row["id"]: row["finding"] for row in checks}
        counts: dict[str, int] = defaultdict(int)
        for row in checks:
            counts[row["status"]] += 1
        return {
            "report_version": REPORT_VERSION,
            "toolproof_version": __version__,
            "contract_version": CONTRACT_VERSION,
            "candidate": {"spec": self.candidate_spec, "hello": self.hello, "origin": self.origin},
            "summary": {
                "checks": len(checks),
                **{s: counts.get(s, 0) for s in ("pass", "fail", "undecided", "not_claimed", "not_testable")},
                "expected_failures": sum(
                    1 for r in checks if r["expected_failure"] and r["status"] == "fail"
                ),
                "stale_baseline_entries": sum(1 for r in checks if r["baseline_stale"]),
                # one observed deviation is one finding, however many checks it fails
                "findings": sum(1 for f in found if not f["expected_failure"]),
                "failing_observations": len(
                    {r["observation"] for r in checks if r["status"] == "fail" and not r["expected_failure"]}
                ),
                "collected_tests": self.collected_tests,
                "reported_tests": self.reported_tests,
                "declared_pairs": self.declared_pairs,
                "decided_pairs": self.decided_pairs,
            },
            "checks": checks,
            "findings": found,
            "results": [
                {**r.serializable(), "finding": finding_of.get(r.check) if r.status == "fail" else None}
                for r in self.results
            ],
            "notes": [*self.notes, *self.unproven_stale(checks)],
            "dumps": dict(sorted(self.dumps.items())),
        }


def _status(occurrences: list[CheckResult]) -> str | None:
    """A row's status over these occurrences (None for none): fail, undecided, pass, then the rest."""
    if not occurrences:
        return None
    if all(r.status == "not_claimed" for r in occurrences):
        return "not_claimed"
    for status in ("fail", "undecided", "pass"):
        # An undecided occurrence outranks a pass: a pass elsewhere does not decide the scenario
        # this occurrence never observed.
        if any(r.status == status for r in occurrences):
            return status
    return min(occurrences, key=lambda r: _ORDER[r.status]).status


def _draws(occurrences: list[CheckResult], status: str | None, default_status: str | None) -> str | None:
    """`explore-only` when the exploration draws alone fail (or leave undecided) the check; `default`
    when occurrences of its status were drawn by Hypothesis on the seed in force; None otherwise."""
    if status in ("fail", "undecided") and default_status != status:
        return "explore-only"
    if any(r.draws is not None for r in occurrences if r.status == status):
        return "default"
    return None
