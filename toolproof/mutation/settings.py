"""The settings of a mutation run (`[tool.toolproof.mutation]`) and the hash of the reference source."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The suite in a pass's scratch directory (the installed package copied in): mutmut's test selection.
SUITE_TESTS = "toolproof/conformance"
DEFAULTS: dict[str, Any] = {
    "threshold": 95.0,
    "sources": ["candidates/reference"],
    "candidates": ["reference", "reference-continuation", "reference-prefix"],
    "max_children": 2,
    "toolproof_timeout": 20,
    "review": "reports/mutation-review.md",
    "report": "reports/mutation.json",
}


def load_settings(root: Path) -> dict[str, Any]:
    """`[tool.toolproof.mutation]` of root/pyproject.toml over DEFAULTS."""
    settings = dict(DEFAULTS)
    pyproject = root / "pyproject.toml"
    if pyproject.exists():
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        settings.update(data.get("tool", {}).get("toolproof", {}).get("mutation", {}))
    return settings


def relative_source(root: Path, source: str) -> str:
    """`source` relative to `root`: given relative to the cwd (tox rewrites posargs that way) or to root."""
    path = Path(source)
    full = (path if path.is_absolute() else Path.cwd() / path).resolve()
    if full.exists() and full.is_relative_to(root):
        return full.relative_to(root).as_posix()
    return path.as_posix()


def tests_for(settings: dict[str, Any], candidate: str) -> list[str]:
    """The tests of one pass: `[tool.toolproof.mutation.tests]` entry for the candidate, else the suite."""
    return list(settings.get("tests", {}).get(candidate, [SUITE_TESTS]))


def source_files(root: Path, sources: Iterable[str]) -> list[str]:
    """Relative POSIX paths of every *.py file under `sources` (files or directories), sorted."""
    found: set[str] = set()
    for source in sources:
        path = root / source
        candidates = [path] if path.is_file() else path.rglob("*.py")
        for file in candidates:
            relative = file.relative_to(root)
            if file.suffix == ".py" and "__pycache__" not in relative.parts:
                found.add(relative.as_posix())
    return sorted(found)


def source_hash(root: Path, sources: Iterable[str]) -> str:
    """sha256 over, per file in sorted relative-path order: path, NUL, byte length, NUL, bytes."""
    digest = hashlib.sha256()
    for relative in source_files(root, sources):
        data = (root / relative).read_bytes()
        digest.update(relative.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0")
        digest.update(data)
    return "sha256:" + digest.hexdigest()
