"""`toolproof run` of the installed suite in a subprocess, against a fauxmplementation (the precision
self-tests' one driver)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

FAUX = Path(__file__).resolve().parent.parent / "fauxmplementations"


def toolproof_run(tmp_path: Path, candidate: str, *pytest_args: str) -> tuple[int, dict[str, Any]]:
    """Run the suite against `candidate` (a `py:` spec importable from tests/fauxmplementations);
    (exit status, JSON report). A run that wrote no report fails here, with its output."""
    report_path = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from toolproof.tools.cli import main; sys.exit(main())",
            "run",
            "--candidate",
            candidate,
            "--",
            "--report-json",
            str(report_path),
            "-q",
            *pytest_args,
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(FAUX)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert report_path.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return done.returncode, json.loads(report_path.read_text(encoding="utf-8"))
