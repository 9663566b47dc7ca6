"""What toolproof.plugin.draws relies on, pinned against the installed Hypothesis and the suite.

- `hypothesis.seed()` on a test overrides `derandomize=True`: the seed alone decides the draws;
- settings replaced on the test's `_hypothesis_internal_use_settings` are read when it is called
  (the exploration's extra examples), and `_seeded` restores the test as it was;
- a test's seed is a fixed function of the run's seed and the test's name (a change here changes
  every verdict's draws: it must be deliberate);
- every Hypothesis test defined inside a suite test goes through `run_drawn` (else it would draw
  unseeded, and never explore).
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from toolproof.plugin.draws import _seeded, seed_for

SUITE = Path(__file__).resolve().parents[2] / "conformance"


def _drawing(max_examples: int = 5) -> tuple[list[int], object]:
    drawn: list[int] = []

    @settings(
        derandomize=True,
        database=None,
        max_examples=max_examples,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers())
    def test(n: int) -> None:
        drawn.append(n)

    return drawn, test


def test_a_seed_overrides_derandomize() -> None:
    runs = []
    for seed in (5, 5, 6):
        drawn, test = _drawing()
        hypothesis_seed(seed)(test)
        test()  # type: ignore[operator]
        runs.append(drawn)
    unseeded, test = _drawing()
    test()  # type: ignore[operator]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    assert unseeded != runs[0]  # derandomize alone draws from the test's source, not the seed


def test_seeded_scales_the_examples_and_restores_the_test() -> None:
    drawn, test = _drawing(max_examples=4)
    before = (test._hypothesis_internal_use_seed, test._hypothesis_internal_use_settings)  # type: ignore[attr-defined]
    with _seeded(test, 7, factor=3):
        test()  # type: ignore[operator]
    assert len(drawn) == 12
    assert (test._hypothesis_internal_use_seed, test._hypothesis_internal_use_settings) == before  # type: ignore[attr-defined]
    with _seeded(test, 7, factor=3):
        test()  # type: ignore[operator]
    assert drawn[12:] == drawn[:12]


def test_a_tests_seed_is_a_fixed_function_of_the_run_seed_and_its_name() -> None:
    name = "test_wire.py::test_parameters_classify_generated_instances_as_input_schema"
    assert seed_for("default", 0, name) == 9923292174835595196
    assert seed_for("explore", 0, name) == 6322742101318115165
    assert seed_for("default", 1, name) != seed_for("default", 0, name)


def _inner_given_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """Functions decorated with @given that are defined inside another function."""
    inner = []
    for outer in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(outer):
            if node is outer or not isinstance(node, ast.FunctionDef):
                continue
            decorators = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
            if any(isinstance(d, ast.Name) and d.id == "given" for d in decorators):
                inner.append(node)
    return inner


def test_every_inner_hypothesis_test_of_the_suite_runs_on_the_seeds() -> None:
    found = {}
    for path in sorted(SUITE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {f.name for f in _inner_given_functions(tree)}
        calls = [
            node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        ]
        drawn = {a.id for c in calls if c.func.id == "run_drawn" for a in c.args if isinstance(a, ast.Name)}  # type: ignore[union-attr]
        called = {c.func.id for c in calls if c.func.id in names}  # type: ignore[union-attr]
        if names:
            found[path.name] = (sorted(names), sorted(drawn & names), sorted(called))
    assert found == {
        "test_anthropic_stream.py": (["example"], ["example"], []),
        "test_streaming.py": (["example"], ["example"], []),
        "test_wire.py": (["agree"], ["agree"], []),
    }
