"""Declared variants of the turn cap and of parameters_strict (issue 13 §2): each passes exactly when
declared and acted out, and fails when acted out undeclared or declared but not acted out.

The reference takes neither variant, so these fauxmplementations (tests/fauxmplementations/
reference_variants.py: the reference behind a wrapper) are what exercises the suite's other branch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

ZERO = ("test_zero_cap_is_unlimited", "loop.cap-zero-unlimited")
CAP_END = ("test_cap_end", "loop.cap-end-text")
# loop.cap-invalid is a SHOULD: the MUST loop.cap-negative-not-run (same declared phase) makes the exit.
INVALID_CAP = (
    "test_invalid_cap or test_negative_cap or test_a_contract_named_failure",
    "loop.cap-invalid",
)
SCHEMA_MEANING = ("test_parameters_keep_the_meaning_of_input_schema", "wire.schema-meaning")


def run_suite(tmp_path: Path, factory: str, selection: str) -> tuple[int, dict[str, str]]:
    """`toolproof run` on the tests matching `selection`; (exit status, status per check)."""
    code, report = toolproof_run(tmp_path, f"py:reference_variants:{factory}", "-k", selection)
    return code, {row["id"]: row["status"] for row in report["checks"] if not row["invariant"]}


@pytest.mark.parametrize(
    ("factory", "selection", "check", "status"),
    [
        ("rejects_zero", *ZERO, "pass"),
        ("rejects_zero_undeclared", *ZERO, "fail"),
        ("zero_declared_only", *ZERO, "fail"),
        ("hides_cap_stop", *CAP_END, "pass"),
        ("hides_cap_stop_undeclared", *CAP_END, "fail"),
        ("refuses_cap_at_run", *INVALID_CAP, "pass"),
        ("refuses_cap_at_run_undeclared", *INVALID_CAP, "fail"),
        ("closes_roots", *SCHEMA_MEANING, "pass"),
        ("closes_roots_undeclared", *SCHEMA_MEANING, "fail"),
        ("roots_closed_declared_only", *SCHEMA_MEANING, "fail"),
    ],
)
def test_a_declared_variant_is_judged_exactly(
    tmp_path: Path, factory: str, selection: str, check: str, status: str
) -> None:
    code, statuses = run_suite(tmp_path, factory, selection)
    assert (statuses[check], code) == (status, exitcodes.OK if status == "pass" else exitcodes.CHECK_FAILED)
