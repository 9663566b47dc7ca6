"""Mutation testing of the reference with the suite: report, freshness check, shard merge.

`toolproof mutation report` copies the project to a scratch directory, runs
mutmut there (one pass per bundled profile: later passes re-run only the
mutants no earlier pass killed, because some code paths - continuation,
prefix namespacing - are only exercised under their own profile) and writes
`reports/mutation.json` + `reports/mutation.md`. `toolproof mutation check`
(cheap, no mutmut) fails when that report was made on other reference source,
scores below the threshold in pyproject.toml, or has a mutant that is not
killed and not reviewed in `reports/mutation-review.md`. `toolproof mutation
merge` adds up reports made on disjoint shards (one per source file in CI).

Two scores. The raw score (mutmut's): killed / (total - no_tests - skipped),
where `no_tests` counts only mutants no test reached (mutmut exit 33); a
mutant whose run ended with toolproof's exit 5 ("nothing was judged") is
counted as `not judged`, in the denominator, never as "no tests" (mutmut's own
label for exit 5). Timeouts, suspicious runs and segfaults are in the
denominator and not killed. The reviewed score (the textbook one, which the
gate uses): killed / (total - no_tests - skipped - equivalent), where
`equivalent` counts the mutants in the raw denominator, not killed, whose
review verdict is `equivalent` (no correct-or-incorrect difference the
contract can see).

`toolproof mutation report --rerun REPORT` re-runs only the mutants REPORT did
not kill (not the no-tests ones) with the current suite, on the same reference
source, and writes the merged report (both runs' dates in it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Generator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from toolproof.controls.control import PROFILES, candidate_spec
from toolproof.judge.catalog import load_catalog

FORMAT = "toolproof-mutation/1"
SCORE_FORMULA = "killed / (total - no_tests - skipped)"
REVIEWED_SCORE_FORMULA = "killed / (total - no_tests - skipped - equivalent)"
KILLED, NO_TESTS, SKIPPED, NOT_JUDGED, NOT_CHECKED = (
    "killed",
    "no tests",
    "skipped",
    "not judged",
    "not checked",
)
# Best first: with several passes, a mutant's final status is the best any pass gave it.
_STATUS_RANK = (
    KILLED,
    "timeout",
    "segfault",
    "suspicious",
    "caught by type check",
    "check was interrupted by user",
    NOT_JUDGED,
    "survived",
    NO_TESTS,
    SKIPPED,
    NOT_CHECKED,
)
#: The suite in a pass's scratch directory (the installed package copied in): mutmut's test selection.
SUITE_TESTS = "toolproof/conformance"
DEFAULTS: dict[str, Any] = {
    "threshold": 95.0,
    "sources": ["candidates/reference"],
    "candidates": ["reference", "reference-continuation", "reference-prefix"],
    "max_children": 2,
    "toolproof_timeout": 20,
    "review": "reports/mutation-review.md",
    "report": "reports/mutation.json",
}
_IGNORED_DIRS = {".git", ".tox", "__pycache__", "mutants", "node_modules", ".venv", "out", ".mypy_cache"}
_VERDICTS = ("killed", "equivalent", "gap", "unreached")


class MutationError(Exception):
    """A usage or consistency problem (bad shard, failed mutmut run): exit 2."""


# ---------------------------------------------------------------- pytest plugin of the mutation passes

SUSPICIOUS = 35
"""mutmut's exit code for "suspicious": not killed, in the denominator, reviewed."""


def mutant_exit_status(status: int, results: Iterable[Any]) -> int:
    """The exit status mutmut should see for one mutant's run.

    A kill is a contract verdict: exit 1 only when a MUST check failed on its own verdict side
    (a harness-side failure, e.g. a vacuous scenario, is no verdict), and a harness error (4),
    which would make mutmut abort, is reported as suspicious. Exit 3 (the candidate crashed,
    broke protocol v1 or timed out) stays a kill: the suite did tell the mutant apart.
    """
    if status == 4:
        return SUSPICIOUS
    if status == 1 and not any(
        r.status == "fail" and r.side == load_catalog().check(r.check).side and r.level == "MUST"
        for r in results
    ):
        return SUSPICIOUS
    return status


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    """Loaded only by the mutation passes (`-p toolproof.mutation`): see mutant_exit_status."""
    result = yield
    from toolproof.plugin.session import STATE

    state = session.config.stash.get(STATE, None)
    if state is not None and not session.config.option.collectonly:
        session.exitstatus = mutant_exit_status(int(session.exitstatus), state.results)
    return result


# ---------------------------------------------------------------- settings, hash


def load_settings(root: Path) -> dict[str, Any]:
    """`[tool.toolproof.mutation]` of root/pyproject.toml over DEFAULTS."""
    settings = dict(DEFAULTS)
    pyproject = root / "pyproject.toml"
    if pyproject.exists():
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        settings.update(data.get("tool", {}).get("toolproof", {}).get("mutation", {}))
    return settings


def relative_source(root: Path, source: str) -> str:
    """`source` relative to `root`: given relative to the cwd (tox rewrites posargs that way) or to root."""
    path = Path(source)
    full = (path if path.is_absolute() else Path.cwd() / path).resolve()
    if full.exists() and full.is_relative_to(root):
        return full.relative_to(root).as_posix()
    return path.as_posix()


def tests_for(settings: dict[str, Any], candidate: str) -> list[str]:
    """The tests of one pass: `[tool.toolproof.mutation.tests]` entry for the candidate, else the suite."""
    return list(settings.get("tests", {}).get(candidate, [SUITE_TESTS]))


