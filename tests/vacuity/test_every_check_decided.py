"""Every declared check of every test ends decided, on its own observation (issue 12 §1, §2).

Small suites run by pytester in a subprocess against the in-process fauxmplementations of
test_vacuity.py, each pinning the exit status and the report rows:

- a failed check does not stop the test: the next check is decided on its own observation, and
  the test still fails (its failed MUST checks are raised when it ends);
- a build or run the test needs that fails fails the precondition once (side candidate, quoting
  the candidate's error); the declared checks are `undecided`, blocked by it, and set no exit code;
- in a Hypothesis test each example decides all its checks, and a failed one still fails that
  example, which Hypothesis prints to reproduce;
- the report counts declared check x test pairs: one without a result is INCOMPLETE.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_vacuity import Suite, candidate  # the vacuity self-tests' pytester driver (tests/vacuity)

from toolproof.report import exitcodes

TWO_CHECKS = """
import pytest


@pytest.mark.checks("proto.unknown-build-id", "proto.error-kinds")
def test_two_checks(tp):
    # The first verdict fails on purpose (the candidate answers internal); the second has its own
    # observation and is decided on it.
    wrong = {"ok": False, "kind": "invalid_config"}
    tp.expect_outcome("proto.unknown-build-id", tp.run("hi", judged=True), wrong, what="x")
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.error-kinds", outcome, {"ok": False, "kind": "internal"}, what="y")
"""

NEEDS_A_BUILD_AND_A_RUN = """
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("loop.completed-output", "proto.model-settings-from-config")
@pytest.mark.capability("openai.chat")
def test_needs_them(tp):
    tp.script(Text("done"))
    tp.build(tp.config({}))
    tp.run("q")
    tp.expect("loop.completed-output", len(tp.model_requests()), 1, what="model requests")
    tp.expect("proto.model-settings-from-config", len(tp.model_requests()), 1, what="again")
"""

PROPERTY = """
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st


@settings(
    derandomize=True,
    database=None,
    phases=(Phase.generate,),
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(n=st.integers(min_value=0, max_value=9))
@pytest.mark.checks("proto.unknown-build-id", "proto.error-kinds")
def test_each_example(tp, n):
    build = tp.sibling()
    outcome = build.run("hi", judged=True)
    # Fails on purpose for n >= 5; the other check of the same example is still decided.
    build.expect("proto.unknown-build-id", n < 5, True, what=f"n is {n}")
    build.expect_outcome("proto.error-kinds", outcome, {"ok": False, "kind": "internal"}, what="y")
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def _statuses(run: Any) -> dict[str, str]:
    return {check: row["status"] for check, row in run.rows.items() if not row["invariant"]}


def test_a_failed_check_does_not_stop_the_next_one(suite: Suite) -> None:
    run = suite.run(TWO_CHECKS, candidate("answers"))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert _statuses(run) == {"proto.unknown-build-id": "fail", "proto.error-kinds": "pass"}
    assert run.report["summary"]["undecided"] == 0
    # pytest still shows the test red, naming the failed check.
    assert "FAILED test_suite.py::test_two_checks - toolproof.judge.checks.CheckFailed: " in run.output
    assert (run.report["summary"]["declared_pairs"], run.report["summary"]["decided_pairs"]) == (2, 2)


def test_a_failed_build_fails_the_precondition_once_and_blocks_the_rest(suite: Suite) -> None:
    run = suite.run(NEEDS_A_BUILD_AND_A_RUN, candidate("rejects_empty_servers"))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert _statuses(run) == {
        "proto.valid-config-builds-and-runs": "fail",
        "loop.completed-output": "undecided",
        "proto.model-settings-from-config": "undecided",
    }
    failed = run.rows["proto.valid-config-builds-and-runs"]
    assert failed["side"] == "candidate"
    assert failed["message"].endswith(
        "a step this test needs did not succeed, so its other checks are undecided: "
        "build answered ok false, kind invalid_config: 'no MCP server given'"
    )
    blocked = [(r["check"], r["blocked_by"]) for r in run.report["results"] if r["status"] == "undecided"]
    assert blocked == [
        ("loop.completed-output", "build failed (invalid_config)"),
        ("proto.model-settings-from-config", "build failed (invalid_config)"),
    ]
    summary = run.report["summary"]
    assert (summary["fail"], summary["undecided"]) == (1, 2)
    assert run.report["verdict_lines"][-1] == (
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate)"
    )


