"""Non-text results (CONTRACT.md §5d) under readings other than the reference's own: binary blocks
as data-URL text, an embedded text resource as its JSON block (SDK nulls included), a resource_link
as a placeholder of a declared template. Declared and acted out they pass; acted out undeclared,
every block check whose reading changed fails (tests/fauxmplementations/reference_blocks.py)."""

from __future__ import annotations

from pathlib import Path

from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = (
    "result.block-image",
    "result.block-audio",
    "result.block-blob",
    "result.block-order",
    "result.block-text-resource",
    "result.block-link",
    "result.binary-not-text",
    "result.link-not-fetched",
)


def test_declared_other_readings_pass(tmp_path: Path) -> None:
    code, report = toolproof_run(tmp_path, "py:reference_blocks:other_readings", "-k", "test_result_blocks")
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    assert (statuses, code) == (dict.fromkeys(CHECKS, "pass"), exitcodes.OK)


def test_undeclared_other_readings_fail(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path, "py:reference_blocks:other_readings_undeclared", "-k", "test_result_blocks"
    )
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    kept = ("result.binary-not-text", "result.link-not-fetched")
    expected = {check: "pass" if check in kept else "fail" for check in CHECKS}
    assert (statuses, code) == (expected, exitcodes.CHECK_FAILED)
