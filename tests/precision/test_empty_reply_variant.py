"""`empty_reply: reprompts` (pydantic-ai asks again after an empty text reply): judged exactly when
declared and acted out, a failure when acted out undeclared or declared but not acted out.

The reference completes with "", so the other branch of loop.completed-empty-output, and the
re-prompt's scripted reply in hist.runs-per-build-textless-reply, are exercised here through
tests/fauxmplementations/reference_empty_reply.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = ("loop.completed-empty-output", "hist.runs-per-build-textless-reply")
SELECTION = "test_textless_reply_completes or test_second_run_after_a_textless_final_reply"


@pytest.mark.parametrize(
    ("factory", "status"),
    [
        ("reprompts_empty_reply", "pass"),
        ("reprompts_empty_reply_undeclared", "fail"),
        ("reprompts_declared_only", "fail"),
    ],
)
def test_the_declared_empty_reply_is_judged_exactly(tmp_path: Path, factory: str, status: str) -> None:
    code, report = toolproof_run(tmp_path, f"py:reference_empty_reply:{factory}", "-k", SELECTION)
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    expected_code = exitcodes.OK if status == "pass" else exitcodes.CHECK_FAILED
    assert (statuses, code) == ({check: status for check in CHECKS}, expected_code)