def source_files(root: Path, sources: Iterable[str]) -> list[str]:
    """Relative POSIX paths of every *.py file under `sources` (files or directories), sorted."""
    found: set[str] = set()
    for source in sources:
        path = root / source
        candidates = [path] if path.is_file() else path.rglob("*.py")
        for file in candidates:
            relative = file.relative_to(root)
            if file.suffix == ".py" and "__pycache__" not in relative.parts:
                found.add(relative.as_posix())
    return sorted(found)


def source_hash(root: Path, sources: Iterable[str]) -> str:
    """sha256 over, per file in sorted relative-path order: path, NUL, byte length, NUL, bytes."""
    digest = hashlib.sha256()
    for relative in source_files(root, sources):
        data = (root / relative).read_bytes()
        digest.update(relative.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0")
        digest.update(data)
    return "sha256:" + digest.hexdigest()


# ---------------------------------------------------------------- mutant names and diffs


def function_of(mutant: str) -> str:
    """`candidates.reference.adapter.xǁAdapterǁbuild__mutmut_3` -> `Adapter.build` (mutmut's mangling)."""
    mangled = mutant.partition("__mutmut_")[0].rpartition(".")[2]
    if "ǁ" in mangled:
        _, cls, name = mangled.split("ǁ", 2)
        return f"{cls}.{name}"
    return mangled.removeprefix("x_")


def diff_key(diff: str) -> tuple[str, ...]:
    """The changed lines of a unified diff (after the first hunk header): stable across edits elsewhere."""
    lines = diff.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("@@")), len(lines))
    return tuple(line for line in lines[start:] if line[:1] in ("-", "+"))


def _status(mutmut_status: str, exit_code: int | None) -> str:
    # mutmut labels exit 5 (pytest: no tests ran) "no tests"; for toolproof 5 means nothing was judged.
    if mutmut_status == NO_TESTS and exit_code == 5:
        return NOT_JUDGED
    return mutmut_status


def best_status(statuses: Iterable[str]) -> str:
    """The best status any pass gave a mutant (killed wins)."""
    ranked = sorted(statuses, key=lambda s: _STATUS_RANK.index(s) if s in _STATUS_RANK else 3)
    return ranked[0] if ranked else NOT_CHECKED


def tally(mutants: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Counts by final status, plus `total`."""
    counts = Counter(str(m["status"]) for m in mutants.values())
    result = {status: counts.get(status, 0) for status in _STATUS_RANK}
    result.update({s: n for s, n in counts.items() if s not in result})
    result["total"] = len(mutants)
    return result


def score(counts: dict[str, int]) -> dict[str, Any]:
    """killed / (total - no_tests - skipped), in percent (100 when nothing was testable)."""
    denominator = counts["total"] - counts.get(NO_TESTS, 0) - counts.get(SKIPPED, 0)
    killed = counts.get(KILLED, 0)
    percent = round(100.0 * killed / denominator, 2) if denominator else 100.0
    return {"formula": SCORE_FORMULA, "killed": killed, "denominator": denominator, "percent": percent}


# ---------------------------------------------------------------- running mutmut


@dataclass
class PassResult:
    """One mutmut run with one --candidate in its own scratch copy."""

    candidate: str
    workdir: Path
    statuses: dict[str, tuple[str, int | None]]
    stats: dict[str, Any]
    duration_s: float
    ran: list[str] | None = None  # None: every mutant
    files: dict[str, str] = field(default_factory=dict)  # mutant -> source file
    widened: list[str] = field(default_factory=list)  # session-setup functions given every test


def copy_project(root: Path, dest: Path) -> None:
    """Copy the files git knows (tracked + untracked, not ignored) or, without git, the tree."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        for name in sorted(set(listed.stdout.decode("utf-8").split("\0")) - {""}):
            source = root / name
            if source.is_file() and not _IGNORED_DIRS.intersection(Path(name).parts):
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
        return
    shutil.copytree(root, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*_IGNORED_DIRS, "*.pyc"))


def _toml_value(value: object) -> str:
    # JSON strings, lists and numbers are valid TOML values (basic strings share the escapes).
    return json.dumps(value)


def mutmut_config(pyproject: str, entries: dict[str, object]) -> str:
    """`pyproject` with its `[tool.mutmut]` table replaced by `entries`."""
    kept: list[str] = []
    skipping = False
    for line in pyproject.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            skipping = stripped == "[tool.mutmut]"
        if not skipping:
            kept.append(line)
    table = ["[tool.mutmut]"] + [f"{key} = {_toml_value(value)}" for key, value in entries.items()]
    return "\n".join(kept).rstrip("\n") + "\n\n" + "\n".join(table) + "\n"


