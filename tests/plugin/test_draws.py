"""The seeds in force (toolproof.plugin.draws), end to end on small suites run by pytester.

- every Hypothesis test draws from its own seed, derived from --toolproof-seed (ini
  `toolproof_seed`, default 0) and its name: two runs draw the same examples, another seed
  others, `--hypothesis-profile=ci` the same ones, and the report and the console say which seed;
- `--toolproof-explore` runs a test's exploration after its default draws passed: a failure only
  it finds is `explore-only` on its result, its row, its FAIL line and in the reason, and no
  baseline covers it;
- under xdist every worker explores from the controller's seed;
- a bad seed option is a usage error before anything runs.

The candidate is in-process (`Answers`: a run of an unknown build answers `internal`); the suites
write what they drew to a file named by TOOLPROOF_DRAWN.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from toolproof.controls.forkserver import run_python
from toolproof.report import exitcodes

# `python -c` of the command line, forked from a preloaded interpreter (toolproof.controls.forkserver).
CLI = "import sys; from toolproof.tools.cli import main; sys.exit(main())"

CANDIDATE = '''
HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "draws", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


class Answers:
    """Knows no build: every run answers internal (what proto.unknown-build-id asks)."""

    def hello(self):
        return HELLO

    def run(self, id, input):
        return {"ok": False, "error": {"kind": "internal", "message": "unknown id"}}

    def build(self, id, config):
        return {"ok": True}

    def close(self, id):
        return {"ok": True}


def answers():
    return Answers()
'''

SUITE = """
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from toolproof.plugin.draws import run_drawn

EXAMPLES = Counter()  # examples run per test item (its tp)


def note(line):
    with open(os.environ["TOOLPROOF_DRAWN"], "a", encoding="utf-8") as out:
        out.write(line + "\\n")


@settings(
    max_examples=4,
    deadline=None,
    phases=(Phase.generate,),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(n=st.integers(min_value=0, max_value=10**9))
@pytest.mark.checks("proto.unknown-build-id")
def test_drawn(tp, n):
    EXAMPLES[id(tp)] += 1
    note(f"test_drawn {n}")
    outcome = tp.sibling().run("hi", judged=True)
    # A defect only many examples reach: from the fifth example of the item on, it "fails".
    tp.expect(
        "proto.unknown-build-id",
        {"kind": outcome.kind, "late": EXAMPLES[id(tp)] >= 5},
        {"kind": "internal", "late": False},
        what=f"example {EXAMPLES[id(tp)]}",
    )


@pytest.mark.checks("proto.error-kinds")
def test_inner(tp):
    @settings(max_examples=3, deadline=None, phases=(Phase.generate,))
    @given(st.text(max_size=8))
    def inner(text):
        note(f"test_inner {text!r}")

    run_drawn(inner)
    tp.expect_outcome("proto.error-kinds", tp.run("hi", judged=True), {"ok": False, "kind": "internal"},
                      what="an unknown build")
"""


class Suite:
    """A pytester directory with the suite and the in-process candidate."""

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester = pytester
        pytester.makeini("[pytest]\n")
        pytester.makepyfile(test_suite=SUITE, draws_candidate=CANDIDATE)
        pytester.syspathinsert()
        self.runs = 0

    def run(
        self, *args: str, isolated: bool = False, ini: str = ""
    ) -> tuple[pytest.RunResult, dict[str, Any], list[str]]:
        """One run: pytest's result, the JSON report, the lines the suite wrote of what it drew."""
        self.runs += 1
        drawn = self.pytester.path / f"drawn-{self.runs}.txt"
        report = self.pytester.path / f"report-{self.runs}.json"
        if ini:
            self.pytester.makeini(f"[pytest]\n{ini}\n")
        argv = (
            "-p",
            "toolproof.plugin",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "--candidate=py:draws_candidate:answers",
            "--report-json",
            str(report),
            *args,
        )
        saved = dict(os.environ)
        os.environ["TOOLPROOF_DRAWN"] = str(drawn)
        try:
            if isolated:
                result = self.pytester.runpytest_subprocess(*argv, timeout=120)
            else:
                result = self.pytester.runpytest_inprocess(*argv, no_reraise_ctrlc=True)
        finally:
            os.environ.clear()
            os.environ.update(saved)
            self.pytester.makeini("[pytest]\n")
        data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        lines = drawn.read_text(encoding="utf-8").splitlines() if drawn.exists() else []
        return result, data, lines


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def _section(result: pytest.RunResult) -> list[str]:
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if line.startswith("=") and " toolproof " in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("=")), len(lines))
    return [line for line in lines[start + 1 : end] if line]