def test_a_failed_run_fails_the_precondition_once_and_blocks_the_rest(suite: Suite) -> None:
    run = suite.run(NEEDS_A_BUILD_AND_A_RUN, candidate("fails_runs"))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    blocked = {r["check"]: r["blocked_by"] for r in run.report["results"] if r["status"] == "undecided"}
    assert blocked == {
        "loop.completed-output": "run failed (internal)",
        "proto.model-settings-from-config": "run failed (internal)",
    }
    assert run.rows["proto.valid-config-builds-and-runs"]["message"].endswith(
        "run answered ok false, kind internal: 'run exploded'"
    )


def test_an_undecided_check_alone_sets_no_exit_code(suite: Suite) -> None:
    """Only the precondition's failure is a verdict: listed in a baseline, the run is green and the
    two undecided checks are still reported, each with its cause."""
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "version: 1\nexpected_failures:\n"
        "  - check: proto.valid-config-builds-and-runs\n"
        "    reason: this self-test's candidate rejects an empty mcp_servers\n",
        encoding="utf-8",
    )
    run = suite.run(
        NEEDS_A_BUILD_AND_A_RUN, candidate("rejects_empty_servers"), "--expected-failures", str(baseline)
    )
    assert run.ret == exitcodes.OK, run.output
    assert run.report["summary"]["expected_failures"] == 1
    lines = run.report["verdict_lines"]
    assert [line.split(":")[0] for line in lines if line.startswith("UNDECIDED")] == [
        "UNDECIDED loop.completed-output [MUST]",
        "UNDECIDED proto.model-settings-from-config [MUST]",
    ]
    assert lines[-1].startswith("toolproof: exit 0: ")


def test_each_hypothesis_example_decides_all_its_checks_and_prints_the_failing_one(suite: Suite) -> None:
    run = suite.run(PROPERTY, candidate("answers"))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert _statuses(run) == {"proto.unknown-build-id": "fail", "proto.error-kinds": "pass"}
    results = [(r["check"], r["status"]) for r in run.report["results"] if not r["invariant"]]
    # Each failing occurrence is followed by the same example's own verdict on the other check.
    after_failures = [results[i + 1] for i, (_, status) in enumerate(results) if status == "fail"]
    assert after_failures != []
    assert after_failures == [("proto.error-kinds", "pass")] * len(after_failures)
    # Hypothesis names the failing example (its wording differs between versions).
    assert re.search(r"(Falsifying example|Failing test case): test_each_example\(", run.output)
    assert "CheckFailed: [proto.unknown-build-id] n is " in run.output


NEEDED_OBSERVATION = """
import pytest


@pytest.mark.checks("proto.unknown-build-id", "proto.error-kinds")
def test_needs_an_observation(tp):
    outcome = tp.run("hi", judged=True)
    # Fails on purpose: the second check stands on this observation, so it is blocked, not judged.
    tp.expect_needed("proto.unknown-build-id", outcome.kind, "invalid_config", what="the kind")
    tp.expect_outcome("proto.error-kinds", outcome, {"ok": False, "kind": "internal"}, what="y")
"""


def test_a_failed_needed_observation_blocks_the_checks_after_it(suite: Suite) -> None:
    # Scenario.expect_needed (conformance/test_mcp_lists.py): one root cause, one failure.
    run = suite.run(NEEDED_OBSERVATION, candidate("answers"))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert _statuses(run) == {"proto.unknown-build-id": "fail", "proto.error-kinds": "undecided"}
    blocked = [(r["check"], r["blocked_by"]) for r in run.report["results"] if r["status"] == "undecided"]
    assert blocked == [("proto.error-kinds", "proto.unknown-build-id")]
