"""Hypothesis draws under a seed in force: the same runtime gets the same verdict on every run.

The rules (README, "Deterministic verdicts"):

- The run's seed N is `--toolproof-seed N`, else the ini key `toolproof_seed`, else 0.
- Each Hypothesis test draws from a seed of its own, derived (SHA-256) from N and the test's
  identity: its file name and its name with parameters (`test_wire.py::test_x[param]`), and
  for a Hypothesis test run inside a test (`run_drawn`) the inner function's name too. Nothing
  else goes in: not the rootdir, the xdist worker, the order of tests, the clock or
  PYTHONHASHSEED. The seed reaches Hypothesis through `hypothesis.seed()`, which overrides
  `derandomize` and any example database; the test's own settings (`max_examples`, phases)
  apply as written.
- Exploration (`--toolproof-explore`, opt-in): once a test's default draws raised nothing, the
  test runs again in the same pytest item, drawing from a seed derived the same way from the
  exploration seed S (`--toolproof-explore-seed S`, else a fresh random one, printed), with K
  times its own number of examples (`--toolproof-explore-factor K`, default 5). Every result
  recorded in that phase, or for a failure of it, carries `draws: "explore"`; a report row whose
  failure only such results show is `explore-only` (toolproof.report.model), which no baseline
  covers and `toolproof baseline update` never writes.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from toolproof.errors import UsageError
from toolproof.plugin.session import RECORDER

DEFAULT, EXPLORE = "default", "explore"
EXPLORE_FACTOR = 5
"""Examples of the exploration phase, as a multiple of each test's own number of examples."""
SEED_SOURCES = ("default", "option", "ini")
WORKER_KEY = "toolproof_explore_seed"
"""xdist workerinput key: the controller's exploration seed (a fresh one is drawn once, there)."""


@dataclass(frozen=True)
class Draws:
    """The seeds in force for one run."""

    seed: int
    seed_from: str = "default"  # one of SEED_SOURCES
    explore_seed: int | None = None  # None: no exploration phase
    explore_factor: int = EXPLORE_FACTOR

    @property
    def exploring(self) -> bool:
        """Whether each Hypothesis test runs an exploration phase after its default draws."""
        return self.explore_seed is not None

    def reproduce(self, *, explore: bool | None = None) -> str:
        """The toolproof options that repeat these draws (with the exploration, when `explore`)."""
        options = f"--toolproof-seed {self.seed}"
        if self.exploring if explore is None else explore:
            options += (
                f" --toolproof-explore --toolproof-explore-seed {self.explore_seed}"
                f" --toolproof-explore-factor {self.explore_factor}"
            )
        return options

    def serializable(self, drawn_tests: int) -> dict[str, Any]:
        """The report's `draws` object (contracts/report.json)."""
        return {
            "mode": EXPLORE if self.exploring else DEFAULT,
            "seed": self.seed,
            "seed_from": self.seed_from,
            "explore_seed": self.explore_seed,
            "explore_factor": self.explore_factor if self.exploring else None,
            "drawn_tests": drawn_tests,
            "reproduce": self.reproduce(),
        }


