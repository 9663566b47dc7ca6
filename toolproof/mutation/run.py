"""A whole report run: the passes one after another, the diffs of the open mutants, the report document."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from toolproof.mutation.model import (
    FORMAT,
    KILLED,
    NO_TESTS,
    NOT_CHECKED,
    MutationError,
    best_status,
    function_of,
)
from toolproof.mutation.passes import (
    PassResult,
    _mutmut,
    check_resumable,
    prepare_workdir,
    resume_pass,
    run_pass,
)
from toolproof.mutation.scores import score, score_all, tally
from toolproof.mutation.settings import source_files, source_hash, tests_for


def show_diffs(workdir: Path, names: Iterable[str], jobs: int = 4) -> dict[str, str]:
    """`mutmut show NAME` for each name: the unified diff without mutmut's `# NAME: status` line."""

    def one(name: str) -> tuple[str, str]:
        text = _mutmut(workdir, "show", name)
        lines = text.splitlines()
        if lines and lines[0].startswith("# "):
            lines = lines[1:]
        return name, "\n".join(lines).strip("\n") + "\n"

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(one, sorted(names)))


def combine_passes(passes: list[PassResult], diffs: dict[str, str]) -> dict[str, dict[str, Any]]:
    """One record per mutant: best status over the passes, each pass's status and exit code."""
    mutants: dict[str, dict[str, Any]] = {}
    for one in passes:
        for name, (status, code) in one.statuses.items():
            record = mutants.setdefault(
                name, {"file": one.files.get(name, ""), "function": function_of(name), "passes": {}}
            )
            record["passes"][one.candidate] = {"status": status, "exit_code": code}
    for name, record in mutants.items():
        record["status"] = best_status(p["status"] for p in record["passes"].values())
        if record["status"] != KILLED:
            record["diff"] = diffs.get(name, "")
    return dict(sorted(mutants.items()))


def mutated_source_hash(root: Path, sources: Sequence[str], passes: Sequence[PassResult]) -> str:
    """The hash of the source the passes mutated: their scratch copies', which must all agree.

    Not the hash of `root` when the run ends: an edit of the reference during a long run would
    otherwise label mutants of the old source with the new source's hash.
    """
    hashes = {p.candidate: source_hash(p.workdir, sources) for p in passes}
    if len(set(hashes.values())) > 1:
        raise MutationError(f"the reference changed between the passes of this run: {hashes}")
    return next(iter(hashes.values())) if hashes else source_hash(root, sources)


def build_report(
    root: Path, settings: dict[str, Any], mutate: Sequence[str], passes: list[PassResult], started: float
) -> dict[str, Any]:
    """The report document (also the shard format `merge` reads)."""
    # Diffs (one `mutmut show` each) for every mutant no pass killed, except those no test reached
    # in any pass: they are reviewed per function, and there can be hundreds.
    open_ = {n for p in passes for n, (s, _) in p.statuses.items() if s != KILLED}
    settled = {n for p in passes for n, (s, _) in p.statuses.items() if s not in (NO_TESTS, NOT_CHECKED)}
    killed = {n for p in passes for n, (s, _) in p.statuses.items() if s == KILLED}
    diffs = show_diffs(passes[0].workdir, (open_ - killed) & settled) if passes else {}
    mutants = combine_passes(passes, diffs)
    counts = tally(mutants)
    kill_codes = Counter(
        str(next(p["exit_code"] for p in m["passes"].values() if p["status"] == KILLED))
        for m in mutants.values()
        if m["status"] == KILLED
    )
    import mutmut

    return {
        "format": FORMAT,
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "tool": {"mutmut": getattr(mutmut, "__version__", "?"), "python": sys.version.split()[0]},
        "source": {
            "paths": list(settings["sources"]),
            "hash": mutated_source_hash(root, settings["sources"], passes),
            "files": len(source_files(passes[0].workdir if passes else root, settings["sources"])),
        },
        "mutated": list(mutate),
        "candidates": [p.candidate for p in passes],
        "test_selection": {p.candidate: tests_for(settings, p.candidate) for p in passes},
        "score": score(counts),
        "score_all": score_all(counts),
        "counts": counts,
        # pytest exit code of the killing run: 1 a check failed, 3 the candidate broke (crash,
        # protocol, timeout); mutmut counts both as killed.
        "kills_by_exit_code": dict(sorted(kill_codes.items())),
        "passes": [
            {
                "candidate": p.candidate,
                "mutants_run": len(p.statuses),
                "killed": sum(1 for s, _ in p.statuses.values() if s == KILLED),
                "duration_s": p.duration_s,
                "session_functions_given_every_test": p.widened,
                "mutmut_cicd_stats": p.stats,
            }
            for p in passes
        ],
        "duration_s": round(time.monotonic() - started, 1),
        "machine": {"cpus": os.cpu_count(), "load_at_start": list(settings.get("_load", []))},
        "max_children": settings["max_children"],
        **_resumed_note(settings),
        "mutants": mutants,
    }


