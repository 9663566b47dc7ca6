"""`turn_cap_output: tool_results` (issue 13 §2, "what a graceful stop outputs"): judged exactly when
declared and acted out, a failure when acted out undeclared or declared but not acted out.

The reference outputs the last reply's text (or the notice), so the other branch of the cap-end
checks is exercised here, through tests/fauxmplementations/reference_cap_output.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = ("loop.cap-end-text", "loop.cap-end-blank")


@pytest.mark.parametrize(
    ("factory", "status"),
    [
        ("joins_cap_results", "pass"),
        ("joins_cap_results_undeclared", "fail"),
        ("cap_results_declared_only", "fail"),
    ],
)
def test_the_declared_cap_output_is_judged_exactly(tmp_path: Path, factory: str, status: str) -> None:
    code, report = toolproof_run(tmp_path, f"py:reference_cap_output:{factory}", "-k", "test_cap_end")
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    expected_code = exitcodes.OK if status == "pass" else exitcodes.CHECK_FAILED
    assert (statuses, code) == ({check: status for check in CHECKS}, expected_code)
