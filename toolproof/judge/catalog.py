"""The requirement catalog: contracts/requirements.yaml plus contracts/requirements/*.yaml.

One source of truth: each requirement lives in exactly one file, and each
check is nested under exactly one requirement.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolproof.errors import Side, UsageError
from toolproof.judge.checks import CheckResult, Level, Status
from toolproof.judge.contract_files import contracts_dir, load_yaml
from toolproof.judge.versions import retired

_REQUIREMENT_KEYS = {"id", "level", "capability", "statement", "source", "checks"}
_CHECK_KEYS = {"id", "group", "summary", "invariant", "side"}
_SOURCE_KEYS = {"class", "cite", "note"}
_FAILURE_SIDES: tuple[Side, ...] = ("candidate", "adapter-protocol")
#: Where a requirement comes from (contracts/sources.md): a published rule, a seed bug, a public
#: bug of a runtime, or toolproof's own choice (at most a SHOULD: tests/harness/test_sources.py).
SOURCE_CLASSES = ("spec", "seed", "upstream-bug", "toolproof")
#: An anchor of contracts/sources.md (its `<a id="...">` entries).
ANCHOR = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
#: An observation id, a check's `group` (HACKING.md "Vocabulary and IDs"): lowercase words joined
#: by dashes, no dots (never a check ID) and no `tp-` prefix (never a requirement ID), e.g.
#: `tool-result-text`.
GROUP = re.compile(r"^(?!tp-)[a-z][a-z0-9]*(-[a-z0-9]+)*$")


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
    #: Its requirement's source class (SOURCE_CLASSES).
    source_class: str = "toolproof"
    #: Its group: the observation it reads, shared by the checks that read it (HACKING.md
    #: "Vocabulary and IDs"); not a root cause: findings (judge/findings.py) are.
    group: str = ""

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
        draws: str | None = None,
        deviation: str | None = None,
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
            draws=draws,
            deviation=deviation,
        )


@dataclass(frozen=True)
class Requirement:
    """One normative sentence of CONTRACT.md."""

    id: str
    level: Level
    capability: str | None
    statement: str
    #: Where it comes from: one of SOURCE_CLASSES, the anchors of contracts/sources.md it cites,
    #: and an optional note (how far the cited source reaches, when only partly).
    source_class: str
    cites: tuple[str, ...]
    source_note: str
    checks: tuple[str, ...]

    @property
    def source(self) -> str:
        """The source as one line of text: `class: anchor, anchor (note)`."""
        note = f" ({self.source_note})" if self.source_note else ""
        return f"{self.source_class}: {', '.join(self.cites)}{note}"


@dataclass(frozen=True)
class Catalog:
    """All requirements and checks, indexed by ID."""

    requirements: dict[str, Requirement]
    checks: dict[str, CheckSpec]

    @property
    def groups(self) -> dict[str, tuple[str, ...]]:
        """Group (observation) -> the IDs of its checks, in catalog order."""
        out: dict[str, list[str]] = {}
        for spec in self.checks.values():
            out.setdefault(spec.group, []).append(spec.id)
        return {group: tuple(ids) for group, ids in out.items()}

    def check(self, check_id: str) -> CheckSpec:
        """Look a check up, naming the likely typo when it is unknown."""
        try:
            return self.checks[check_id]
        except KeyError:
            gone = retired(check_id)
            if gone is not None:
                raise UsageError(f"check id {gone.describe()}") from None
            close = difflib.get_close_matches(check_id, self.checks, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(f"unknown check id {check_id!r}{hint}") from None


def _files() -> list[str]:
    folder = contracts_dir() / "requirements"
    extra = sorted(f"requirements/{p.name}" for p in folder.glob("*.yaml")) if folder.is_dir() else []
    return ["requirements.yaml", *extra]


def _source(entry: dict[str, Any], origin: str) -> tuple[str, tuple[str, ...], str]:
    """A requirement's `source: {class, cite: [anchor, ...], note}`, validated."""
    where = f"{origin}: {entry.get('id')!r}: source"
    source = entry.get("source")
    if not isinstance(source, dict):
        raise UsageError(f"{where} must be a mapping with class, cite and an optional note")
    unknown = set(source) - _SOURCE_KEYS
    if unknown:
        raise UsageError(f"{where} has unknown keys {sorted(unknown)}")
    if source.get("class") not in SOURCE_CLASSES:
        raise UsageError(f"{where}: class must be one of {SOURCE_CLASSES}")
    cites = source.get("cite")
    if (
        not isinstance(cites, list)
        or not cites
        or not all(isinstance(c, str) and ANCHOR.match(c) for c in cites)
        or len(set(cites)) != len(cites)
    ):
        raise UsageError(f"{where}: cite must be a non-empty list of distinct contracts/sources.md anchors")
    note = source.get("note", "")
    if not isinstance(note, str):
        raise UsageError(f"{where}: note must be a string")
    return str(source["class"]), tuple(cites), " ".join(note.split())


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
        source_class, cites, note = _source(entry, origin)
        check_ids = []
        for check in entry.get("checks") or []:
            if set(check) - _CHECK_KEYS:
                raise UsageError(f"{origin}: check {check.get('id')!r} has unknown keys")
            check_ids.append(check["id"])
            group = check.get("group")
            if not isinstance(group, str) or not GROUP.match(group):
                raise UsageError(
                    f"{origin}: check {check['id']!r}: group must be an observation id "
                    "(lowercase words joined by dashes, e.g. tool-result-text)"
                )
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
                    source_class=source_class,
                    group=group,
                )
            )
        parsed.append(
            Requirement(
                id=entry["id"],
                level=entry["level"],
                capability=entry.get("capability"),
                statement=" ".join(str(entry["statement"]).split()),
                source_class=source_class,
                cites=cites,
                source_note=note,
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
