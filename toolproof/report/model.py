"""The run report: every check occurrence, aggregated per check ID."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from toolproof import CONTRACT_VERSION, __version__
from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import CheckResult
from toolproof.judge.expected import Expected

_ORDER = {"fail": 0, "undecided": 1, "pass": 2, "not_testable": 3, "not_claimed": 4}


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

    def aggregate(self, baseline: dict[str, Expected]) -> list[dict[str, Any]]:
        """One row per check ID: worst status over its occurrences, baseline applied."""
        by_check: dict[str, list[CheckResult]] = defaultdict(list)
        for result in self.results:
            by_check[result.check].append(result)
        catalog = load_catalog()
        rows = []
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
                    "group": spec.group,
                    "requirement": spec.requirement,
                    "level": spec.level,
                    "source_class": spec.source_class,
                    "capability": spec.capability,
                    "invariant": spec.invariant,
                    "status": status,
                    # An explore-only failure is never covered: a baseline lists default-draw verdicts.
                    "expected_failure": expected is not None and draws != "explore-only",
                    "baseline_stale": expected is not None and default_status == "pass",
                    "draws": draws,
                    "side": worst.side,
                    "message": worst.message,
                    "tests": sorted({r.test for r in occurrences}),
                    # every test whose occurrence failed (an invariant fails in several tests)
                    "failing_tests": sorted({r.test for r in occurrences if r.status == "fail"}),
                    "occurrences": len(occurrences),
                }
            )
        return rows

    def serializable(self, baseline: dict[str, Expected]) -> dict[str, Any]:
        """The JSON report (contracts/report.json)."""
        checks = self.aggregate(baseline)
        counts: dict[str, int] = defaultdict(int)
        for row in checks:
            counts[row["status"]] += 1
        return {
            "report_version": 1,
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
                # root causes first: distinct groups with a failing row, expected failures apart
                "failing_groups": len(
                    {r["group"] for r in checks if r["status"] == "fail" and not r["expected_failure"]}
                ),
                "collected_tests": self.collected_tests,
                "reported_tests": self.reported_tests,
                "declared_pairs": self.declared_pairs,
                "decided_pairs": self.decided_pairs,
            },
            "checks": checks,
            "results": [r.serializable() for r in self.results],
            "notes": list(self.notes),
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
