"""`toolproof bench` (`tox -e bench`): a benchmark, not a timed test.

Measures, and writes to reports/bench.json: the conformance suite's wall time
on `reference` in-process and over `cmd:` (and their ratio) and on
`reference-stream` (every model request streamed), how that time splits
between the candidate and the harness, the negative controls (named
mode; full mode on request, else carried over from the previous bench.json),
the mutation run (read from reports/mutation.json) and the peak RSS of the
largest child process of each phase.

This module is also a pytest plugin, loaded only by the bench
(`-p toolproof.tools.bench` with TOOLPROOF_BENCH_DIR set): it times every
protocol request (`Candidate._send`: the harness waiting for the candidate)
and every HTTP request the fakes answer, per process, and writes one JSON per
pytest process. Without that flag nothing here is imported, so the
instrumentation costs nothing in ordinary runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolproof.invocation import suite_pytest_args

if TYPE_CHECKING:  # the CLI imports this module to build its parser: keep pytest out of that path
    import pytest

ENV_DIR = "TOOLPROOF_BENCH_DIR"
QUIET_LOAD = 3.0
TARGETS = {
    "conformance_inprocess_s": 60.0,
    "cmd_over_inprocess_ratio": 1.3,
    "harness_share": 0.10,
    "controls_named_s": 180.0,
    "mutation_s": 1200.0,
    "peak_rss_mb": 300.0,
}

# ---------------------------------------------------------------- the plugin side


class _Timers:
    """Per-process accumulators (one pytest process: the controller or one xdist worker)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.requests: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        self.fakes: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        self.process_starts = 0
        self.phases: dict[str, float] = defaultdict(float)
        self.tests: dict[str, float] = defaultdict(float)
        self.first_test: float | None = None
        self.rss_growth: dict[str, float] = {}
        self.last_rss = _maxrss_mb()

    def add(self, table: dict[str, list[float]], key: str, seconds: float) -> None:
        entry = table[key]
        entry[0] += 1
        entry[1] += seconds


