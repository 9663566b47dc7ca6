"""`toolproof run` of the installed suite in a subprocess, against a fauxmplementation or the
reference with a negative control applied (the precision self-tests' one driver)."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

from toolproof.controls.control import candidate_spec, materialize
from toolproof.controls.forkserver import run_python

FAUX = Path(__file__).resolve().parent.parent / "fauxmplementations"
CLI = "import sys; from toolproof.tools.cli import main; sys.exit(main())"


def toolproof_run(
    tmp_path: Path, candidate: str, *pytest_args: str, root: Path | None = None
) -> tuple[int, dict[str, Any]]:
    """Run the suite against `candidate`, a `py:` spec importable from `root` (run from there) or, by
    default, from tests/fauxmplementations (run from tmp_path); (exit status, JSON report). A run
    that wrote no report fails here, with its output."""
    report_path = tmp_path / "report.json"
    # Forked from a preloaded interpreter (toolproof.controls.forkserver): a `python -c` of its own,
    # without the 3 s of imports.
    done = run_python(
        CLI,
        [
            "run",
            "--candidate",
            candidate,
            "--",
            "--report-json",
            str(report_path),
            "-q",
            *pytest_args,
        ],
        cwd=root or tmp_path,
        env={**os.environ, "PYTHONPATH": str(root or FAUX)},
        timeout=300,
    )
    assert report_path.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return done.returncode, json.loads(report_path.read_text(encoding="utf-8"))


def run_with_control(tmp_path: Path, name: str, *pytest_args: str) -> tuple[int, dict[str, Any]]:
    """Run the suite against the reference with negative control `name` applied (a patched copy
    under tmp_path); (exit status, JSON report)."""
    control = importlib.import_module(f"toolproof.negative_controls.{name}").CONTROL
    workdir = materialize(control, tmp_path / "copy")
    code, report = toolproof_run(tmp_path, candidate_spec(control.profile, "py"), *pytest_args, root=workdir)
    # Without this the run would silently judge the unpatched reference.
    assert report["candidate"]["origin"].startswith(str(workdir)), report["candidate"]["origin"]
    return code, report
