"""What a report is made of: its format tag, the mutant statuses and their rank, mutant names and diffs."""

from __future__ import annotations

from collections.abc import Iterable

FORMAT = "toolproof-mutation/1"
KILLED, NO_TESTS, SKIPPED, NOT_JUDGED, NOT_CHECKED = (
    "killed",
    "no tests",
    "skipped",
    "not judged",
    "not checked",
)
# Best first: with several passes, a mutant's final status is the best any pass gave it.
_STATUS_RANK = (
    KILLED,
    "timeout",
    "segfault",
    "suspicious",
    "caught by type check",
    "check was interrupted by user",
    NOT_JUDGED,
    "survived",
    NO_TESTS,
    SKIPPED,
    NOT_CHECKED,
)


class MutationError(Exception):
    """A usage or consistency problem (bad shard, failed mutmut run): exit 2."""


def function_of(mutant: str) -> str:
    """`candidates.reference.adapter.xǁAdapterǁbuild__mutmut_3` -> `Adapter.build` (mutmut's mangling)."""
    mangled = mutant.partition("__mutmut_")[0].rpartition(".")[2]
    if "ǁ" in mangled:
        _, cls, name = mangled.split("ǁ", 2)
        return f"{cls}.{name}"
    return mangled.removeprefix("x_")


def diff_key(diff: str) -> tuple[str, ...]:
    """The changed lines of a unified diff (after the first hunk header): stable across edits elsewhere."""
    lines = diff.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("@@")), len(lines))
    return tuple(line for line in lines[start:] if line[:1] in ("-", "+"))


def _status(mutmut_status: str, exit_code: int | None) -> str:
    # mutmut labels exit 5 (pytest: no tests ran) "no tests"; for toolproof 5 means nothing was judged.
    if mutmut_status == NO_TESTS and exit_code == 5:
        return NOT_JUDGED
    return mutmut_status


def best_status(statuses: Iterable[str]) -> str:
    """The best status any pass gave a mutant (killed wins)."""
    ranked = sorted(statuses, key=lambda s: _STATUS_RANK.index(s) if s in _STATUS_RANK else 3)
    return ranked[0] if ranked else NOT_CHECKED
