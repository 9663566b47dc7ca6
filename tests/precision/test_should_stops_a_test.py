"""A SHOULD check that stops its test (the build or run it pins ended ok false) fails that SHOULD
only: the run exits 0 without --toolproof-strict, as for any failed SHOULD, and 1 with it; never
"pytest reported status 1 outside any check" (Haystack 3.4.1 refusing the Gemini-style schema).

The runtime is the reference with control `wire-invalid-server-schema-refused` applied (it refuses a
tool whose inputSchema names an upper-case type), judged on the one test of that SHOULD.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolproof.controls.control import materialize
from toolproof.report import exitcodes

CHECK = "wire.upper-case-types-repaired"


def run_refusing(tmp_path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    """(exit status, JSON report) of the SHOULD's test against the refusing reference copy."""
    control = importlib.import_module(
        "toolproof.negative_controls.wire_invalid_server_schema_refused"
    ).CONTROL
    workdir = materialize(control, tmp_path / "copy")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from toolproof.tools.cli import main; sys.exit(main())",
            "run",
            "--candidate",
            "py:candidates.reference.adapter:reference",
            "--",
            "--report-json",
            str(report),
            "-q",
            "--toolproof-checks",
            CHECK,
            *extra,
        ],
        cwd=workdir,
        env={**os.environ, "PYTHONPATH": str(workdir)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert report.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    assert data["candidate"]["origin"].startswith(str(workdir)), data["candidate"]["origin"]
    return done.returncode, data


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
