"""Per-session state, kept in `config.stash` and merged across xdist workers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from toolproof.judge.checks import CheckResult, Recorder
from toolproof.judge.expected import Expected

USER_PROPERTY = "toolproof_results"
HELLO_PROPERTY = "toolproof_hello"
DECLARED_PROPERTY = "toolproof_declared"


@dataclass
class SessionState:
    """What the controller process aggregates for the report."""

    spec: str
    baseline: dict[str, Expected] = field(default_factory=dict)
    results: list[CheckResult] = field(default_factory=list)
    hello: dict[str, Any] | None = None
    origin: str = ""
    collected: int = 0
    reported: int = 0
    declared_pairs: int = 0  # declared check x test pairs of the collected tests
    decided_pairs: int = 0  # ... that reached the report with a result
    aborted: str | None = None
    #: The run selected part of the suite (-k, -m, --toolproof-checks): a passing baseline entry's
    #: failing tests may not have run, so it is not judged stale.
    partial: bool = False
    notes: list[str] = field(default_factory=list)
    drift: list[str] = field(default_factory=list)


STATE = pytest.StashKey[SessionState]()
RECORDER = pytest.StashKey[Recorder]()
CHECKS = pytest.StashKey[frozenset[str]]()
