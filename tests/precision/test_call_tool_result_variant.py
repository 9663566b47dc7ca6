"""The whole MCP CallToolResult as JSON text (issue 22 §3), declared per kind of result:
`tool_result_encoding`, `error_result_encoding` and `structured_content` `call_tool_result`.

Declared and acted out (every kind, with unset members left out or written as null as the SDK's
`model_dump_json` does, or isError results only), the reference passes the whole suite;
acted out undeclared, or declared and not acted out, the result checks of that kind fail. The
reference sends the tool's text, so tests/fauxmplementations/reference_call_tool_result.py exercises
these branches; negative_controls/result_call_tool_result_* show each can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

RESULT_TESTS = (
    "test_tool_text_reaches or test_empty_result or test_text_blocks or test_is_error_result "
    "or test_structured_result"
)
CHECKS = ("result.verbatim", "result.empty", "result.multi-block", "result.is-error", "result.structured")


@pytest.mark.parametrize("factory", ["sends_whole_results", "sends_sdk_dumps", "sends_whole_errors"])
def test_a_declared_encoding_passes_the_whole_result_area(tmp_path: Path, factory: str) -> None:
    # The result, receipt and error areas (and the invariants over their traffic): where an encoding
    # of tool results can show; the whole suite takes minutes per variant.
    code, report = toolproof_run(
        tmp_path,
        f"py:reference_call_tool_result:{factory}",
        "-k",
        "test_results or test_receipts or test_errors",
    )
    not_green = sorted(row["id"] for row in report["checks"] if row["status"] in ("fail", "undecided"))
    assert (code, not_green) == (exitcodes.OK, []), report["verdict_lines"][-20:]


@pytest.mark.parametrize(
    ("factory", "failing"),
    [
        ("sends_whole_results_undeclared", CHECKS),
        ("sends_whole_errors_undeclared", ("result.is-error",)),
        ("whole_errors_declared_only", ("result.is-error",)),
    ],
)
def test_an_encoding_other_than_the_declared_one_fails(
    tmp_path: Path, factory: str, failing: tuple[str, ...]
) -> None:
    code, report = toolproof_run(tmp_path, f"py:reference_call_tool_result:{factory}", "-k", RESULT_TESTS)
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    expected = {check: "fail" if check in failing else "pass" for check in CHECKS}
    assert (statuses, code) == (expected, exitcodes.CHECK_FAILED)
