"""A `tools/call` without `arguments` passes none, and the tool receives {} (CONTRACT.md §7; MCP's
schema makes the key optional). strands-agents sends a call whose arguments are `"null"` that
way; the reference always sends the object, so tests/fauxmplementations/reference_absent_arguments.py
leaves the key out wherever the tool gets {}, and every check of those calls still passes.
"""

from __future__ import annotations

from pathlib import Path

from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECKS = ("args.empty-and-blank-give-empty-object", "args.null-per-option")
SELECTION = "test_empty_and_blank_arguments or test_null_arguments_go_the_declared_way"


def test_an_absent_arguments_key_is_an_empty_object(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path, "py:reference_absent_arguments:omits_empty_arguments", "-k", SELECTION
    )
    statuses = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    assert (statuses, code) == ({check: "pass" for check in CHECKS}, exitcodes.OK)
