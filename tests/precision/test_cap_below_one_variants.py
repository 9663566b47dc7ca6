"""A cap of 0 or below as runtimes read it (issue 22 §3): as "not set" (the declared default cap), as
"do not run tools automatically" (one model request, its calls returned unrun), or as a step budget
with no step left (no model request at all), declared with `zero_max_tool_turns` and
`negative_max_tool_turns`.

Declared and acted out, the reference passes the whole suite but for the SHOULD
`loop.cap-invalid` (it accepts -1: the missing validation is that SHOULD's finding, never the
MUST's); acted out undeclared, or declared and not acted out, the two cap checks fail. The
reference takes neither reading, so tests/fauxmplementations/reference_cap_readings.py exercises
these branches; negative_controls/loop_cap_zero_* and loop_cap_negative_*_unbounded show each
can fail. The two readings that build and run with no tool run are told apart: each declared and
the other acted out fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = ("loop.cap-zero-unlimited", "loop.cap-negative-not-run")


@pytest.mark.parametrize(
    "factory", ["reads_below_one_as_default", "runs_no_tools_below_one", "runs_no_step_below_one"]
)
def test_a_declared_reading_passes_the_whole_loop_area(tmp_path: Path, factory: str) -> None:
    # The loop area (conformance/test_loop.py, every cap and loop check, and the invariants over its
    # traffic): where a reading of caps below 1 can show; the whole suite takes minutes per variant.
    code, report = toolproof_run(tmp_path, f"py:reference_cap_readings:{factory}", "-k", "test_loop")
    not_green = sorted(row["id"] for row in report["checks"] if row["status"] in ("fail", "undecided"))
    decided = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    assert (code, not_green, decided) == (
        exitcodes.OK,
        ["loop.cap-invalid"],
        {"loop.cap-zero-unlimited": "pass", "loop.cap-negative-not-run": "pass"},
    ), report["verdict_lines"][-20:]


@pytest.mark.parametrize(
    "factory",
    [
        "reads_below_one_as_default_undeclared",
        "runs_no_tools_below_one_undeclared",
        "no_tool_runs_declared_only",
        "runs_no_step_below_one_undeclared",
        "no_model_request_declared_only",
        "no_model_request_declared_one_request",
        "no_tool_runs_declared_no_request",
    ],
)
def test_a_reading_other_than_the_declared_one_fails(tmp_path: Path, factory: str) -> None:
    code, report = toolproof_run(
        tmp_path, f"py:reference_cap_readings:{factory}", "-k", "test_zero_cap or test_negative_cap"
    )
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    assert (statuses, code) == ({check: "fail" for check in CHECKS}, exitcodes.CHECK_FAILED)
