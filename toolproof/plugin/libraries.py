"""Third-party pytest-plugin libraries, imported in a toolproof run without assertion rewriting.

pytest rewrites the asserts of every module of a distribution that registers a pytest plugin
(hypothesis, anyio, xdist) when a session first imports it: about 2 s of parsing and compiling
in every pytest process of a `toolproof run` (the run's own, each xdist worker's), every time
where pytest cannot cache them (PYTHONDONTWRITEBYTECODE, as container images often set, or a
read-only site-packages). Their asserts are the libraries' own
invariants, never a check's. The suite's and the harness's modules are rewritten as before.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

LIBRARIES = frozenset({"anyio", "hypothesis", "_hypothesis_pytestplugin", "xdist"})
"""Top-level packages found by the plain path finder, ahead of pytest's rewriting one."""


class UnrewrittenLibraries(MetaPathFinder):
    """Finds LIBRARIES' modules as the path finder does (so pytest's assertion-rewriting finder, later
    on sys.meta_path, never sees them); None for every other name."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname.partition(".")[0] not in LIBRARIES:
            return None
        return PathFinder.find_spec(fullname, path, target)


def install() -> None:
    """Put the finder first on sys.meta_path, once per process."""
    if not any(isinstance(finder, UnrewrittenLibraries) for finder in sys.meta_path):
        sys.meta_path.insert(0, UnrewrittenLibraries())