def test_the_same_seed_draws_the_same_examples_and_another_seed_others(suite: Suite) -> None:
    first, report, drawn = suite.run()
    assert first.ret == exitcodes.OK, "\n".join(first.outlines)
    assert report["draws"] == {
        "mode": "default",
        "seed": 0,
        "seed_from": "default",
        "explore_seed": None,
        "explore_factor": None,
        "drawn_tests": 2,
        "reproduce": "--toolproof-seed 0",
    }
    assert _section(first)[0] == (
        "hypothesis draws: seed 0 (the default; --toolproof-seed N varies them), in 2 tests;"
        " the same seed repeats every draw"
    )
    assert [line.split()[0] for line in drawn] == ["test_drawn"] * 4 + ["test_inner"] * 3
    assert {(r["check"], r["draws"]) for r in report["results"] if not r["invariant"]} == {
        ("proto.unknown-build-id", "default"),
        ("proto.error-kinds", "default"),
    }
    _, again, drawn_again = suite.run()
    assert (drawn_again, again["checks"], again["results"]) == (drawn, report["checks"], report["results"])
    _, _, drawn_ci = suite.run("--hypothesis-profile=ci")  # the old name: the same settings
    assert drawn_ci == drawn
    _, other, drawn_other = suite.run("--toolproof-seed", "3")
    assert other["draws"]["seed_from"] == "option"
    assert drawn_other != drawn
    assert len(drawn_other) == len(drawn)
    _, ini, drawn_ini = suite.run(ini="toolproof_seed = 3")
    assert (ini["draws"]["seed"], ini["draws"]["seed_from"], drawn_ini) == (3, "ini", drawn_other)


