"""`toolproof bench`: folding per-process timings, target verdicts, peak RSS of a child tree."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from toolproof.tools import bench


def _worker(directory: Path, name: str, session: float, run_s: float, fakes_post: float) -> None:
    data = {
        "worker": name,
        "session_s": session,
        "requests": {"hello": [1, 0.5], "run": [10, run_s]},
        "fakes": {"model POST": [12, fakes_post], "mcp GET": [2, 30.0]},
        "process_starts": 1,
        "phases": {"setup": 1.0, "call": session - 2.0, "teardown": 1.0},
        "tests": {f"test_{name}_slow": 4.0, f"test_{name}_fast": 0.25},
    }
    (directory / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")


def test_timings_fold_across_workers(tmp_path: Path) -> None:
    _worker(tmp_path, "gw0", session=20.0, run_s=15.5, fakes_post=3.0)
    _worker(tmp_path, "gw1", session=10.0, run_s=7.5, fakes_post=1.0)
    # The controller of an xdist run talks to no candidate: it is left out of the split.
    controller = {"worker": "controller", "session_s": 25.0, "requests": {}, "fakes": {}, "process_starts": 0}
    (tmp_path / "controller.json").write_text(json.dumps({**controller, "phases": {}, "tests": {}}), "utf-8")
    summary = bench.summarize_timings(tmp_path, wall=24.0)
    assert summary["workers"] == 2
    assert summary["worker_busy_s"] == 30.0
    assert summary["candidate_wait_s"] == 24.0  # 0.5 + 15.5 + 0.5 + 7.5
    assert summary["harness_s"] == 6.0
    assert summary["harness_share"] == 0.2
    assert summary["fakes_answering_s"] == 4.0  # GET streams stay open for a session: not counted
    assert summary["candidate_own_s"] == 20.0
    assert summary["outside_worker_sessions_s"] == 4.0
    assert summary["requests"] == {"hello": {"count": 2, "s": 1.0}, "run": {"count": 20, "s": 23.0}}
    assert summary["process_starts"] == 2
    assert list(summary["slowest_tests_s"])[:2] == ["test_gw0_slow", "test_gw1_slow"]


def test_targets_compare_each_measure_with_its_budget() -> None:
    result = {
        "conformance": {
            "inprocess": {"wall_s": 50.0, "harness_share": 0.12, "peak_rss_mb": 250.0},
            "cmd": {"wall_s": 70.0, "peak_rss_mb": 310.0},
            "cmd_over_inprocess": 1.4,
        },
        "controls": {"named": {"wall_s": 170.0, "peak_rss_mb": 200.0}},
        "mutation": {"duration_s": 1300.0},
    }
    verdicts = bench._verdicts(result)
    assert {k: (v or {}).get("met") for k, v in verdicts.items()} == {
        "conformance_inprocess_s": True,
        "cmd_over_inprocess_ratio": False,
        "harness_share": False,
        "controls_named_s": True,
        "mutation_s": False,
        "peak_rss_mb": False,
    }
    assert verdicts["peak_rss_mb"] == {"value": 310.0, "target": 300.0, "met": False}


def test_run_measured_reports_the_largest_process_of_the_tree() -> None:
    # The grandchild allocates ~120 MB; the direct child stays small.
    grandchild = "b = bytearray(120 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096])"
    child = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {grandchild!r}], check=True)"
    measured = bench.run_measured([sys.executable, "-c", child])
    assert measured["exit"] == 0
    assert measured["peak_rss_mb"] > 120.0


def test_the_mutation_figure_is_the_run_from_scratch(tmp_path: Path) -> None:
    report = {
        "duration_s": 500.0,
        "generated_at": "2026-12-02T07:00:00+00:00",
        "max_children": 2,
        "machine": {"load_at_start": [1.0, 1.0, 1.0]},
        "candidates": ["reference", "reference-stream"],
        "passes": [
            {"candidate": "reference", "duration_s": 300.0},
            {"candidate": "reference-stream", "duration_s": 50.0},
            {"candidate": "reference", "duration_s": 120.0},
            {"candidate": "reference-stream", "duration_s": 30.0},
        ],
        "runs": [
            {
                "run": "full",
                "generated_at": "2026-12-02T06:00:00+00:00",
                "mutants_run": 9,
                "duration_s": 350.0,
            },
            {
                "run": "rerun",
                "generated_at": "2026-12-02T07:00:00+00:00",
                "mutants_run": 3,
                "duration_s": 150.0,
            },
        ],
        "score": {"percent": 97.5},
    }
    path = tmp_path / "mutation.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert bench._mutation_summary(path) == {
        "duration_s": 350.0,
        "generated_at": "2026-12-02T06:00:00+00:00",
        "max_children": 2,
        "load_at_start": [1.0, 1.0, 1.0],
        "passes": {"reference": 300.0, "reference-stream": 50.0},
        "reruns": [{"generated_at": "2026-12-02T07:00:00+00:00", "mutants_run": 3, "duration_s": 150.0}],
        "score_percent": 97.5,
    }