def prepare_workdir(
    root: Path,
    workdir: Path,
    mutate: Sequence[str],
    candidate: str,
    timeout: float,
    extra: Sequence[str] = (),
    tests: Sequence[str] = (SUITE_TESTS,),
) -> None:
    """A scratch copy of `root` set up for one mutmut pass over `mutate` with `--candidate candidate`.

    The suite and harness are the installed `toolproof` package, copied in whole (the checkout keeps
    the suite, candidates and contracts beside the package; the wheel has them inside). The mutated
    reference is the checkout's top-level `candidates/`, judged as the controls judge their copies:
    a bundled profile name becomes a `py:candidates.reference...` spec of that copy.
    """
    import toolproof

    copy_project(root, workdir)
    for name in ("toolproof", "conformance", "negative_controls", "contracts"):
        if (workdir / name).is_dir():
            shutil.rmtree(workdir / name)
    shutil.copytree(
        Path(toolproof.__file__).resolve().parent,
        workdir / "toolproof",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    spec = candidate_spec(candidate, "py") if candidate in PROFILES else candidate
    top = sorted(p.name for p in workdir.iterdir() if p.name not in {"mutants", "pyproject.toml", ".git"})
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
    entries: dict[str, object] = {
        "source_paths": list(mutate),
        "also_copy": top,
        "pytest_add_cli_args_test_selection": list(tests),
        "pytest_add_cli_args": [
            # As `toolproof run` starts the suite (toolproof.tools.invocation), with the rootdir
            # left at mutmut's working directory: mutmut passes node IDs back as paths from there.
            *("-p", "toolproof.plugin", "--noconftest", "-c", f"{SUITE_TESTS}/pytest.ini", "--rootdir", "."),
            *("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "toolproof.mutation"),
            *("-q", "--hypothesis-profile=ci"),
            *("--candidate", spec, "--toolproof-timeout", str(timeout)),
            *extra,
        ],
        # forkserver crashed here (pipe closed); fork works: the fakes start per forked session.
        "process_isolation": "fork",
    }
    pyproject.write_text(mutmut_config(text, entries), encoding="utf-8")


def _mutmut(workdir: Path, *args: str, log: Path | None = None) -> str:
    command = [sys.executable, "-m", "mutmut", *args]
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_AUTO_NUM_WORKERS")
    }
    if log is None:
        done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, check=False)
        code, stdout, output = done.returncode, done.stdout, done.stdout + done.stderr
    else:
        with log.open("a", encoding="utf-8") as sink:
            code = subprocess.run(
                command, cwd=workdir, env=env, stdout=sink, stderr=sink, check=False
            ).returncode
        stdout, output = "", log.read_text(encoding="utf-8", errors="replace")
    if code != 0:
        tail = "\n".join(output.splitlines()[-40:])
        raise MutationError(f"mutmut {args[0]} failed with exit {code} in {workdir}:\n{tail}")
    return stdout


def parse_results(text: str) -> dict[str, str]:
    """`mutmut results --all true` lines (`    NAME: status`) -> {NAME: status}."""
    results: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, status = line.strip().partition(": ")
        if sep and "__mutmut_" in name:
            results[name] = status.strip()
    return results


def _exit_codes(workdir: Path) -> tuple[dict[str, int | None], dict[str, str]]:
    """Raw exit codes (and source files) from mutmut's per-file .meta records."""
    codes: dict[str, int | None] = {}
    files: dict[str, str] = {}
    mutants_dir = workdir / "mutants"
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        source = meta.relative_to(mutants_dir).as_posix().removesuffix(".meta")
        for name, code in data["exit_code_by_key"].items():
            codes[name] = code
            files[name] = source
    return codes, files


STATS_ONLY = "toolproof-stats-only-*"
"""A mutant pattern matching nothing: `mutmut run` then only collects which tests reach which function."""


def stats_only(workdir: Path, max_children: int, log: Path) -> None:
    """Generate the mutants and collect the stats: `mutmut run` with a pattern that matches no mutant.

    mutmut saves the stats, then stops on "nothing matches" before its clean and forced-failure
    runs; any other failure is an error.
    """
    try:
        _mutmut(workdir, "run", "--max-children", str(max_children), STATS_ONLY, log=log)
    except MutationError as exc:
        if "nothing matches" not in str(exc) or not (workdir / "mutants" / "mutmut-stats.json").exists():
            raise


def widen_session_functions(workdir: Path) -> list[str]:
    """Give functions reached only during the first test (session setup) every test; return them.

    mutmut credits a function to the tests that called it. The candidate is created and greeted
    (`hello`, the declared options) once per session, inside the first test, but what those
    functions return shapes every later test: credited to the first test only, their mutants
    would be judged by that one test.
    """
    path = workdir / "mutants" / "mutmut-stats.json"
    stats = json.loads(path.read_text(encoding="utf-8"))
    order = list(stats["duration_by_test"])  # insertion order: the order the tests ran
    covering: dict[str, list[str]] = stats["tests_by_mangled_function_name"]
    widened = sorted(f for f, tests in covering.items() if order and set(tests) == {order[0]})
    for function in widened:
        covering[function] = order
    path.write_text(json.dumps(stats, indent=4), encoding="utf-8")
    return widened


def run_pass(workdir: Path, candidate: str, names: list[str] | None, max_children: int) -> PassResult:
    """Collect stats, widen session-setup functions, `mutmut run` (all or `names`), collect results."""
    started = time.monotonic()
    log = workdir / "mutmut-run.log"
    stats_only(workdir, max_children, log)
    widened = widen_session_functions(workdir)
    _mutmut(workdir, "run", "--max-children", str(max_children), *(names or ()), log=log)
    result = collect_pass(workdir, candidate, names, time.monotonic() - started)
    result.widened = [function_of(w + "__mutmut_") for w in widened]
    return result


