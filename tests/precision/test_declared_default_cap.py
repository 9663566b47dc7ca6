"""No test depends on the declared default cap unless it tests that default (issue 13 §2).

A runtime whose default cap is 1 is legitimate; before, eleven of one runtime's failures came from
tests needing two to four tool rounds under that default. The reference declaring a default of 1
must pass the whole suite exactly as the reference does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from toolproof.report import exitcodes

FAUX = Path(__file__).resolve().parent.parent / "fauxmplementations"


def test_the_reference_with_a_default_cap_of_one_passes_the_whole_suite(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from toolproof.tools.cli import main; sys.exit(main())",
            "run",
            "--candidate",
            "py:reference_cap_one:reference_cap_one",
            "--",
            "--report-json",
            str(report_path),
            "--hypothesis-profile=ci",
            "-q",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(FAUX)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["candidate"]["hello"]["options"]["default_max_tool_turns"] == 1
    not_green = sorted(row["id"] for row in report["checks"] if row["status"] in ("fail", "undecided"))
    assert (done.returncode, not_green) == (exitcodes.OK, []), done.stdout[-3000:]
