"""The unit of verdict: one check result, and the per-test recorder."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from toolproof.errors import Side

Status = Literal["pass", "fail", "undecided", "not_claimed", "not_testable"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "undecided", "not_claimed", "not_testable")
Level = Literal["MUST", "SHOULD"]
#: The check every test may record without declaring it: a build or run the test needed succeeded
#: (`Scenario.build` / `Scenario.run`). Like an invariant, any test may decide it.
PRECONDITION = "proto.valid-config-builds-and-runs"


@dataclass(frozen=True)
class CheckResult:
    """One occurrence of a check: what was decided, by which test, and why."""

    check: str
    requirement: str
    level: Level
    status: Status
    side: Side
    message: str
    test: str
    invariant: bool = False
    observation: Any = None
    #: For `undecided`: what kept this check's own observation from happening (the check whose
    #: failure stopped the test, say); None otherwise.
    blocked_by: str | None = None
    #: Hypothesis draws behind this occurrence (toolproof.plugin.draws): None when its test drew
    #: nothing, "default" when it was recorded on the default draws (the seed in force repeats
    #: them), "explore" when it was recorded in the exploration phase (--toolproof-explore).
    draws: str | None = None
    #: For a `fail` of `tp.expect`: the id of the one deviation that explains the whole observed
    #: difference (toolproof/judge/findings.py), which merges it with other checks into one
    #: finding; None when nothing named explains it.
    deviation: str | None = None

    def serializable(self) -> dict[str, Any]:
        """Plain JSON-able form (the report schema's `result`)."""
        return asdict(self)

    @classmethod
    def from_serialized(cls, data: dict[str, Any]) -> CheckResult:
        """Rebuild from `serializable()` output (e.g. across xdist workers)."""
        return cls(**data)

    def to_json(self) -> str:
        """One-line JSON, as carried in pytest report user_properties."""
        return json.dumps(self.serializable(), ensure_ascii=False, default=repr)


class CheckFailed(AssertionError):
    """MUST checks failed: raised when the test (or one Hypothesis example) ends, so pytest shows it red.

    The results are already recorded; every check went on to its own observation first.
    """

    def __init__(self, results: list[CheckResult]) -> None:
        first = results[0]
        more = f"\n(and {len(results) - 1} more failed MUST check(s): " if len(results) > 1 else ""
        if more:
            more += ", ".join(r.check for r in results[1:]) + ")"
        super().__init__(f"[{first.check}] {first.message}{more}")
        self.result = first
        self.results = results


class Blocked(AssertionError):
    """A step the test's later observations need did not happen (a failed build or run, a timeout).

    Its own failure is already recorded (the precondition check); the declared checks not decided
    yet become `undecided` with `blocked_by`, so one root cause is one failure.
    """

    def __init__(self, blocked_by: str, message: str) -> None:
        super().__init__(f"[{blocked_by}] {message}")
        self.blocked_by = blocked_by
        self.message = message


@dataclass
class Recorder:
    """Collects the check results one test records, in order."""

    test: str
    results: list[CheckResult] = field(default_factory=list)

    def add(self, result: CheckResult) -> None:
        """Record one result."""
        self.results.append(result)

    def recorded_ids(self) -> set[str]:
        """IDs of checks recorded so far (invariants excluded)."""
        return {r.check for r in self.results if not r.invariant}

    def must_failures(self, since: int = 0) -> list[CheckResult]:
        """Failed MUST results (invariants excluded) recorded from position `since` on."""
        return [
            r for r in self.results[since:] if r.status == "fail" and r.level == "MUST" and not r.invariant
        ]

    def failed_ids(self) -> set[str]:
        """IDs of checks with a failure recorded so far (invariants included)."""
        return {r.check for r in self.results if r.status == "fail"}