def collect_pass(workdir: Path, candidate: str, names: list[str] | None, duration: float) -> PassResult:
    """Statuses (`mutmut results --all true`, exit codes from .meta) and `mutmut export-cicd-stats`."""
    _mutmut(workdir, "export-cicd-stats")
    stats = json.loads((workdir / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    results = parse_results(_mutmut(workdir, "results", "--all", "true"))
    codes, files = _exit_codes(workdir)
    wanted = set(results) if names is None else set(names)
    statuses = {n: (_status(s, codes.get(n)), codes.get(n)) for n, s in results.items() if n in wanted}
    return PassResult(candidate, workdir, statuses, stats, round(duration, 1), names, files)


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
        "mutants": mutants,
    }


def run_report(
    root: Path,
    settings: dict[str, Any],
    mutate: Sequence[str],
    keep: bool,
    workdir: Path | None = None,
    only: Sequence[str] | None = None,
) -> dict[str, Any]:
    """All passes in scratch copies of `root` (under `workdir`, kept, if given); returns the report.

    `only`: run just these mutants (by mutmut name) in the first pass, and in each later pass
    those of them no earlier pass killed.
    """
    started = time.monotonic()
    settings["_load"] = [round(x, 2) for x in os.getloadavg()]
    if workdir is not None:
        if workdir.exists():
            shutil.rmtree(workdir)
        workdir.mkdir(parents=True)
        keep = True
    scratch = workdir or Path(tempfile.mkdtemp(prefix="toolproof-mutation-"))
    passes: list[PassResult] = []
    try:
        pending: list[str] | None = sorted(only) if only is not None else None
        for index, candidate in enumerate(settings["candidates"]):
            if pending is not None and not pending:
                break
            workdir = scratch / f"pass-{index}-{candidate}"
            workdir.mkdir()
            timeout = float(settings["toolproof_timeout"])
            tests = tests_for(settings, candidate)
            prepare_workdir(root, workdir, mutate, candidate, timeout, settings.get("pytest_args", ()), tests)
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


# ---------------------------------------------------------------- shard merge


def _check_shard(path: str, shard: dict[str, Any]) -> None:
    if shard.get("format") != FORMAT:
        raise MutationError(f"{path}: not a {FORMAT} document (format {shard.get('format')!r})")
    recount = tally(shard["mutants"])
    stated = {k: v for k, v in shard["counts"].items() if v}
    if stated != {k: v for k, v in recount.items() if v}:
        raise MutationError(f"{path}: counts {stated} do not match its mutants {recount}")


def merge(shards: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Merge reports made on disjoint shards of the same source; the score is recomputed from the sums."""
    if not shards:
        raise MutationError("merge needs at least one shard")
    first_path, first = shards[0]
    mutants: dict[str, dict[str, Any]] = {}
    owner: dict[str, str] = {}
    for path, shard in shards:
        _check_shard(path, shard)
        for key in ("source", "candidates"):
            if shard[key] != first[key]:
                raise MutationError(
                    f"{path}: {key} {shard[key]!r} differs from {first_path}'s {first[key]!r}"
                )
        for name, record in shard["mutants"].items():
            if name in owner:
                raise MutationError(f"mutant {name} is in two shards: {owner[name]} and {path}")
            owner[name] = path
            mutants[name] = record
    counts = tally(mutants)
    merged = {key: value for key, value in first.items() if key not in ("passes", "mutants")}
    merged.update(
        {
            "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "mutated": sorted({m for _, s in shards for m in s["mutated"]}),
            "score": score(counts),
            "counts": counts,
            "duration_s": round(sum(float(s["duration_s"]) for _, s in shards), 1),
            "shards": [
                {"path": p, "mutated": s["mutated"], "duration_s": s["duration_s"], "counts": s["counts"]}
                for p, s in shards
            ],
            "passes": [],
            "mutants": dict(sorted(mutants.items())),
        }
    )
    return merged


# ---------------------------------------------------------------- rerun of the mutants not killed

RERUN_EXCLUDED = (KILLED, NO_TESTS, SKIPPED)


def rerun_names(report: dict[str, Any]) -> list[str]:
    """The mutants a rerun runs again: every one not killed, except those no test reached or skipped."""
    return sorted(n for n, r in report["mutants"].items() if r["status"] not in RERUN_EXCLUDED)


def merge_rerun(full: dict[str, Any], rerun: dict[str, Any]) -> dict[str, Any]:
    """`full` with the records of the mutants `rerun` ran again replaced by the rerun's.

    The rerun must be on the same reference source and mutate the same files, and run exactly the
    mutants `full` did not kill (no tests and skipped aside). Scores and counts are recomputed;
    `runs` and the note say which mutants each run judged, and when.
    """
    for report, what in ((full, "the full report"), (rerun, "the rerun")):
        if report.get("format") != FORMAT:
            raise MutationError(f"{what} is not a {FORMAT} document")
    if rerun["source"]["hash"] != full["source"]["hash"]:
        raise MutationError(
            f"the rerun was made on other reference source ({rerun['source']['hash']}) than the full"
            f" report ({full['source']['hash']})"
        )
    if sorted(rerun["mutated"]) != sorted(full["mutated"]):
        raise MutationError(f"the rerun mutated {rerun['mutated']}, the full report {full['mutated']}")
    wanted = rerun_names(full)
    extra = sorted(set(rerun["mutants"]) - set(wanted))
    if extra or not rerun["mutants"]:
        raise MutationError(f"the rerun ran mutants the full report has not open: {extra or 'none at all'}")
    left = len(wanted) - len(rerun["mutants"])
    mutants = {name: dict(record) for name, record in full["mutants"].items()}
    for name, record in rerun["mutants"].items():
        merged = dict(record)
        merged["full_run_status"] = full["mutants"][name]["status"]
        if merged["status"] == KILLED:
            merged.pop("diff", None)
        elif not merged.get("diff"):
            merged["diff"] = full["mutants"][name].get("diff", "")
        mutants[name] = merged
    counts = tally(mutants)
    kill_codes = Counter(
        str(next(p["exit_code"] for p in m["passes"].values() if p["status"] == KILLED))
        for m in mutants.values()
        if m["status"] == KILLED
    )
    full_runs = full.get("runs") or [
        {
            "run": "full",
            "generated_at": full["generated_at"],
            "mutants_run": len(full["mutants"]),
            "duration_s": full["duration_s"],
            "note": full.get("note", ""),
        }
    ]
    rerun_entry = {
        "run": "rerun",
        "generated_at": rerun["generated_at"],
        "mutants_run": len(rerun["mutants"]),
        "duration_s": rerun["duration_s"],
        "note": rerun.get("note", ""),
    }
    killed_now = sum(1 for r in rerun["mutants"].values() if r["status"] == KILLED)
    note = (f"{full.get('note', '').strip()} " if full.get("note") else "") + (
        f"Rerun {rerun['generated_at']} (`toolproof mutation report --rerun`): "
        + (f"{len(rerun['mutants'])} of the {len(wanted)}" if left else f"the {len(wanted)}")
        + f" mutants the run of {full_runs[-1]['generated_at']} did not kill (no tests aside) were run"
        f" again with the suite as it was then, on the same reference source; it killed {killed_now} of"
        " them. Every other mutant keeps its status from the earlier run."
    )
    merged_report = dict(full)
    merged_report.update(
        {
            "generated_at": rerun["generated_at"],
            "tool": rerun["tool"],
            "score": score(counts),
            "counts": counts,
            "kills_by_exit_code": dict(sorted(kill_codes.items())),
            "passes": [
                *({"run": "full", **p} if "run" not in p else p for p in full.get("passes", [])),
                *({"run": "rerun", **p} for p in rerun.get("passes", [])),
            ],
            "runs": [*full_runs, rerun_entry],
            "duration_s": round(sum(float(r["duration_s"]) for r in [*full_runs, rerun_entry]), 1),
            "note": note,
            "mutants": dict(sorted(mutants.items())),
        }
    )
    return merged_report


# ---------------------------------------------------------------- review and check


@dataclass(frozen=True)
class ReviewEntry:
    """One `### file::function` section of the review: a diff (or none) and its verdict."""

    function: str
    diff: tuple[str, ...] | None
    verdict: str
    reason: str
    line: int


_HEADING = re.compile(r"^###\s+`?([^`\s]+::[^`\s]+)`?\s*$")
_VERDICT = re.compile(r"^Verdict:\s*(\w+)\s*(?:[-—:]+\s*)?(.*)$")


def parse_review(text: str) -> tuple[list[ReviewEntry], list[str]]:
    """Entries of a mutation-review.md, and the problems found parsing it."""
    entries: list[ReviewEntry] = []
    problems: list[str] = []
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _HEADING.match(line)]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        heading = _HEADING.match(lines[start])
        assert heading is not None  # starts only holds matching lines
        body = lines[start + 1 : end]
        diff: tuple[str, ...] | None = None
        if "```diff" in [b.strip() for b in body]:
            open_at = [b.strip() for b in body].index("```diff")
            close_at = next((i for i in range(open_at + 1, len(body)) if body[i].strip() == "```"), len(body))
            diff = tuple(b for b in body[open_at + 1 : close_at] if b[:1] in ("-", "+"))
        verdicts = [m for m in (_VERDICT.match(b.strip()) for b in body) if m]
        where = f"review line {start + 1} ({heading.group(1)})"
        if len(verdicts) != 1:
            problems.append(f"{where}: expected exactly one 'Verdict: <word> - reason' line")
            continue
        verdict, reason = verdicts[0].group(1), verdicts[0].group(2).strip()
        if verdict not in _VERDICTS or not reason:
            problems.append(f"{where}: verdict must be one of {', '.join(_VERDICTS)} with a reason")
            continue
        if diff is None and verdict != "unreached":
            problems.append(f"{where}: only an 'unreached' verdict may cover a whole function (no diff)")
            continue
        entries.append(ReviewEntry(heading.group(1), diff, verdict, reason, start + 1))
    return entries, problems


def _label(record: dict[str, Any]) -> str:
    return f"{record['file']}::{record['function']}"


def review_skeleton(report: dict[str, Any], review_text: str) -> str:
    """Review sections (verdict TODO) for every open mutant the review does not cover yet."""
    entries, _ = parse_review(review_text)
    covered = {(e.function, e.diff) for e in entries} | {
        (e.function, None) for e in entries if e.diff is None
    }
    out: list[str] = []
    seen: set[tuple[str, tuple[str, ...] | None]] = set()
    for record in report["mutants"].values():
        if record["status"] in (KILLED, NOT_CHECKED):
            continue
        label, key = _label(record), diff_key(record.get("diff", ""))
        whole = record["status"] == NO_TESTS
        wanted: tuple[str, tuple[str, ...] | None] = (label, None if whole else key)
        if (label, key) in covered or (whole and (label, None) in covered) or wanted in seen:
            continue
        seen.add(wanted)
        out += [f"### `{label}`", ""]
        if whole:
            out += ["Verdict: TODO - unreached (no in-process test reaches it)", ""]
        else:
            out += ["```diff", *key, "```", "", f"Verdict: TODO - ({record['status']})", ""]
    return "\n".join(out)


def _review_index(
    entries: Iterable[ReviewEntry],
) -> tuple[dict[tuple[str, tuple[str, ...] | None], ReviewEntry], dict[str, ReviewEntry]]:
    by_diff: dict[tuple[str, tuple[str, ...] | None], ReviewEntry] = {
        (e.function, e.diff): e for e in entries if e.diff is not None
    }
    by_function = {e.function: e for e in entries if e.diff is None}
    return by_diff, by_function


def review_of(
    record: dict[str, Any],
    by_diff: dict[tuple[str, tuple[str, ...] | None], ReviewEntry],
    by_function: dict[str, ReviewEntry],
) -> ReviewEntry | None:
    """The review entry covering one open mutant: by function and diff; a no-tests one also by function."""
    label = _label(record)
    entry = by_diff.get((label, diff_key(record.get("diff", ""))))
    if entry is None and record["status"] == NO_TESTS:
        entry = by_function.get(label)
    return entry


def reviewed_score(report: dict[str, Any], review_text: str) -> dict[str, Any]:
    """killed / (total - no_tests - skipped - equivalent), in percent (100 when nothing is left).

    `equivalent`: mutants in the raw denominator (not no tests, not skipped), not killed, whose
    review verdict (matched by function and diff) is `equivalent`.
    """
    entries, _ = parse_review(review_text)
    by_diff, by_function = _review_index(entries)
    equivalent = 0
    for record in report["mutants"].values():
        if record["status"] in (KILLED, NO_TESTS, SKIPPED):
            continue
        entry = review_of(record, by_diff, by_function)
        if entry is not None and entry.verdict == "equivalent":
            equivalent += 1
    raw = score(tally(report["mutants"]))
    denominator = raw["denominator"] - equivalent
    killed = raw["killed"]
    percent = round(100.0 * killed / denominator, 2) if denominator else 100.0
    return {
        "formula": REVIEWED_SCORE_FORMULA,
        "killed": killed,
        "equivalent": equivalent,
        "denominator": denominator,
        "percent": percent,
    }


def check(
    report: dict[str, Any], review_text: str, current_hash: str, threshold: float
) -> tuple[list[str], list[str]]:
    """(problems, notes): problems fail `toolproof mutation check`. The gate is the reviewed score."""
    problems: list[str] = []
    notes: list[str] = []
    if report.get("format") != FORMAT:
        return [f"the mutation report is not a {FORMAT} document"], notes
    made_on = report["source"]["hash"]
    if made_on != current_hash:
        problems.append(
            f"the mutation report was made on other reference source ({made_on}); the current source is"
            f" {current_hash}: regenerate it with `tox -e mutation` and update the review"
        )
    reviewed = reviewed_score(report, review_text)
    if reviewed["percent"] < threshold:
        problems.append(
            f"reviewed mutation score {reviewed['percent']:.2f}% ({REVIEWED_SCORE_FORMULA} ="
            f" {reviewed['killed']} / {reviewed['denominator']}) is below the threshold {threshold:g}%"
        )
    entries, parse_problems = parse_review(review_text)
    problems += parse_problems
    by_diff, by_function = _review_index(entries)
    used: set[int] = set()
    for name, record in report["mutants"].items():
        status = record["status"]
        if status == KILLED:
            continue
        if status == NOT_CHECKED:
            problems.append(f"{name} was never checked: the mutation run did not finish")
            continue
        label = _label(record)
        entry = review_of(record, by_diff, by_function)
        if entry is None:
            changed = "\n      ".join(diff_key(record.get("diff", ""))) or "(no diff)"
            problems.append(f"not reviewed ({status}): {label}\n      {changed}")
            continue
        used.add(entry.line)
        if entry.verdict == "killed":
            problems.append(
                f"review line {entry.line} says {label} is killed ({entry.reason}),"
                f" but the report has it {status}"
            )
    for entry in entries:
        if entry.line not in used:
            notes.append(
                f"review line {entry.line} ({entry.function}, {entry.verdict}) matches no open mutant"
            )
    return problems, notes


def score_lines(report: dict[str, Any], review_text: str | None) -> list[str]:
    """The raw score and (with a review) the reviewed one, each with its formula and numbers."""
    raw = report["score"]
    lines = [f"raw score {raw['percent']:.2f}% = {raw['formula']} = {raw['killed']} / {raw['denominator']}"]
    if review_text is not None:
        r = reviewed_score(report, review_text)
        lines.append(
            f"reviewed score {r['percent']:.2f}% = {r['formula']} = {r['killed']} / {r['denominator']}"
            f" ({r['equivalent']} reviewed equivalent)"
        )
    return lines


# ---------------------------------------------------------------- markdown


def _generated_line(report: dict[str, Any]) -> str:
    mutmut = report["tool"]["mutmut"]
    if not report.get("runs"):
        return f"Generated {report['generated_at']} by `tox -e mutation` (mutmut {mutmut})."
    return (
        f"Generated {report['generated_at']} by `toolproof mutation report --rerun` over the full run of"
        f" {report['runs'][0]['generated_at']} (mutmut {mutmut}); see Runs and the note."
    )


def _duration_lines(report: dict[str, Any]) -> list[str]:
    runs = report.get("runs")
    if not runs:
        return [f"Duration {report['duration_s']:.0f} s with --max-children {report['max_children']}."]
    return [
        "Runs: "
        + "; ".join(
            f"{r['run']} {r['generated_at']}, {r['mutants_run']} mutants, {r['duration_s']:.0f} s"
            for r in runs
        )
        + f" (--max-children {report['max_children']})."
    ]


def render_markdown(report: dict[str, Any], review_text: str | None = None) -> str:
    """reports/mutation.md: scores, counts, passes, and every mutant that was not killed, with its diff.

    With `review_text` (reports/mutation-review.md) the reviewed score is shown beside the raw one.
    """
    counts = report["counts"]
    scores = score_lines(report, review_text)
    out = [
        "# Mutation report",
        "",
        _generated_line(report),
        f"Reference source `{report['source']['hash']}` ({report['source']['files']} files under"
        f" {', '.join(report['source']['paths'])}); mutated: {', '.join(report['mutated'])}.",
        "Tests, in-process (-p no:xdist, --hypothesis-profile=ci), per pass: "
        + "; ".join(f"`{c}`: {', '.join(t)}" for c, t in report["test_selection"].items())
        + ".",
        "",
        *([f"> {report['note']}", ""] if report.get("note") else []),
        f"**Raw score** (mutmut's): {scores[0].removeprefix('raw score ')}.",
        *(
            [
                f"**Reviewed score** (the gate): {scores[1].removeprefix('reviewed score ')}, from"
                " mutation-review.md as it was when this file was written (`toolproof mutation check`"
                " recomputes it from the current review; `toolproof mutation render` rewrites this file).",
            ]
            if len(scores) > 1
            else []
        ),
        *_duration_lines(report),
        "Kills by the killing run's exit code (1: a check failed; 3: the candidate broke): "
        + (", ".join(f"exit {k}: {v}" for k, v in report.get("kills_by_exit_code", {}).items()) or "none")
        + ".",
        "",
        "| status | mutants |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in counts.items() if v and k != "total"),
        f"| total | {counts['total']} |",
        "",
    ]
    if report.get("passes"):
        out += ["| run | pass (--candidate) | mutants run | killed | duration (s) |", "|---|---|---|---|---|"]
        out += [
            f"| {p.get('run', 'full')} | {p['candidate']} | {p['mutants_run']} | {p['killed']}"
            f" | {p['duration_s']:.0f} |"
            for p in report["passes"]
        ]
        out.append("")
    if report.get("shards"):
        out += ["| shard | mutated | duration (s) |", "|---|---|---|"]
        out += [f"| {x['path']} | {', '.join(x['mutated'])} | {x['duration_s']} |" for x in report["shards"]]
        out.append("")
    open_ = {n: r for n, r in report["mutants"].items() if r["status"] != KILLED}
    out += [
        "## Mutants not killed",
        "",
        "Each is reviewed in mutation-review.md by function and diff (not by mutmut's numbered name).",
        "",
    ]
    unreached = Counter(_label(r) for r in open_.values() if r["status"] == NO_TESTS)
    if unreached:
        out += ["No test reached these functions in-process (mutmut's no tests; reviewed per function):", ""]
        out += [f"- `{label}`: {n} mutants" for label, n in sorted(unreached.items())]
        out.append("")
    for name, record in sorted(open_.items(), key=lambda item: (_label(item[1]), item[0])):
        if record["status"] == NO_TESTS:
            continue
        passes = ", ".join(f"{c}: {p['status']}" for c, p in record["passes"].items())
        out += [f"### `{_label(record)}` - {record['status']}", "", f"{name} ({passes})", ""]
        out += ["```diff", record.get("diff", "").rstrip("\n"), "```", ""]
    if not open_:
        out += ["None.", ""]
    return "\n".join(out)


# ---------------------------------------------------------------- command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`toolproof mutation report|check|merge`."""
    sub = parser.add_subparsers(dest="mutation_command", required=True)
    report = sub.add_parser("report", help="run mutmut on the reference in a scratch copy; write the report")
    report.add_argument("--root", default=".", help="the project to copy (default: .)")
    report.add_argument("--source", action="append", default=[], help="mutate only this file (repeatable)")
    report.add_argument("--candidate", action="append", default=[], help="passes (default: pyproject)")
    report.add_argument("--max-children", type=int, default=None)
    report.add_argument("--output", default=None, help="report JSON (default: reports/mutation.json)")
    report.add_argument("--markdown", default=None, help="default: the JSON path with .md")
    report.add_argument("--keep-workdir", action="store_true", help="keep the scratch copies (path printed)")
    report.add_argument("--workdir", default=None, help="make the scratch copies here (emptied first; kept)")
    report.add_argument(
        "--pytest-arg", action="append", default=[], help="extra pytest argument for every pass (repeatable)"
    )
    report.add_argument(
        "--rerun",
        default=None,
        metavar="REPORT",
        help="re-run only the mutants REPORT did not kill (not the no-tests ones) on the same reference"
        " source, with the current suite; write REPORT merged with the rerun (to --output, default REPORT)",
    )
    report.add_argument(
        "--mutant",
        action="append",
        default=[],
        help="with --rerun: only this open mutant (mutmut name; repeatable), e.g. to try the rerun",
    )
    chk = sub.add_parser("check", help="fail on a stale report, a low score or an unreviewed mutant")
    chk.add_argument("--root", default=".")
    chk.add_argument("--report", default=None)
    chk.add_argument("--review", default=None)
    chk.add_argument("--skeleton", default=None, help="write review sections (verdict TODO) for open mutants")
    rnd = sub.add_parser(
        "render", help="rewrite the markdown of a report (with the reviewed score of the review)"
    )
    rnd.add_argument("--root", default=".")
    rnd.add_argument("--report", default=None)
    rnd.add_argument("--review", default=None)
    rnd.add_argument("--markdown", default=None, help="default: the report path with .md")
    mrg = sub.add_parser("merge", help="merge reports of disjoint shards (CI) into one")
    mrg.add_argument("shards", nargs="+")
    mrg.add_argument("--output", required=True)
    mrg.add_argument("--markdown", default=None)
    mrg.add_argument(
        "--review", default=None, help="mutation-review.md for the reviewed score in the markdown"
    )


def _write(report: dict[str, Any], output: Path, markdown: Path, review: Path | None = None) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    review_text = review.read_text(encoding="utf-8") if review is not None and review.exists() else None
    markdown.write_text(render_markdown(report, review_text), encoding="utf-8")
    print(f"mutation: {'; '.join(score_lines(report, review_text))}; wrote {output} and {markdown}")


def _rerun(root: Path, settings: dict[str, Any], args: argparse.Namespace) -> tuple[dict[str, Any], Path]:
    """`report --rerun REPORT`: refuse on other source, run the open mutants, merge."""
    path = Path(args.rerun)
    full = json.loads(path.read_text(encoding="utf-8"))
    if full.get("format") != FORMAT:
        raise MutationError(f"{path} is not a {FORMAT} document")
    current = source_hash(root, settings["sources"])
    if full["source"]["hash"] != current:
        raise MutationError(
            f"{path} was made on other reference source ({full['source']['hash']}); the current source is"
            f" {current}: a rerun would judge other mutants, run `tox -e mutation` instead"
        )
    if args.source:
        raise MutationError("--rerun mutates what the report mutated: no --source")
    names = rerun_names(full)
    if args.mutant:
        unknown = sorted(set(args.mutant) - set(names))
        if unknown:
            raise MutationError(f"not open in {path} (killed, no tests, or unknown): {unknown}")
        names = sorted(args.mutant)
    if not names:
        raise MutationError(f"{path} has no mutant left to re-run")
    settings["candidates"] = args.candidate or full["candidates"]
    workdir = Path(args.workdir).resolve() if args.workdir else None
    print(f"mutation: re-running {len(names)} mutants of {path} ({full['generated_at']})", flush=True)
    rerun = run_report(root, settings, full["mutated"], args.keep_workdir, workdir, only=names)
    return merge_rerun(full, rerun), path


def main(args: argparse.Namespace) -> int:
    """Dispatch `toolproof mutation ...`; returns the exit code."""
    try:
        if args.mutation_command == "merge":
            shards = [(p, json.loads(Path(p).read_text(encoding="utf-8"))) for p in args.shards]
            merged = merge(shards)
            output = Path(args.output)
            markdown = Path(args.markdown) if args.markdown else output.with_suffix(".md")
            _write(merged, output, markdown, Path(args.review) if args.review else None)
            return 0
        root = Path(args.root).resolve()
        settings = load_settings(root)
        review_path = Path(args.review) if getattr(args, "review", None) else root / settings["review"]
        if args.mutation_command == "render":
            report_path = Path(args.report) if args.report else root / settings["report"]
            rendered = json.loads(report_path.read_text(encoding="utf-8"))
            markdown = Path(args.markdown) if args.markdown else report_path.with_suffix(".md")
            review_text = review_path.read_text(encoding="utf-8") if review_path.exists() else None
            markdown.write_text(render_markdown(rendered, review_text), encoding="utf-8")
            print(f"mutation: {'; '.join(score_lines(rendered, review_text))}; wrote {markdown}")
            return 0
        if args.mutation_command == "report":
            if args.candidate:
                settings["candidates"] = args.candidate
            if args.max_children:
                settings["max_children"] = args.max_children
            settings["pytest_args"] = [*settings.get("pytest_args", []), *args.pytest_arg]
            if args.rerun:
                report, rerun_of = _rerun(root, settings, args)
                output = Path(args.output) if args.output else rerun_of
            else:
                workdir = Path(args.workdir).resolve() if args.workdir else None
                mutate = [relative_source(root, s) for s in args.source] or settings["sources"]
                report = run_report(root, settings, mutate, args.keep_workdir, workdir)
                output = Path(args.output) if args.output else root / settings["report"]
            markdown = Path(args.markdown) if args.markdown else output.with_suffix(".md")
            _write(report, output, markdown, root / settings["review"])
            return 0
        report_path = Path(args.report) if args.report else root / settings["report"]
        if not report_path.exists():
            print(
                f"toolproof mutation check: {report_path} is missing: run `tox -e mutation`", file=sys.stderr
            )
            return 1
        report = json.loads(report_path.read_text(encoding="utf-8"))
        review = review_path.read_text(encoding="utf-8") if review_path.exists() else ""
        current = source_hash(root, settings["sources"])
        problems, notes = check(report, review, current, float(settings["threshold"]))
        if args.skeleton:
            Path(args.skeleton).write_text(review_skeleton(report, review), encoding="utf-8")
            print(f"wrote review sections to fill in to {args.skeleton}")
    except MutationError as exc:
        print(f"toolproof mutation: {exc}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"note: {note}")
    for problem in problems:
        print(f"FAIL {problem}")
    verdict = "FAILED" if problems else "ok"
    for line in score_lines(report, review):
        print(line)
    print(
        f"mutation check {verdict}: the reviewed score is gated at threshold"
        f" {float(settings['threshold']):g}%, {len(problems)} problem(s)"
    )
    return 1 if problems else 0