def _integer(value: Any, what: str, *, minimum: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise UsageError(f"{what} expects an integer, got {value!r}") from None
    if number < minimum:
        raise UsageError(f"{what} must be {minimum} or more, got {number}")
    return number


def from_config(config: pytest.Config) -> Draws:
    """The run's draws from its options (an exploration seed from the xdist controller on a worker)."""
    option, ini = config.getoption("toolproof_seed"), str(config.getini("toolproof_seed")).strip()
    if option is not None:
        seed, seed_from = _integer(option, "--toolproof-seed", minimum=0), "option"
    elif ini:
        seed, seed_from = _integer(ini, "ini toolproof_seed", minimum=0), "ini"
    else:
        seed, seed_from = 0, "default"
    explore_seed = config.getoption("toolproof_explore_seed")
    factor = config.getoption("toolproof_explore_factor")
    if not (config.getoption("toolproof_explore") or explore_seed is not None or factor is not None):
        return Draws(seed=seed, seed_from=seed_from)
    if explore_seed is not None:
        explore_seed = _integer(explore_seed, "--toolproof-explore-seed", minimum=0)
    else:
        workerinput = getattr(config, "workerinput", None)
        if workerinput is not None and WORKER_KEY in workerinput:
            explore_seed = int(workerinput[WORKER_KEY])
        else:
            explore_seed = secrets.randbelow(10**9)
    if factor is not None:
        factor = _integer(factor, "--toolproof-explore-factor", minimum=1)
    return Draws(
        seed=seed,
        seed_from=seed_from,
        explore_seed=explore_seed,
        explore_factor=EXPLORE_FACTOR if factor is None else factor,
    )


def seed_for(phase: str, seed: int, identity: str) -> int:
    """A test's own seed: stable across machines, processes, orders and Python hash seeds."""
    digest = hashlib.sha256(f"toolproof draws\0{phase}\0{seed}\0{identity}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def identity(item: pytest.Item) -> str:
    """The test's identity for its seed: file name and node name (`test_wire.py::test_x[p]`)."""
    return "::".join([item.path.name, *item.nodeid.split("::")[1:]])


@dataclass
class ItemDraws:
    """One test item's draws: whether it drew, and where its exploration phase recorded."""

    identity: str
    drawn: bool = False
    #: [start, end) positions in the recorder of each exploration phase; end None while it runs,
    #: or after it raised, until the call phase's report is made (so its failure's results count).
    explored: list[list[int | None]] = field(default_factory=list)
    #: Build tokens that existed when the first exploration began: the default draws' traffic.
    default_tokens: frozenset[str] | None = None


DRAWS = pytest.StashKey[Draws]()
ITEM = pytest.StashKey[ItemDraws]()
_CURRENT: list[tuple[pytest.Item, Draws, ItemDraws]] = []
"""The running test (innermost last): `run_drawn` finds its seeds here."""


def _is_hypothesis_test(test: Any) -> bool:
    from hypothesis import is_hypothesis_test

    return bool(test is not None and is_hypothesis_test(test))


@contextmanager
def _seeded(test: Any, seed: int, factor: int = 1) -> Iterator[None]:
    """`test` (a Hypothesis test) draws from `seed`, with `factor` times its examples, inside the block.

    `hypothesis.seed()` is the public way in; the settings are replaced on the same attribute
    Hypothesis's own pytest plugin replaces them on. Both are restored: a function object outlives
    the item (parametrized items share it; pytester runs share the module).
    """
    from hypothesis import seed as hypothesis_seed
    from hypothesis import settings

    function = getattr(test, "__func__", test)
    saved = {
        name: getattr(function, name, None)
        for name in ("_hypothesis_internal_use_seed", "_hypothesis_internal_use_settings")
    }
    hypothesis_seed(seed)(function)
    if factor > 1:
        current = function._hypothesis_internal_use_settings
        function._hypothesis_internal_use_settings = settings(
            current, max_examples=current.max_examples * factor
        )
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(function, name, value)


def _recorded(item: pytest.Item) -> int:
    recorder = item.stash.get(RECORDER, None)
    return len(recorder.results) if recorder is not None else 0


def _begin_exploration(item: pytest.Item, state: ItemDraws) -> list[int | None]:
    if state.default_tokens is None:
        scenario = getattr(item, "funcargs", {}).get("tp")
        tokens = getattr(scenario, "all_tokens", None)
        if callable(tokens):
            state.default_tokens = frozenset(tokens())
    phase: list[int | None] = [_recorded(item), None]
    state.explored.append(phase)
    return phase


@contextmanager
def running(item: pytest.Item) -> Iterator[None]:
    """Around the call phase: the item's draws state, and its seeds for a Hypothesis test function."""
    draws = item.config.stash.get(DRAWS, None)
    if draws is None:
        yield
        return
    state = ItemDraws(identity=identity(item))
    item.stash[ITEM] = state
    _CURRENT.append((item, draws, state))
    try:
        test = getattr(item, "obj", None)
        if not _is_hypothesis_test(test):
            yield  # a plain test; an inner Hypothesis test goes through run_drawn
            return
        state.drawn = True
        with _seeded(test, seed_for(DEFAULT, draws.seed, state.identity)):
            yield
    finally:
        _CURRENT.pop()


def explore(item: pytest.Item) -> None:
    """After the default draws of a Hypothesis test function raised nothing: its exploration phase
    (inside `running`, the test run again through pytest's own call hook)."""
    draws, state = item.config.stash.get(DRAWS, None), item.stash.get(ITEM, None)
    test = getattr(item, "obj", None)
    if draws is None or state is None or not draws.exploring or not _is_hypothesis_test(test):
        return
    assert draws.explore_seed is not None
    phase = _begin_exploration(item, state)
    with _seeded(test, seed_for(EXPLORE, draws.explore_seed, state.identity), draws.explore_factor):
        item.runtest()
    phase[1] = _recorded(item)


def run_drawn(test: Callable[[], None]) -> None:
    """Run `test`, a Hypothesis test defined inside a suite test (an inner `@given` function), on
    the draws in force: its default draws, then, under --toolproof-explore and if those raised
    nothing, its exploration phase. Outside a toolproof session it is simply called."""
    __tracebackhide__ = True
    if not _CURRENT:
        test()
        return
    item, draws, state = _CURRENT[-1]
    name = f"{state.identity}::{getattr(test, '__name__', 'inner')}"
    state.drawn = True
    with _seeded(test, seed_for(DEFAULT, draws.seed, name)):
        test()
    if not draws.exploring:
        return
    assert draws.explore_seed is not None
    phase = _begin_exploration(item, state)
    with _seeded(test, seed_for(EXPLORE, draws.explore_seed, name), draws.explore_factor):
        test()
    phase[1] = _recorded(item)


def close_exploration(item: pytest.Item) -> None:
    """When the call phase's report is made: an exploration that raised ends here (the results
    recorded for its failure, undecided or faulted checks, belong to it)."""
    state = item.stash.get(ITEM, None)
    for phase in state.explored if state is not None else []:
        if phase[1] is None:
            phase[1] = _recorded(item)


def label(item: pytest.Item) -> None:
    """Before the results leave the item: label each result of a test that drew, `explore` within
    an exploration phase, else `default` (a label set where it was recorded stays)."""
    state, recorder = item.stash.get(ITEM, None), item.stash.get(RECORDER, None)
    if state is None or recorder is None or not state.drawn:
        return
    close_exploration(item)
    phases = [(start, end) for start, end in state.explored if start is not None and end is not None]
    for index, result in enumerate(recorder.results):
        if result.draws is None:
            inside = any(start <= index < end for start, end in phases)
            recorder.results[index] = replace(result, draws=EXPLORE if inside else DEFAULT)


def explored(item: pytest.Item) -> bool:
    """Whether the item ran an exploration phase (its failures then came from it: the default draws
    raised nothing)."""
    state = item.stash.get(ITEM, None)
    return bool(state is not None and state.explored)


def default_tokens(item: pytest.Item) -> frozenset[str] | None:
    """The build tokens of the default draws when the item explored (None when it did not)."""
    state = item.stash.get(ITEM, None)
    return state.default_tokens if state is not None and state.explored else None


def failure_note(item: pytest.Item) -> str | None:
    """For a failed test that drew: how to repeat its draws (a section of pytest's failure report)."""
    draws, state = item.config.stash.get(DRAWS, None), item.stash.get(ITEM, None)
    if draws is None or state is None or not state.drawn:
        return None
    if state.explored:
        return (
            f"drawn from --toolproof-seed {draws.seed}, then explored: {draws.reproduce()} repeats these "
            "draws; a failure only the exploration found is explore-only (the default draws pass it)"
        )
    return f"drawn from --toolproof-seed {draws.seed}: the same seed repeats these draws, another varies them"
