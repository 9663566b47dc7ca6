"""Run the baseline and every negative control; write the kill matrix; gate on it.

named mode: each control runs only the tests hosting the checks it names (CI).
full mode: each control runs the whole suite, so undeclared collateral shows.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolproof.controls.control import (
    Control,
    StaleControl,
    all_controls,
    candidate_spec,
    declared_kills,
    materialize,
    materialize_toolproof,
    provenance_counts,
)
from toolproof.controls.forkserver import ForkServer, await_status
from toolproof.controls.killmatrix import render_markdown
from toolproof.invocation import suite_pytest_args
from toolproof.judge.catalog import load_catalog
from toolproof.report import traceability

RUN_TIMEOUT = 900.0


_FORK_SERVER = ForkServer() if hasattr(os, "fork") else None


def _pytest(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, float | None]:
    """`python -m pytest args` in `cwd` with `env`: its exit status, output and CPU seconds where known
    (TimeoutExpired after RUN_TIMEOUT). Forked from the preloaded server where the platform can fork."""
    if _FORK_SERVER is None:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        return done.returncode, done.stdout + done.stderr, None
    output, status = cwd / "pytest-output.txt", cwd / "pytest-status.txt"
    request = {"args": args, "cwd": str(cwd), "env": env, "output": str(output), "status": str(status)}
    pid = _FORK_SERVER.fork(request)
    ended = await_status(pid, status, RUN_TIMEOUT, signal.SIGKILL, ["pytest", *args])
    text = output.read_text(encoding="utf-8", errors="replace") if output.exists() else ""
    if ended is None:
        return -1, f"the forked pytest run died without an exit status\n{text}", None
    return int(ended["exit"]), text, float(ended["cpu_seconds"])


@dataclass(frozen=True)
class SuiteRun:
    """One pytest run of the suite against a (possibly patched) reference copy."""

    label: str
    exit_status: int
    checks: dict[str, dict[str, Any]]
    error: str | None
    seconds: float = 0.0
    #: CPU time of the pytest run and its subprocesses, where known (forked runs): wall time on a
    #: shared machine says little.
    cpu_seconds: float | None = None


def _timed(run: Any, *args: Any) -> SuiteRun:
    """Call `run(*args)` and keep its wall time on the SuiteRun (reported, for finding slow controls)."""
    start = time.monotonic()
    result: SuiteRun = run(*args)
    return replace(result, seconds=round(time.monotonic() - start, 1))


def _suite_run(
    label: str, control: Control | None, profile: str, checks: set[str] | None, transport: str = "py"
) -> SuiteRun:
    with tempfile.TemporaryDirectory(prefix=f"toolproof-{label}-") as tmp:
        workdir = Path(tmp)
        try:
            materialize(control, workdir)
        except StaleControl as exc:
            return SuiteRun(label, -1, {}, str(exc))
        report = workdir / "report.json"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(workdir), os.environ.get("PYTHONPATH", "")])}
        command = [
            *suite_pytest_args(),
            "-q",
            f"--candidate={candidate_spec(profile, transport)}",
            "--report-json",
            str(report),
            f"--toolproof-cwd={workdir}",
        ]
        if checks:
            command += ["--toolproof-checks", ",".join(sorted(checks))]
            if control is not None and control.select:
                command += ["-k", control.select]
        if control is not None:
            command += list(control.pytest_args)
        try:
            returncode, output, cpu = _pytest(command, workdir, env)
        except subprocess.TimeoutExpired:
            return SuiteRun(label, -1, {}, f"timed out after {RUN_TIMEOUT:g} s")
        except (OSError, RuntimeError, ValueError) as exc:  # the fork server is gone, a status unreadable
            return SuiteRun(label, -1, {}, f"pytest could not be run: {exc!r}")
        if not report.exists():
            tail = output[-3000:]
            return SuiteRun(label, returncode, {}, f"no report written (exit {returncode}):\n{tail}")
        data = json.loads(report.read_text(encoding="utf-8"))
        origin = data["candidate"].get("origin", "")
        # cmd: runs `python -m candidates...` with the copy as cwd, which Python puts first on sys.path.
        if transport == "py" and not origin.startswith(str(workdir)):
            # Without this the control would silently run against the unpatched reference.
            return SuiteRun(label, -1, {}, f"the candidate was not loaded from the patched copy: {origin!r}")
        return SuiteRun(label, returncode, {c["id"]: c for c in data["checks"]}, None, cpu_seconds=cpu)


def _verdict(control: Control, run: SuiteRun, full: bool) -> dict[str, Any]:
    cells: dict[str, str] = {}
    for check_id in control.kills:
        row = run.checks.get(check_id)
        if row is None:
            cells[check_id] = "not-run"
        elif row["status"] == "fail" and row["side"] == load_catalog().check(check_id).side:
            cells[check_id] = "killed"
        elif row["status"] == "fail":
            cells[check_id] = f"wrong-reason:{row['side']}"
        else:
            cells[check_id] = "survived"
    collateral = sorted(
        c for c, row in run.checks.items() if row["status"] == "fail" and c not in control.kills
    )
    undeclared = [c for c in collateral if c not in control.collateral] if full else []
    ok = run.error is None and all(v == "killed" for v in cells.values()) and not undeclared
    return {
        "name": control.name,
        "bug": control.bug,
        "source": control.source,
        "provenance": control.provenance,
        "profile": control.profile,
        "transport": control.transport,
        "kills": list(control.kills),
        "cells": cells,
        "collateral": collateral,
        "undeclared_collateral": undeclared,
        "error": run.error,
        "ok": ok,
        "seconds": run.seconds,
        "cpu_seconds": run.cpu_seconds,
        "messages": {c: (run.checks.get(c) or {}).get("message", "")[:400] for c in control.kills},
    }


# -- controls that patch the suite/harness itself (target "toolproof") -------------------


def _harness_command(runs: str, workdir: Path, out: Path) -> list[str]:
    if runs == "selftest":
        return [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "toolproof.plugin",  # the suite modules the probes wrap carry its markers
            "--pyargs",
            "toolproof.selftest",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "-q",
            f"--junitxml={out}",
        ]
    if runs == "lint":
        return [sys.executable, "-m", "toolproof.lint", "--json", str(workdir / "toolproof" / "conformance")]
    raise ValueError(f"unknown harness run {runs!r}")


def _selftest_rows(junit: Path) -> dict[str, dict[str, Any]]:
    """`selftest:<test name>` -> status, and side "assertion" (a verdict) or "error" (a crash)."""
    rows: dict[str, dict[str, Any]] = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        failure, error = case.find("failure"), case.find("error")
        if failure is not None:
            message = failure.get("message") or ""
            side = "assertion" if message.startswith("AssertionError") else "error"
            rows[f"selftest:{case.get('name')}"] = {"status": "fail", "side": side, "message": message[:400]}
        elif error is not None:
            rows[f"selftest:{case.get('name')}"] = {
                "status": "fail",
                "side": "error",
                "message": (error.get("message") or "")[:400],
            }
        else:
            rows[f"selftest:{case.get('name')}"] = {"status": "pass", "side": "assertion", "message": ""}
    return rows


def _lint_rows(findings: list[dict[str, Any]], workdir: Path) -> dict[str, dict[str, Any]]:
    """`lint:<rule>:<file under toolproof/>` -> how many findings, and where."""
    rows: dict[str, dict[str, Any]] = {}
    package = workdir / "toolproof"
    for finding in findings:
        where = Path(finding["path"]).resolve().relative_to(package.resolve()).as_posix()
        row = rows.setdefault(f"lint:{finding['rule']}:{where}", {"count": 0, "message": ""})
        row["count"] += 1
        row["message"] += f"{where}:{finding['line']}: {finding['message']}\n"
    return rows


def _harness_run(label: str, control: Control | None, runs: str) -> SuiteRun:
    """Run the selftest or the lint against a (possibly patched) copy of the toolproof package."""
    with tempfile.TemporaryDirectory(prefix=f"toolproof-{label}-") as tmp:
        workdir = Path(tmp)
        try:
            materialize_toolproof(control, workdir)
        except StaleControl as exc:
            return SuiteRun(label, -1, {}, str(exc))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(workdir), os.environ.get("PYTHONPATH", "")])}
        origin = subprocess.run(
            [sys.executable, "-c", "import toolproof; print(toolproof.__file__)"],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if not origin.startswith(str(workdir)):
            # Without this the control would silently judge the unpatched package.
            return SuiteRun(label, -1, {}, f"toolproof was not loaded from the patched copy: {origin!r}")
        out = workdir / "selftest.xml"
        try:
            done = subprocess.run(
                _harness_command(runs, workdir, out),
                cwd=workdir,
                env=env,
                capture_output=True,
                text=True,
                timeout=RUN_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return SuiteRun(label, -1, {}, f"timed out after {RUN_TIMEOUT:g} s")
        tail = (done.stdout + done.stderr)[-3000:]
        if runs == "selftest":
            if not out.exists():
                return SuiteRun(
                    label, done.returncode, {}, f"no junit report (exit {done.returncode}):\n{tail}"
                )
            return SuiteRun(label, done.returncode, _selftest_rows(out), None)
        if done.returncode not in (0, 1):
            return SuiteRun(
                label, done.returncode, {}, f"the lint could not run (exit {done.returncode}):\n{tail}"
            )
        return SuiteRun(label, done.returncode, _lint_rows(json.loads(done.stdout), workdir), None)


def _harness_cell(control: Control, check_id: str, run: SuiteRun, baseline: SuiteRun) -> str:
    row = run.checks.get(check_id)
    if control.runs == "lint":
        before = (baseline.checks.get(check_id) or {}).get("count", 0)
        return "killed" if row is not None and row["count"] > before else "survived"
    if row is None:
        return "not-run"
    if row["status"] == "fail" and row["side"] == "assertion":
        return "killed"
    return f"wrong-reason:{row['side']}" if row["status"] == "fail" else "survived"


def _harness_verdict(control: Control, run: SuiteRun, baseline: SuiteRun, full: bool) -> dict[str, Any]:
    cells = {check_id: _harness_cell(control, check_id, run, baseline) for check_id in control.kills}
    if control.runs == "lint":
        grew = {
            c for c, row in run.checks.items() if row["count"] > baseline.checks.get(c, {}).get("count", 0)
        }
    else:
        grew = {c for c, row in run.checks.items() if row["status"] == "fail"}
    collateral = sorted(grew - set(control.kills))
    undeclared = [c for c in collateral if c not in control.collateral] if full else []
    ok = run.error is None and baseline.error is None and all(v == "killed" for v in cells.values())
    return {
        "name": control.name,
        "bug": control.bug,
        "source": control.source,
        "provenance": control.provenance,
        "profile": control.profile,
        "transport": control.transport,
        "target": control.target,
        "runs": control.runs,
        "kills": list(control.kills),
        "cells": cells,
        "collateral": collateral,
        "undeclared_collateral": undeclared,
        "error": run.error,
        "ok": ok and not undeclared,
        "seconds": run.seconds,
        "cpu_seconds": run.cpu_seconds,
        "messages": {c: (run.checks.get(c) or {}).get("message", "")[:400] for c in control.kills},
    }


def _harness_baseline(run: SuiteRun, runs: str) -> dict[str, Any]:
    if runs == "lint":
        failing = sorted(c for c, row in run.checks.items() if row["count"])
        return {
            "error": run.error,
            "failing": failing,
            "checks": len(run.checks),
            "green": run.error is None and not failing,
            "seconds": run.seconds,
        }
    failing = sorted(c for c, row in run.checks.items() if row["status"] == "fail")
    green = run.error is None and not failing and bool(run.checks)
    return {
        "error": run.error,
        "failing": failing,
        "checks": len(run.checks),
        "green": green,
        "seconds": run.seconds,
    }


def _previous_seconds(out_dir: Path, mode: str) -> dict[str, float]:
    """Each run's wall time in the last report of this mode under out_dir (keys as in `main`'s jobs)."""
    try:
        data = json.loads((out_dir / "controls.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("mode") != mode:
        return {}
    seconds = {f"baseline:{k}": float(b.get("seconds", 0.0)) for k, b in data.get("baselines", {}).items()}
    seconds.update({str(c["name"]): float(c.get("seconds", 0.0)) for c in data.get("controls", [])})
    return seconds


def main(*, mode: str = "named", jobs: int = 2, only: list[str] | None = None, out_dir: Path) -> int:
    """Run everything, write controls.json/controls.md under out_dir, return the exit status."""
    selected = [c for c in all_controls() if not only or c.name in only]
    if only and len(selected) != len(set(only)):
        print(f"toolproof controls: unknown control in {only}", file=sys.stderr)
        return 2
    full = mode == "full"
    controls = [c for c in selected if c.target == "reference"]
    harness = [c for c in selected if c.target != "reference"]
    # One baseline per (profile, transport) that some control uses: a control is judged
    # against the same candidate shape, unpatched.
    targets = sorted({(c.profile, c.transport) for c in controls} | {("reference", "py")})
    if harness and not controls:
        targets = []  # only suite/harness controls were asked for: no reference run to compare with
    named: dict[tuple[str, str], set[str]] = {t: set() for t in targets}
    for control in controls:
        named[(control.profile, control.transport)].update(control.kills)
    kinds = sorted({c.runs for c in harness})
    jobs_to_run: list[tuple[str, Callable[..., SuiteRun], tuple[Any, ...]]] = [
        (f"baseline:toolproof:{k}", _harness_run, (f"baseline-conformance-{k}", None, k)) for k in kinds
    ]
    jobs_to_run += [(c.name, _harness_run, (c.name, c, c.runs)) for c in harness]
    jobs_to_run += [
        (
            f"baseline:{p}@{t}",
            _suite_run,
            (f"baseline-{p}-{t}", None, p, None if full else (named[(p, t)] or None), t),
        )
        for p, t in targets
    ]
    jobs_to_run += [
        (c.name, _suite_run, (c.name, c, c.profile, None if full else set(c.kills), c.transport))
        for c in controls
    ]
    # Longest first (by the last report of this mode; new runs before all), so that no long run
    # starts last and leaves the other worker idle.
    previous = _previous_seconds(out_dir, mode)
    jobs_to_run.sort(key=lambda job: -previous.get(job[0], math.inf))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {key: pool.submit(_timed, run, *args) for key, run, args in jobs_to_run}
        results = {key: future.result() for key, future in futures.items()}
    if _FORK_SERVER is not None:
        _FORK_SERVER.close()
    bases = {k: results[f"baseline:toolproof:{k}"] for k in kinds}
    harness_baselines = {f"toolproof:{k}": _harness_baseline(run, k) for k, run in bases.items()}
    harness_verdicts = [_harness_verdict(c, results[c.name], bases[c.runs], full) for c in harness]
    baselines = {f"{p}@{t}": results[f"baseline:{p}@{t}"] for p, t in targets}
    runs = {c.name: results[c.name] for c in controls}
    baseline_out = {}
    for profile, run in baselines.items():
        failing = sorted(c for c, row in run.checks.items() if row["status"] == "fail")
        baseline_out[profile] = {
            "error": run.error,
            "failing": failing,
            "checks": len(run.checks),
            "green": run.error is None and not failing and bool(run.checks),
            "seconds": run.seconds,
            "cpu_seconds": run.cpu_seconds,
        }
    verdicts = [_verdict(c, runs[c.name], full) for c in controls]
    baseline_out.update(harness_baselines)
    verdicts += harness_verdicts
    catalog = load_catalog()
    killed = {check for v in verdicts for check, cell in v["cells"].items() if cell == "killed"}
    unproven = sorted(
        r.id for r in catalog.requirements.values() if r.level == "MUST" and not set(r.checks) & killed
    )
    ok = all(b["green"] for b in baseline_out.values()) and all(v["ok"] for v in verdicts)
    # A MUST requirement no control proves is a defect; judged only when every control ran.
    if not only and unproven:
        print(f"toolproof controls: MUST requirements no control kills: {unproven}", file=sys.stderr)
        ok = False
    result = {
        "mode": mode,
        "ok": ok,
        "baselines": baseline_out,
        "controls": verdicts,
        "provenance": provenance_counts(selected),
        "unproven_must_requirements": unproven,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "controls.json").write_text(
        json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    table = traceability.build(declared_kills(), result)
    (out_dir / "traceability.md").write_text(traceability.render_markdown(table), encoding="utf-8")
    (out_dir / "traceability.json").write_text(
        json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    markdown = render_markdown(result)
    (out_dir / "controls.md").write_text(markdown, encoding="utf-8")
    print(markdown)
    return 0 if ok else 1
