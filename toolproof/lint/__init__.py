"""AST lints that keep the conformance suite honest: `python -m toolproof.lint [PATH...]`.

The suite's standards (HACKING.md) as rules over its source: no tolerant
comparison of observed values, no verdict outside `tp.expect*`, no import of
a candidate's internals, no expected value computed by a re-implementation.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from toolproof.lint.engine import Finding, Module, python_files, run_rules
from toolproof.lint.rules import RULES

__all__ = ["RULES", "Finding", "lint_paths", "lint_sources", "suite_dir"]


def suite_dir() -> Path:
    """The installed suite (`toolproof.conformance`), the default target."""
    return Path(__file__).resolve().parents[1] / "conformance"


def lint_sources(sources: dict[str, str], rules: Iterable[str] | None = None) -> list[Finding]:
    """Lint in-memory files (`path -> source`) as one project."""
    chosen = {name: RULES[name] for name in (rules or RULES)}
    return run_rules([Module.parse(path, text) for path, text in sorted(sources.items())], chosen)


def lint_paths(paths: Iterable[Path], rules: Iterable[str] | None = None) -> list[Finding]:
    """Lint every .py file under `paths` as one project (helpers are resolved across them)."""
    files = python_files(paths)
    return lint_sources({str(p): p.read_text(encoding="utf-8") for p in files}, rules)
