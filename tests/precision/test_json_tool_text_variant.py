"""`json_tool_text: reserialised` (issue 13, reports/precision.md: pydantic-ai re-serialises a tool's
JSON object text): judged JSON-equal when declared, a failure when acted out undeclared.

Declared but not acted out (the text byte for byte under `reserialised`) passes: a text is
JSON-equal to itself, so `reserialised` permits, never demands, the re-serialisation. The
reference sends text byte for byte, so the other branch of result.verbatim is exercised here,
through tests/fauxmplementations/reference_json_text.py. The control
negative_controls/result_json_reserialised_drops_null.py shows that branch can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = ("result.verbatim",)


@pytest.mark.parametrize(
    ("factory", "status"),
    [
        ("reserialises_json_text", "pass"),
        ("reserialises_json_text_undeclared", "fail"),
        ("json_text_reserialised_declared_only", "pass"),
    ],
)
def test_the_declared_json_tool_text_is_judged_exactly(tmp_path: Path, factory: str, status: str) -> None:
    code, report = toolproof_run(
        tmp_path, f"py:reference_json_text:{factory}", "-k", "test_tool_text_reaches_the_model_byte_for_byte"
    )
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    expected_code = exitcodes.OK if status == "pass" else exitcodes.CHECK_FAILED
    assert (statuses, code) == ({check: status for check in CHECKS}, expected_code)