def _resumed_note(settings: dict[str, Any]) -> dict[str, Any]:
    """A report of a resumed run says so: its passes' durations are the resumed parts only, and each
    resumed pass judged with the suite copied when the pass first began."""
    resumed = settings.get("_resumed")
    if not resumed:
        return {}
    return {
        "resumed_passes": list(resumed),
        "note": f"Resumed (`--resume`) {len(resumed)} pass(es) a stopped run began on the same reference"
        f" source: {', '.join(resumed)}. Their verdicts recorded before the stop were kept; each pass"
        " judged with the suite as copied when it first began; duration_s counts this run only.",
    }


def run_report(
    root: Path,
    settings: dict[str, Any],
    mutate: Sequence[str],
    keep: bool,
    workdir: Path | None = None,
    only: Sequence[str] | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    """All passes in scratch copies of `root` (under `workdir`, kept, if given); returns the report.

    `only`: run just these mutants (by mutmut name) in the first pass, and in each later pass
    those of them no earlier pass killed. `resume`: keep `workdir`, and finish each pass a stopped
    run began there (on the same reference source, `check_resumable`) instead of starting it again.
    """
    started = time.monotonic()
    settings["_load"] = [round(x, 2) for x in os.getloadavg()]
    if resume and workdir is None:
        raise MutationError("--resume needs the --workdir of the run it finishes")
    if workdir is not None:
        if workdir.exists() and not resume:
            shutil.rmtree(workdir)
        workdir.mkdir(parents=True, exist_ok=resume)
        keep = True
    scratch = workdir or Path(tempfile.mkdtemp(prefix="toolproof-mutation-"))
    passes: list[PassResult] = []
    try:
        pending: list[str] | None = sorted(only) if only is not None else None
        for index, candidate in enumerate(settings["candidates"]):
            if pending is not None and not pending:
                break
            workdir = scratch / f"pass-{index}-{candidate}"
            if resume and (workdir / "mutants").is_dir():
                check_resumable(root, workdir, settings["sources"])
                print(f"mutation: pass {index + 1} --candidate {candidate} resumed in {workdir}", flush=True)
                result = resume_pass(workdir, candidate, pending, int(settings["max_children"]))
                settings.setdefault("_resumed", []).append(candidate)
            else:
                if workdir.exists():  # made, never run: start it afresh
                    shutil.rmtree(workdir)
                workdir.mkdir()
                timeout = float(settings["toolproof_timeout"])
                tests = tests_for(settings, candidate)
                prepare_workdir(
                    root, workdir, mutate, candidate, timeout, settings.get("pytest_args", ()), tests
                )
                print(f"mutation: pass {index + 1} --candidate {candidate} in {workdir}", flush=True)
                result = run_pass(workdir, candidate, pending, int(settings["max_children"]))
            passes.append(result)
            killed = {n for p in passes for n, (s, _) in p.statuses.items() if s == KILLED}
            pending = sorted(set(passes[0].statuses if only is None else only) - killed)
            print(
                f"mutation: pass {index + 1} ({candidate}) ran {len(result.statuses)} mutants in"
                f" {result.duration_s:.0f} s; {len(pending)} not killed yet",
                flush=True,
            )
        return build_report(root, settings, mutate, passes, started)
    finally:
        if keep:
            print(f"mutation: scratch copies kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
