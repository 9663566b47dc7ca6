"""One mutmut pass: a scratch copy of the project set up for one --candidate, run, and its results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolproof.controls.control import PROFILES, candidate_spec
from toolproof.mutation.model import MutationError, _status, function_of
from toolproof.mutation.settings import SUITE_TESTS, source_hash

_IGNORED_DIRS = {".git", ".tox", "__pycache__", "mutants", "node_modules", ".venv", "out", ".mypy_cache"}


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


PIPE_SUFFIX = "-pipe"
"""`reference-pipe` (any bundled profile + PIPE_SUFFIX): the profile through its adapter's JSON Lines loop."""


def pass_spec(candidate: str) -> str:
    """The --candidate of the pass `candidate`, aimed at the scratch copy's top-level `candidates`.

    A bundled profile (`reference`) is its adapter object in-process (`py:`). The same name with
    PIPE_SUFFIX (`reference-pipe`) is that object behind the adapter's own JSON Lines loop on a
    thread over OS pipes (`pipe:`, toolproof.connect.pipe): the protocol layer a `cmd:` user depends
    on (line reading, decoding, dispatch, request validation, the writer) then runs in the test
    process, where mutmut sees it. Anything else is a spec, as given.
    """
    if candidate in PROFILES:
        return candidate_spec(candidate, "py")
    profile = candidate.removesuffix(PIPE_SUFFIX)
    if candidate.endswith(PIPE_SUFFIX) and profile in PROFILES:
        return "pipe:" + candidate_spec(profile, "py").removeprefix("py:")
    return candidate


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
    a bundled profile name becomes a `py:candidates.reference...` spec of that copy (`pipe:` with the
    `-pipe` suffix: `pass_spec`).
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
    spec = pass_spec(candidate)
    top = sorted(p.name for p in workdir.iterdir() if p.name not in {"mutants", "pyproject.toml", ".git"})
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
    entries: dict[str, object] = {
        "source_paths": list(mutate),
        "also_copy": top,
        "pytest_add_cli_args_test_selection": list(tests),
        "pytest_add_cli_args": [
            # As `toolproof run` starts the suite (toolproof.invocation), with the rootdir
            # left at mutmut's working directory: mutmut passes node IDs back as paths from there.
            *("-p", "toolproof.plugin", "--noconftest", "-c", f"{SUITE_TESTS}/pytest.ini", "--rootdir", "."),
            *("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "toolproof.mutation.plugin"),
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


WIDENED = "toolproof-widened.json"
"""Where a pass records the session-setup functions it gave every test (read back on `--resume`)."""


def run_pass(workdir: Path, candidate: str, names: list[str] | None, max_children: int) -> PassResult:
    """Collect stats, widen session-setup functions, `mutmut run` (all or `names`), collect results."""
    started = time.monotonic()
    log = workdir / "mutmut-run.log"
    stats_only(workdir, max_children, log)
    widened = widen_session_functions(workdir)
    (workdir / WIDENED).write_text(json.dumps(widened), encoding="utf-8")
    _mutmut(workdir, "run", "--max-children", str(max_children), *(names or ()), log=log)
    result = collect_pass(workdir, candidate, names, time.monotonic() - started)
    result.widened = [function_of(w + "__mutmut_") for w in widened]
    return result


def resume_pass(workdir: Path, candidate: str, names: list[str] | None, max_children: int) -> PassResult:
    """`mutmut run` again in a pass `run_pass` began and something stopped (a session's end, a kill).

    mutmut keeps every verdict its .meta files recorded and runs only the mutants without one; the
    stats are not collected again (that would reset every verdict). The pass's duration is this
    part's only.
    """
    started = time.monotonic()
    log = workdir / "mutmut-run.log"
    _mutmut(workdir, "run", "--max-children", str(max_children), *(names or ()), log=log)
    result = collect_pass(workdir, candidate, names, time.monotonic() - started)
    recorded = workdir / WIDENED
    widened: list[str] = json.loads(recorded.read_text(encoding="utf-8")) if recorded.exists() else []
    result.widened = [function_of(w + "__mutmut_") for w in widened]
    return result


def check_resumable(root: Path, workdir: Path, sources: Sequence[str]) -> None:
    """Refuse to resume a pass whose scratch copy holds other reference source than `root`'s: its
    verdicts would be of other mutants, and the report would be stale the moment it is written."""
    if not (workdir / "mutants" / "mutmut-stats.json").exists():
        raise MutationError(f"{workdir}: no mutmut stats: the pass never started; run without --resume")
    theirs, ours = source_hash(workdir, sources), source_hash(root, sources)
    if theirs != ours:
        raise MutationError(
            f"{workdir} holds other reference source ({theirs}) than {root} ({ours}): run without --resume"
        )


def collect_pass(workdir: Path, candidate: str, names: list[str] | None, duration: float) -> PassResult:
    """Statuses (`mutmut results --all true`, exit codes from .meta) and `mutmut export-cicd-stats`."""
    _mutmut(workdir, "export-cicd-stats")
    stats = json.loads((workdir / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    results = parse_results(_mutmut(workdir, "results", "--all", "true"))
    codes, files = _exit_codes(workdir)
    wanted = set(results) if names is None else set(names)
    statuses = {n: (_status(s, codes.get(n)), codes.get(n)) for n, s in results.items() if n in wanted}
    return PassResult(candidate, workdir, statuses, stats, round(duration, 1), names, files)