_TIMERS: _Timers | None = None


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _instrument(timers: _Timers) -> None:
    from toolproof.connect import stdio
    from toolproof.connect.candidate import Candidate
    from toolproof.fakes import http_thread

    send = Candidate._send

    def timed_send(self: Candidate, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            return send(self, message, timeout)
        finally:
            timers.add(timers.requests, str(message.get("op")), time.perf_counter() - started)

    Candidate._send = timed_send  # type: ignore[method-assign]

    server_init = http_thread.ThreadedServer.__init__

    def timed_init(self: http_thread.ThreadedServer, app: Any, name: str, **kwargs: Any) -> None:
        async def timed_app(scope: Any, receive: Any, send: Any) -> object:
            if scope.get("type") != "http":
                return await app(scope, receive, send)
            started = time.perf_counter()
            try:
                return await app(scope, receive, send)
            finally:
                timers.add(timers.fakes, f"{name} {scope.get('method')}", time.perf_counter() - started)

        server_init(self, timed_app, name, **kwargs)

    http_thread.ThreadedServer.__init__ = timed_init  # type: ignore[method-assign]

    start = stdio.StdioConnection._start

    def counted_start(self: stdio.StdioConnection) -> Any:
        timers.process_starts += 1
        return start(self)

    stdio.StdioConnection._start = counted_start  # type: ignore[method-assign]


def pytest_configure(config: pytest.Config) -> None:
    """Install the timers when the bench asked for them (TOOLPROOF_BENCH_DIR)."""
    global _TIMERS
    if os.environ.get(ENV_DIR) and _TIMERS is None:
        _TIMERS = _Timers()
        _instrument(_TIMERS)


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Mark the end of startup and collection (the first test starts)."""
    if _TIMERS is not None and _TIMERS.first_test is None:
        _TIMERS.first_test = time.perf_counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Time per test phase (setup/call/teardown) and per test."""
    if _TIMERS is not None:
        _TIMERS.phases[report.when] += report.duration
        # With --pyargs and importlib the node id can lose its path: name the module.
        name = (
            report.nodeid
            if not report.nodeid.startswith("::")
            else Path(report.location[0]).stem + report.nodeid
        )
        _TIMERS.tests[name] += report.duration
        if report.when == "teardown":
            rss = _maxrss_mb()
            if rss > _TIMERS.last_rss:
                _TIMERS.rss_growth[name] = rss - _TIMERS.last_rss
            _TIMERS.last_rss = rss


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write this process's timings to TOOLPROOF_BENCH_DIR/<worker>.json."""
    if _TIMERS is None:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    data = {
        "worker": worker,
        "session_s": time.perf_counter() - _TIMERS.started,
        "before_first_test_s": (_TIMERS.first_test or _TIMERS.started) - _TIMERS.started,
        "requests": dict(_TIMERS.requests),
        "fakes": dict(_TIMERS.fakes),
        "process_starts": _TIMERS.process_starts,
        "phases": dict(_TIMERS.phases),
        "tests": dict(_TIMERS.tests),
        "maxrss_mb": _maxrss_mb(),
        "rss_growth_mb": dict(sorted(_TIMERS.rss_growth.items(), key=lambda kv: -kv[1])[:10]),
    }
    out = Path(os.environ[ENV_DIR])
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{worker}.json").write_text(json.dumps(data), encoding="utf-8")


# ---------------------------------------------------------------- the driver side


def run_measured(command: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run `command`; wall seconds, exit code and peak RSS (MB) of the largest process in its tree."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        # wait4 reports the child's maxrss folded with its waited-for descendants' (xdist workers).
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        log.seek(0)
        tail = log.read().decode("utf-8", "replace").splitlines()[-3:]
    return {
        "command": shlex.join(command),
        "exit": proc.returncode,
        "wall_s": round(wall, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "tail": tail,
    }


def summarize_timings(directory: Path, wall: float) -> dict[str, Any]:
    """Fold the per-process JSONs: candidate wait vs harness, fakes, phases, slowest tests."""
    workers = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.json"))]
    workers = [w for w in workers if w["requests"]] or workers
    busy = sum(w["session_s"] for w in workers)
    requests: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    fakes: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    phases: dict[str, float] = defaultdict(float)
    tests: dict[str, float] = defaultdict(float)
    for w in workers:
        for table, into in ((w["requests"], requests), (w["fakes"], fakes)):
            for key, (count, seconds) in table.items():
                into[key][0] += count
                into[key][1] += seconds
        for key, seconds in w["phases"].items():
            phases[key] += seconds
        for key, seconds in w["tests"].items():
            tests[key] += seconds
    waiting = sum(s for _, s in requests.values())
    in_fakes = sum(s for key, (_, s) in fakes.items() if not key.endswith(" GET"))
    slowest = sorted(tests.items(), key=lambda kv: -kv[1])[:20]
    return {
        "wall_s": round(wall, 2),
        "worker_busy_s": round(busy, 2),
        "workers": len(workers),
        "candidate_wait_s": round(waiting, 2),
        "harness_s": round(busy - waiting, 2),
        "harness_share": round((busy - waiting) / busy, 3) if busy else None,
        "fakes_answering_s": round(in_fakes, 2),
        "candidate_own_s": round(waiting - in_fakes, 2),
        "outside_worker_sessions_s": round(wall - max((w["session_s"] for w in workers), default=0.0), 2),
        "worker_collection_s": round(sum(w.get("before_first_test_s", 0.0) for w in workers), 2),
        "requests": {k: {"count": int(c), "s": round(s, 2)} for k, (c, s) in sorted(requests.items())},
        "fakes": {k: {"count": int(c), "s": round(s, 2)} for k, (c, s) in sorted(fakes.items())},
        "process_starts": sum(int(w["process_starts"]) for w in workers),
        "phases_s": {k: round(v, 2) for k, v in sorted(phases.items())},
        "slowest_tests_s": {k: round(v, 2) for k, v in slowest},
        "worker_maxrss_mb": [round(w.get("maxrss_mb", 0.0), 1) for w in workers],
        "rss_growth_by_test_mb": {
            k: round(v, 1)
            for w in workers
            for k, v in sorted(w.get("rss_growth_mb", {}).items(), key=lambda kv: -kv[1])[:5]
        },
    }


def suite_command(candidate: str, jobs: int, report: Path) -> list[str]:
    """The conformance run the bench times (as `tox -e conformance` runs it)."""
    command = [sys.executable, "-m", "pytest", *suite_pytest_args()]
    command += ["-q", "-p", "toolproof.tools.bench"]
    command += ["-n", str(jobs)] if jobs > 1 else ["-p", "no:xdist"]
    return [*command, f"--candidate={candidate}", "--report-json", str(report)]


def bench_suite(candidate: str, jobs: int, scratch: Path, label: str) -> dict[str, Any]:
    """One timed, instrumented conformance run."""
    timings = scratch / f"timings-{label}"
    env = {**os.environ, ENV_DIR: str(timings)}
    measured = run_measured(suite_command(candidate, jobs, scratch / f"{label}.json"), env)
    measured.update(summarize_timings(timings, measured["wall_s"]))
    measured["candidate"] = candidate
    return measured


def _verdicts(result: dict[str, Any]) -> dict[str, Any]:
    def within(key: str, value: float | None) -> dict[str, Any] | None:
        if value is None:
            return None
        return {"value": value, "target": TARGETS[key], "met": value <= TARGETS[key]}

    conf = result.get("conformance", {})
    inproc, cmd = conf.get("inprocess", {}), conf.get("cmd", {})
    controls = result.get("controls", {})
    rss = [p.get("peak_rss_mb") for p in (inproc, cmd, controls.get("named", {})) if p.get("peak_rss_mb")]
    return {
        "conformance_inprocess_s": within("conformance_inprocess_s", inproc.get("wall_s")),
        "cmd_over_inprocess_ratio": within("cmd_over_inprocess_ratio", conf.get("cmd_over_inprocess")),
        "harness_share": within("harness_share", inproc.get("harness_share")),
        "controls_named_s": within("controls_named_s", controls.get("named", {}).get("wall_s")),
        "mutation_s": within("mutation_s", result.get("mutation", {}).get("duration_s")),
        "peak_rss_mb": within("peak_rss_mb", max(rss) if rss else None),
    }


def _mutation_summary(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"note": f"{path} missing: run `tox -e mutation`"}
    report = json.loads(path.read_text(encoding="utf-8"))
    # A report merged with `--rerun`s sums every run's time: the run from scratch is the figure,
    # and its passes are the first ones (one per candidate); the reruns are listed beside it.
    runs = report.get("runs", [])
    full = next((run for run in runs if run.get("run") == "full"), None)
    passes = report.get("passes", [])[: len(report.get("candidates", [])) or None]
    return {
        "duration_s": full["duration_s"] if full else report["duration_s"],
        "generated_at": full["generated_at"] if full else report["generated_at"],
        "max_children": report["max_children"],
        "load_at_start": report.get("machine", {}).get("load_at_start"),
        "passes": {p["candidate"]: p["duration_s"] for p in passes},
        "reruns": [
            {key: run.get(key) for key in ("generated_at", "mutants_run", "duration_s")}
            for run in runs
            if run.get("run") != "full"
        ],
        "score_percent": report["score"]["percent"],
    }


def run_bench(args: argparse.Namespace, previous: dict[str, Any]) -> dict[str, Any]:
    """Every phase the options ask for; returns the bench document."""
    root = Path(args.root).resolve()
    result: dict[str, Any] = {
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "load_at_start": [round(x, 2) for x in os.getloadavg()]},
        "jobs": args.jobs,
    }
    step: Callable[[str], None] = lambda what: print(f"bench: {what}", flush=True)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="toolproof-bench-") as tmp:
        scratch = Path(tmp)
        step("conformance in-process (reference)")
        inproc = bench_suite("reference", args.jobs, scratch, "inprocess")
        step("conformance over cmd:")
        cmd = bench_suite("cmd:{python} -m toolproof.candidates.reference.adapter", args.jobs, scratch, "cmd")
        step("conformance in-process, streamed (reference-stream)")
        streamed = bench_suite("reference-stream", args.jobs, scratch, "streamed")
        result["conformance"] = {
            "inprocess": inproc,
            "cmd": cmd,
            "streamed": streamed,
            "cmd_over_inprocess": round(cmd["wall_s"] / inproc["wall_s"], 2) if inproc["wall_s"] else None,
            "streamed_over_inprocess": (
                round(streamed["wall_s"] / inproc["wall_s"], 2) if inproc["wall_s"] else None
            ),
        }
        if args.single:
            step("conformance in-process, one process (no xdist)")
            result["conformance"]["inprocess_single"] = bench_suite("reference", 1, scratch, "single")
        controls: dict[str, Any] = {}
        if not args.skip_controls:
            step("controls --mode named")
            named = [sys.executable, "-m", "toolproof.tools.cli", "controls", "--mode", "named"]
            controls["named"] = run_measured(
                [*named, "--jobs", str(args.jobs), "--out-dir", str(scratch / "cn")]
            )
        if args.controls_full:
            step("controls --mode full (long)")
            full = [sys.executable, "-m", "toolproof.tools.cli", "controls", "--mode", "full"]
            controls["full"] = run_measured(
                [*full, "--jobs", str(args.jobs), "--out-dir", str(scratch / "cf")]
            )
            controls["full"]["measured_at"] = result["generated_at"]
        elif "full" in previous.get("controls", {}):
            controls["full"] = {**previous["controls"]["full"], "carried_over": True}
        result["controls"] = controls
    result["mutation"] = _mutation_summary(root / "reports" / "mutation.json")
    result["machine"]["load_at_end"] = [round(x, 2) for x in os.getloadavg()]
    result["quiet"] = (
        max(result["machine"]["load_at_start"][0], result["machine"]["load_at_end"][0]) < QUIET_LOAD
    )
    result["targets"] = _verdicts(result)
    return result


def render(result: dict[str, Any]) -> str:
    """The lines `toolproof bench` prints."""
    lines = [
        f"bench {result['generated_at']} load {result['machine']['load_at_start']} ->"
        f" {result['machine']['load_at_end']}"
        f" ({'quiet' if result['quiet'] else 'NOT quiet: numbers not meaningful'})"
    ]
    for name, target in result["targets"].items():
        if target is None:
            lines.append(f"  {name}: not measured")
        else:
            mark = "ok  " if target["met"] else "MISS"
            lines.append(f"  {mark} {name}: {target['value']} (target <= {target['target']})")
    inproc = result.get("conformance", {}).get("inprocess")
    if inproc:
        lines.append(
            f"  in-process: wall {inproc['wall_s']} s, workers busy {inproc['worker_busy_s']} s,"
            f" waiting for the candidate {inproc['candidate_wait_s']} s"
            f" (of which the fakes answering {inproc['fakes_answering_s']} s),"
            f" harness {inproc['harness_s']} s,"
            f" outside worker sessions {inproc['outside_worker_sessions_s']} s"
        )
    streamed = result.get("conformance", {}).get("streamed")
    if streamed:
        lines.append(
            f"  streamed (reference-stream): wall {streamed['wall_s']} s,"
            f" waiting for the candidate {streamed['candidate_wait_s']} s,"
            f" harness {streamed['harness_s']} s"
        )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`toolproof bench` options."""
    parser.add_argument("--root", default=".", help="project root (reports/mutation.json is read from it)")
    parser.add_argument("--out", default="reports/bench.json")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--controls-full", action="store_true", help="also time `controls --mode full` (long)"
    )
    parser.add_argument("--skip-controls", action="store_true")
    parser.add_argument("--single", action="store_true", help="also time one in-process run without xdist")
    parser.add_argument(
        "--force", action="store_true", help=f"run even when the 1-min load is >= {QUIET_LOAD}"
    )


def main(args: argparse.Namespace) -> int:
    """Run the bench and write the JSON; 0 even when a target is missed (a benchmark, not a test)."""
    load = os.getloadavg()[0]
    if load >= QUIET_LOAD and not args.force:
        print(
            f"bench: the machine is busy (1-min load {load:.1f} >= {QUIET_LOAD}): numbers would not be"
            " meaningful; rerun when quiet, or pass --force (the result is then marked not quiet)"
        )
        return 0
    out = Path(args.out)
    previous = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    result = run_bench(args, previous)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(render(result))
    print(f"bench: wrote {out}")
    return 0
