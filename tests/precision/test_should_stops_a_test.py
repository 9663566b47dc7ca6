"""A SHOULD check that stops its test (the build or run it pins ended ok false) fails that SHOULD
only: the run exits 0 without --toolproof-strict, as for any failed SHOULD, and 1 with it; never
"pytest reported status 1 outside any check" (Haystack 3.4.1 refusing the Gemini-style schema).

The runtime is the reference with control `wire-invalid-server-schema-refused` applied (it refuses a
tool whose inputSchema names an upper-case type), judged on the one test of that SHOULD.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from suite_run import run_with_control  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

CHECK = "wire.upper-case-types-repaired"


def run_refusing(tmp_path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    """(exit status, JSON report) of the SHOULD's test against the refusing reference copy."""
    return run_with_control(
        tmp_path, "wire_invalid_server_schema_refused", "--toolproof-checks", CHECK, *extra
    )


@pytest.mark.parametrize(
    ("extra", "code", "reason"),
    [
        pytest.param(
            (),
            exitcodes.OK,
            "every MUST check passed (2 passing checks); also 1 SHOULD check failed (not failing without"
            " --toolproof-strict)",
            id="lenient",
        ),
        pytest.param(
            ("--toolproof-strict",),
            exitcodes.CHECK_FAILED,
            "1 SHOULD finding (1 failing SHOULD check) (candidate; --toolproof-strict)",
            id="strict",
        ),
    ],
)
def test_a_should_that_stops_its_test_fails_that_should_only(
    tmp_path: Path, extra: tuple[str, ...], code: int, reason: str
) -> None:
    status, report = run_refusing(tmp_path, *extra)
    row = {r["id"]: r for r in report["checks"]}[CHECK]
    assert (status, report["exit_reason"], row["status"], row["side"]) == (code, reason, "fail", "candidate")
    assert {r["id"]: r["status"] for r in report["checks"] if r["status"] in ("fail", "undecided")} == {
        CHECK: "fail"
    }
