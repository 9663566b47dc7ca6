"""The unit of verdict: one check result, and the per-test recorder."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from toolproof.errors import Side

Status = Literal["pass", "fail", "undecided", "not_claimed", "not_testable"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "undecided", "not_claimed", "not_testable")
Level = Literal["MUST", "SHOULD"]


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
    """A MUST check failed: the test stops here; the result is already recorded."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(f"[{result.check}] {result.message}")
        self.result = result


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

    def failed_ids(self) -> set[str]:
        """IDs of checks with a failure recorded so far (invariants included)."""
        return {r.check for r in self.results if r.status == "fail"}
