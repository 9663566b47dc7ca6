"""The requirement catalog: contracts/requirements.yaml plus contracts/requirements/*.yaml.

One source of truth: each requirement lives in exactly one file, and each
check is nested under exactly one requirement.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolproof.errors import Side, UsageError
from toolproof.judge.checks import CheckResult, Level, Status
from toolproof.judge.contract_files import contracts_dir, load_yaml

_REQUIREMENT_KEYS = {"id", "level", "capability", "statement", "source", "checks"}
_CHECK_KEYS = {"id", "summary", "invariant", "side"}
_FAILURE_SIDES: tuple[Side, ...] = ("candidate", "adapter-protocol")


@dataclass(frozen=True)
class CheckSpec:
    """A check as the catalog defines it."""

    id: str
    requirement: str
    level: Level
    capability: str | None
    summary: str
    invariant: bool
    #: Who is at fault when the check fails: "candidate" (its runtime), or "adapter-protocol"
    #: for conduct checks of the stream itself (a stray line, a missing response).
    side: Side = "candidate"

    def result(
        self,
        *,
        status: Status,
        side: Side,
        message: str,
        test: str,
        invariant: bool = False,
        observation: Any = None,
        blocked_by: str | None = None,
    ) -> CheckResult:
        """One occurrence of this check, its requirement and level taken from the catalog."""
        return CheckResult(
            check=self.id,
            requirement=self.requirement,
            level=self.level,
            status=status,
            side=side,
            message=message,
            test=test,
            invariant=invariant,
            observation=observation,
            blocked_by=blocked_by,
        )


@dataclass(frozen=True)
class Requirement:
    """One normative sentence of CONTRACT.md."""

    id: str
    level: Level
    capability: str | None
    statement: str
    source: str
    checks: tuple[str, ...]


@dataclass(frozen=True)
class Catalog:
    """All requirements and checks, indexed by ID."""

    requirements: dict[str, Requirement]
    checks: dict[str, CheckSpec]

    def check(self, check_id: str) -> CheckSpec:
        """Look a check up, naming the likely typo when it is unknown."""
        try:
            return self.checks[check_id]
        except KeyError:
            close = difflib.get_close_matches(check_id, self.checks, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(f"unknown check id {check_id!r}{hint}") from None


def _files() -> list[str]:
    folder = contracts_dir() / "requirements"
    extra = sorted(f"requirements/{p.name}" for p in folder.glob("*.yaml")) if folder.is_dir() else []
    return ["requirements.yaml", *extra]


def _parse(entries: Any, origin: str) -> list[Requirement | CheckSpec]:
    if not isinstance(entries, list):
        raise UsageError(f"{origin}: expected a list of requirements")
    parsed: list[Requirement | CheckSpec] = []
    for entry in entries:
        unknown = set(entry) - _REQUIREMENT_KEYS
        if unknown:
            raise UsageError(f"{origin}: requirement {entry.get('id')!r} has unknown keys {sorted(unknown)}")
        if entry["level"] not in ("MUST", "SHOULD"):
            raise UsageError(f"{origin}: {entry['id']}: level must be MUST or SHOULD")
        check_ids = []
        for check in entry.get("checks") or []:
            if set(check) - _CHECK_KEYS:
                raise UsageError(f"{origin}: check {check.get('id')!r} has unknown keys")
            check_ids.append(check["id"])
            side = next((s for s in _FAILURE_SIDES if s == check.get("side", "candidate")), None)
            if side is None:
                raise UsageError(f"{origin}: check {check['id']!r}: side must be one of {_FAILURE_SIDES}")
            parsed.append(
                CheckSpec(
                    id=check["id"],
                    requirement=entry["id"],
                    level=entry["level"],
                    capability=entry.get("capability"),
                    summary=check["summary"],
                    invariant=bool(check.get("invariant", False)),
                    side=side,
                )
            )
        parsed.append(
            Requirement(
                id=entry["id"],
                level=entry["level"],
                capability=entry.get("capability"),
                statement=" ".join(str(entry["statement"]).split()),
                source=str(entry.get("source", "")),
                checks=tuple(check_ids),
            )
        )
    return parsed


@cache
def load_catalog() -> Catalog:
    """Load and index every requirements file; duplicate IDs are an error."""
    requirements: dict[str, Requirement] = {}
    checks: dict[str, CheckSpec] = {}
    for name in _files():
        try:
            document = load_yaml(name)
        except Exception as exc:  # yaml.YAMLError, OSError: a broken contract file is a usage error
            raise UsageError(f"contracts/{name}: {exc}") from exc
        entries = document.get("requirements", []) if isinstance(document, dict) else document
        for item in _parse(entries, name):
            table: dict[str, Any] = requirements if isinstance(item, Requirement) else checks
            if item.id in table or item.id in requirements or item.id in checks:
                raise UsageError(f"{name}: duplicate id {item.id!r}")
            table[item.id] = item
    return Catalog(requirements=requirements, checks=checks)
