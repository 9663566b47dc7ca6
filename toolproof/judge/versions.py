"""Contract versions: which check IDs a version retired (contracts/versions.yaml).

A baseline records the contract version it was written for; one written for an older version is
migrated by `toolproof baseline update`, never read as if nothing had changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from toolproof import CONTRACT_VERSION
from toolproof.errors import UsageError
from toolproof.judge.contract_files import load_yaml


@dataclass(frozen=True)
class Retired:
    """A check ID a contract version took out of the catalog."""

    check: str
    version: int
    why: str
    replaced_by: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: the ID, the version that retired it, why, and what judges it now."""
        then = f"; now judged by {', '.join(self.replaced_by)}" if self.replaced_by else ""
        return f"{self.check} (retired in contract v{self.version}: {self.why}{then})"


@dataclass(frozen=True)
class Versions:
    """contracts/versions.yaml, parsed."""

    current: int
    retired: dict[str, Retired]
    new: dict[int, tuple[str, ...]]


@cache
def load_versions() -> Versions:
    """Parse contracts/versions.yaml; its `current` must be toolproof.CONTRACT_VERSION."""
    document = load_yaml("versions.yaml")
    if not isinstance(document, dict) or document.get("current") != CONTRACT_VERSION:
        raise UsageError(f"contracts/versions.yaml: `current` must be {CONTRACT_VERSION}")
    retired: dict[str, Retired] = {}
    new: dict[int, tuple[str, ...]] = {}
    for version, entry in (document.get("versions") or {}).items():
        for item in entry.get("retired") or []:
            retired[item["check"]] = Retired(
                check=item["check"],
                version=int(version),
                why=" ".join(str(item["why"]).split()),
                replaced_by=tuple(item.get("replaced_by") or ()),
            )
        new[int(version)] = tuple(entry.get("new") or ())
    return Versions(current=int(document["current"]), retired=retired, new=new)


def retired(check_id: str) -> Retired | None:
    """The retirement record of `check_id`, or None when no version retired it."""
    return load_versions().retired.get(check_id)