def test_a_failure_only_the_exploration_finds_is_explore_only_and_no_baseline_covers_it(
    suite: Suite,
) -> None:
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "expected_failures:\n  - {check: proto.unknown-build-id, reason: listed before the draws changed}\n",
        encoding="utf-8",
    )
    result, report, drawn = suite.run(
        "--toolproof-explore-seed",
        "11",
        "--toolproof-explore-factor",
        "2",
        "--expected-failures",
        str(baseline),
    )
    assert result.ret == exitcodes.CHECK_FAILED, "\n".join(result.outlines)
    assert report["draws"] == {
        "mode": "explore",
        "seed": 0,
        "seed_from": "default",
        "explore_seed": 11,
        "explore_factor": 2,
        "drawn_tests": 2,
        "reproduce": (
            "--toolproof-seed 0 --toolproof-explore --toolproof-explore-seed 11 --toolproof-explore-factor 2"
        ),
    }
    # The default draws first (4 and 3 examples), then the exploration of each (the collected test
    # stops at its first failing example, which Hypothesis runs once more to report it).
    assert [line.split()[0] for line in drawn] == (
        ["test_drawn"] * 4 + ["test_drawn"] * 2 + ["test_inner"] * 3 + ["test_inner"] * 6
    )
    row = {r["id"]: r for r in report["checks"]}["proto.unknown-build-id"]
    assert {k: row[k] for k in ("status", "draws", "expected_failure", "baseline_stale")} == {
        "status": "fail",
        "draws": "explore-only",
        "expected_failure": False,  # never covered by the baseline
        "baseline_stale": True,  # the default draws pass it: a plain run says so too
    }
    labels = [(r["status"], r["draws"]) for r in report["results"] if r["check"] == "proto.unknown-build-id"]
    assert labels == [("pass", "default")] * 4 + [("fail", "explore")] * 2
    assert {r["id"]: r["draws"] for r in report["checks"] if not r["invariant"]} == {
        "proto.unknown-build-id": "explore-only",
        "proto.error-kinds": "default",
    }
    lines = report["verdict_lines"]
    assert (
        "STALE baseline entry proto.unknown-build-id: the default draws pass it; remove it from the baseline"
    ) in lines
    assert result.parseoutcomes() == {"failed": 1, "passed": 1}  # never shown as an expected failure
    assert lines[0].startswith(  # findings lead the section (no group lines)
        "FAIL proto.unknown-build-id [MUST (spec), candidate] (explore-only): example 5"
    )
    assert (
        "    explore-only: only the exploration draws fail it (--toolproof-seed 0 --toolproof-explore"
        " --toolproof-explore-seed 11 --toolproof-explore-factor 2 repeats them); the default draws"
        " (--toolproof-seed 0) pass it, so no baseline covers it"
    ) in lines
    assert lines[-1] == (
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate; 1 explore-only: the default"
        " draws pass it); 1 stale baseline entry: proto.unknown-build-id"
    )
    assert _section(result)[0].startswith(
        "hypothesis draws: seed 0 (the default; --toolproof-seed N varies them)"
    )
    # pytest's failure report says how to repeat the draws.
    assert "toolproof draws" in result.stdout.str()
    assert (
        "drawn from --toolproof-seed 0, then explored: --toolproof-seed 0 --toolproof-explore"
        in result.stdout.str()
    )


def test_every_xdist_worker_explores_from_the_controllers_seed(suite: Suite) -> None:
    result, report, drawn = suite.run("--toolproof-explore", "-n", "2", isolated=True)
    assert result.ret == exitcodes.CHECK_FAILED, "\n".join(result.outlines)
    seed = report["draws"]["explore_seed"]
    assert isinstance(seed, int)
    _, again, drawn_again = suite.run("--toolproof-explore-seed", str(seed))
    assert sorted(drawn_again) == sorted(drawn)
    assert {r["id"]: (r["status"], r["draws"]) for r in again["checks"]} == {
        r["id"]: (r["status"], r["draws"]) for r in report["checks"]
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--toolproof-seed", "x"), "--toolproof-seed expects an integer, got 'x'"),
        (("--toolproof-seed", "-1"), "--toolproof-seed must be 0 or more, got -1"),
        (("--toolproof-explore-factor", "0"), "--toolproof-explore-factor must be 1 or more, got 0"),
        (("--hypothesis-seed", "1"), "--hypothesis-seed does not reach the suite's draws"),
    ],
)
def test_a_bad_seed_option_is_a_usage_error(suite: Suite, args: tuple[str, ...], message: str) -> None:
    result, report, drawn = suite.run(*args)
    assert (result.ret, report, drawn) == (exitcodes.USAGE, {}, [])
    assert message in "\n".join([*result.outlines, *result.errlines])


def test_the_default_profile_is_restored_after_the_run(suite: Suite) -> None:
    from hypothesis import settings

    before = settings.get_current_profile_name()
    suite.run()
    assert settings.get_current_profile_name() == before


def test_toolproof_run_exits_2_on_a_bad_seed(tmp_path: Path) -> None:
    """Through `toolproof run` too: the plugin's usage error is a usage error (2), not a harness one."""
    done = run_python(
        CLI,
        [
            "run",
            "--",
            "--toolproof-seed",
            "x",
        ],
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=120,
    )
    assert done.returncode == exitcodes.USAGE, done.stdout + done.stderr
    assert "toolproof: --toolproof-seed expects an integer, got 'x'" in done.stdout + done.stderr
