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


def block_statuses(tmp_path: Path, variant: str) -> tuple[dict[str, str], int]:
    """The block checks' statuses and the exit status of the suite's block tests on `variant`."""
    code, report = toolproof_run(tmp_path, f"py:reference_named_files:{variant}", "-k", "test_result_blocks")
    return {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}, code


def test_named_files_forwarded_as_declared_pass(tmp_path: Path) -> None:
    assert block_statuses(tmp_path, "named_files") == (dict.fromkeys(CHECKS, "pass"), exitcodes.OK)


def test_a_forwarded_image_its_user_message_does_not_name_fails(tmp_path: Path) -> None:
    failed = ("result.block-image", "result.block-order")
    expected = {check: "fail" if check in failed else "pass" for check in CHECKS}
    assert block_statuses(tmp_path, "named_files_unnamed") == (expected, exitcodes.CHECK_FAILED)


def test_a_relayed_text_in_the_other_shape_fails_only_where_the_tool_wrote_text(tmp_path: Path) -> None:
    expected = {check: "fail" if check == "result.block-order" else "pass" for check in CHECKS}
    assert block_statuses(tmp_path, "named_files_relayed_parts") == (expected, exitcodes.CHECK_FAILED)
