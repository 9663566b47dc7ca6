"""After an exploration, an invariant that only the exploration's builds violate is labelled
`explore` (toolproof.plugin.fixtures._record_invariants with the default draws' tokens); one the
default draws' requests violate too stays a default-draws failure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from toolproof.judge import invariants
from toolproof.judge.checks import Recorder
from toolproof.plugin import fixtures

CHECK = invariants.RECORDED[0]


@dataclass
class _Model:
    by_token: dict[str, list[str]]

    def requests(self, token: str) -> list[str]:
        return self.by_token.get(token, [])


@dataclass
class _Harness:
    model: _Model


@dataclass
class _Scenario:
    tokens: list[str]
    declared: Any = None
    shows: dict[str, list[str]] = field(default_factory=dict)

    def all_tokens(self) -> list[str]:
        return self.tokens


@dataclass
class _Verdict:
    violations: tuple[tuple[str, tuple[str, ...]], ...]
    judged: int = 1
    problems: list[str] = field(default_factory=list)

    def message(self) -> str:
        return f"{len(self.violations)} violate"

    def observation(self) -> Any:
        return None


def _judge(check_id: str, requests: list[str], declared: Any) -> _Verdict:
    return _Verdict(tuple((r, ("bad",)) for r in requests if r == "bad"))


@pytest.mark.parametrize(
    ("default_requests", "expected"),
    [(["ok"], [("fail", "explore")]), (["bad"], [("fail", None)])],
)
def test_an_invariant_only_the_exploration_violates_is_labelled(
    monkeypatch: pytest.MonkeyPatch, default_requests: list[str], expected: list[tuple[str, str | None]]
) -> None:
    monkeypatch.setattr(invariants, "RECORDED", (CHECK,))
    monkeypatch.setattr(invariants, "unclaimed", lambda capability, declared: [])
    monkeypatch.setattr(invariants, "judge", _judge)
    harness = _Harness(_Model({"d": default_requests, "e": ["bad"]}))
    recorder = Recorder(test="t")
    fixtures._record_invariants(_Scenario(["d", "e"]), harness, recorder, frozenset({"d"}))  # type: ignore[arg-type]
    assert [(r.status, r.draws) for r in recorder.results] == expected
    unexplored = Recorder(test="t")
    fixtures._record_invariants(_Scenario(["d", "e"]), harness, unexplored, None)  # type: ignore[arg-type]
    assert [(r.status, r.draws) for r in unexplored.results] == [("fail", None)]
