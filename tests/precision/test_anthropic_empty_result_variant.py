"""`anthropic_empty_result` (CONTRACT.md §6c item 30): an empty tool result on the Messages API is
judged exactly as declared, `content: []` or a placeholder text as well as no content (the
reference's), and fails when acted out undeclared or declared but not acted out.

The reference sends no content, so the other branches of anthropic.empty-result-per-option are
exercised here through tests/fauxmplementations/reference_anthropic_empty_result.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECK = "anthropic.empty-result-per-option"


@pytest.mark.parametrize(
    ("factory", "status"),
    [
        ("empty_array", "pass"),
        ("placeholder", "pass"),
        ("placeholder_undeclared", "fail"),
        ("placeholder_declared_only", "fail"),
    ],
)
def test_the_declared_empty_result_is_judged_exactly(tmp_path: Path, factory: str, status: str) -> None:
    code, report = toolproof_run(
        tmp_path,
        f"py:reference_anthropic_empty_result:{factory}",
        "-k",
        "test_empty_results_are_sent_as_declared",
    )
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] == CHECK}
    expected_code = exitcodes.OK if status == "pass" else exitcodes.CHECK_FAILED
    assert (statuses, code) == ({CHECK: status}, expected_code)
