"""`toolproof matrix`: run the suite against several runtimes (or merge their reports) into one matrix.

Columns come from `--candidate NAME=SPEC` (run the suite now, in a subprocess),
`--candidate NAME` (a bundled runtime, prepared in its own environment under
--work-dir), `--from-reports NAME=PATH` (a `--report-json` file written
elsewhere, e.g. by a tox env of its own) and `--from-matrix NAME=PATH` (column
NAME of an earlier matrix.json, its verdicts kept as they were: a run not
repeated when the contract grew reads `not run` on the new requirements), in
the order given. With none of
them, every bundled runtime is run. Arguments after `--` go to every run's
pytest. Writes <out-dir>/matrix.{json,md,html}.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from toolproof import adapter as kit_module
from toolproof.connect.connectables import REFERENCE_PROFILES
from toolproof.errors import UsageError
from toolproof.invocation import suite_pytest_args
from toolproof.judge.expected import Expected, load_baseline
from toolproof.report import exitcodes
from toolproof.report.html import render_html
from toolproof.report.matrix import (
    READABLE_REPORT_VERSIONS,
    Column,
    build_matrix,
    carried_column,
    counts,
    render_markdown,
)

RUN_TIMEOUT = 1200.0
SETUP_TIMEOUT = 900.0
# By name: the checkout keeps candidates/ beside the package, the wheel maps it inside (HACKING.md).
CANDIDATES_ROOT = Path(importlib.import_module("toolproof.candidates").__file__ or "").resolve().parent
#: The Python adapter kit, stdlib only: copied beside the bundled adapters for the runtimes' own venvs.
KIT = Path(kit_module.__file__).resolve()
_COPY_IGNORE = shutil.ignore_patterns("__pycache__", "node_modules", ".venv", "*.pyc")
# The Node adapter kit, copied beside a Node adapter: the copy under <work>/src has no toolproof/ above it.
NODE_KIT = Path(__file__).resolve().parents[1] / "adapter_kit.mjs"


@dataclass(frozen=True)
class Bundled:
    """A runtime that ships with toolproof, and how to give it an environment of its own."""

    name: str
    kind: Literal["inprocess", "python", "node"]
    spec: str = ""  # inprocess: the --candidate shorthand
    package: str = ""  # python/node: the directory under candidates/
    profile: str = ""  # python/node: the adapter's --profile (its default when empty)
    baseline: str = "expected-failures.yaml"  # python/node: the baseline file in candidates/<package>/
    env: str = ""  # python: the venv under <work>/venvs (default: name); profiles of one runtime share one
    pytest_args: tuple[
        str, ...
    ] = ()  # added to this column's suite run (before the command line's `--` ones)

    @property
    def arguments(self) -> str:
        """The adapter's command-line arguments (` --profile NAME`, or nothing)."""
        return f" --profile {self.profile}" if self.profile else ""


def profiled(runtime: Bundled, path: str) -> Bundled:
    """Another column of a bundled runtime: its adapter's `<name>-<path>` profile, with the baseline
    `expected-failures-<path>.yaml`, in the same environment."""
    name = f"{runtime.name}-{path}"
    env = runtime.name if runtime.kind == "python" else ""
    return Bundled(
        name,
        runtime.kind,
        package=runtime.package,
        profile=name,
        baseline=f"expected-failures-{path}.yaml",
        env=env,
    )


TRANSPORT_SELECTION = ("-k", "toolsets")
"""What a transport column runs: the toolsets tests (listing, namespacing, dedup, the servers'
isolation), where a server's transport changes what is judged. The tests that pin a transport
themselves (the stdio and sse requirements, capability mcp.stdio / mcp.sse) already run in the
runtime's default column; the rest of the suite over stdio would judge the same tool loop again."""


def over_transport(runtime: Bundled, transport: str) -> Bundled:
    """The `<name>-<transport>` column of a bundled runtime: the same adapter and profile, its
    toolsets tests with every CONFIG server the suite builds given as a `transport` entry
    (`--toolproof-mcp-transport`), the baseline `expected-failures-<transport>.yaml`, in the same
    environment."""
    return Bundled(
        f"{runtime.name}-{transport}",
        runtime.kind,
        spec=runtime.spec,
        package=runtime.package,
        profile=runtime.profile,
        baseline=f"expected-failures-{transport}.yaml",
        env=(runtime.env or runtime.name) if runtime.kind == "python" else "",
        pytest_args=("--toolproof-mcp-transport", transport, *TRANSPORT_SELECTION),
    )


def streaming(runtime: Bundled) -> Bundled:
    """The streaming column of a bundled runtime (`<name>-stream`)."""
    return profiled(runtime, "stream")


def responses(runtime: Bundled) -> Bundled:
    """The Responses API column of a bundled runtime (`<name>-responses`)."""
    return profiled(runtime, "responses")


def anthropic(runtime: Bundled) -> Bundled:
    """The Anthropic Messages API column of a bundled runtime (`<name>-anthropic`)."""
    return profiled(runtime, "anthropic")


REFERENCE = Bundled("reference", "inprocess", spec="reference")
OPENAI_AGENTS = Bundled("openai-agents", "python", package="openai_agents")
PYDANTIC_AI = Bundled("pydantic-ai", "python", package="pydantic_ai")
AGNO = Bundled("agno", "python", package="agno")
STRANDS_AGENTS = Bundled("strands-agents", "python", package="strands_agents")
AGENT_FRAMEWORK = Bundled("agent-framework", "python", package="agent_framework")
HAYSTACK_AI = Bundled("haystack-ai", "python", package="haystack_ai")
LANGCHAIN = Bundled("langchain", "python", package="langchain")
VERCEL_AI = Bundled("vercel-ai", "node", package="vercel_ai")

# A `-stdio` column for every runtime whose adapter claims mcp.stdio (its README says how, with
# the runtime's file:line), and the reference on both other transports, in-process.
BUNDLED: tuple[Bundled, ...] = (
    *(Bundled(profile, "inprocess", spec=profile) for profile in REFERENCE_PROFILES),
    over_transport(REFERENCE, "stdio"),
    over_transport(REFERENCE, "sse"),
    OPENAI_AGENTS,
    streaming(OPENAI_AGENTS),
    responses(OPENAI_AGENTS),
    profiled(OPENAI_AGENTS, "responses-chained"),
    over_transport(OPENAI_AGENTS, "stdio"),
    PYDANTIC_AI,
    streaming(PYDANTIC_AI),
    responses(PYDANTIC_AI),
    anthropic(PYDANTIC_AI),
    over_transport(PYDANTIC_AI, "stdio"),
    AGNO,
    streaming(AGNO),
    anthropic(AGNO),
    over_transport(AGNO, "stdio"),
    STRANDS_AGENTS,
    over_transport(STRANDS_AGENTS, "stdio"),
    AGENT_FRAMEWORK,
    over_transport(AGENT_FRAMEWORK, "stdio"),
    HAYSTACK_AI,
    over_transport(HAYSTACK_AI, "stdio"),
    LANGCHAIN,
    anthropic(LANGCHAIN),
    over_transport(LANGCHAIN, "stdio"),
    VERCEL_AI,
    streaming(VERCEL_AI),
    responses(VERCEL_AI),
    anthropic(VERCEL_AI),
    over_transport(VERCEL_AI, "stdio"),
)


@dataclass(frozen=True)
class Target:
    """One column to produce: run `spec` (prepared from `bundled` if set), or load `report`."""

    name: str
    spec: str = ""
    bundled: Bundled | None = None
    report: Path | None = None
    carried: Path | None = None
    """An earlier matrix.json whose column `name` is kept as it was (`--from-matrix`)."""


@dataclass(frozen=True)
class Prepared:
    """A spec ready to run, with the directory a cmd: candidate starts in."""

    spec: str
    cwd: Path | None = None


class SetupFailed(Exception):
    """A bundled runtime's environment could not be prepared."""


class _Ordered(argparse.Action):
    """Append (option kind, value) to one list so that columns keep the command line's order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        targets = list(getattr(namespace, "targets", None) or [])
        targets.append((self.const, str(values)))
        namespace.targets = targets


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `toolproof matrix` options."""
    names = ", ".join(b.name for b in BUNDLED)
    parser.add_argument(
        "--candidate",
        action=_Ordered,
        const="run",
        dest="targets",
        metavar="NAME[=SPEC]",
        help=f"run the suite against SPEC as column NAME; NAME alone is a bundled runtime ({names})",
    )
    parser.add_argument(
        "--from-reports",
        action=_Ordered,
        const="report",
        dest="targets",
        metavar="NAME=PATH",
        help="a --report-json file as column NAME (repeatable)",
    )
    parser.add_argument(
        "--from-matrix",
        action=_Ordered,
        const="matrix",
        dest="targets",
        metavar="NAME=PATH",
        help="column NAME of an earlier matrix.json, kept as it was (repeatable)",
    )
    parser.add_argument(
        "--expected-failures",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="the baseline of column NAME: passed to its run, and its reasons shown (repeatable); "
        "bundled runtimes use candidates/<pkg>/expected-failures.yaml",
    )
    parser.add_argument("--out-dir", default="reports", help="where matrix.{json,md,html} go")
    parser.add_argument("--work-dir", default="out/matrix", help="environments, reports and logs of the runs")
    parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers per run (1: none)")


def _split(value: str, option: str, *, required: bool) -> tuple[str, str]:
    name, sep, rest = value.partition("=")
    if not name or (required and not (sep and rest)):
        raise UsageError(f"{option} {value!r}: expected NAME=VALUE")
    return name, rest


def targets_from(args: argparse.Namespace) -> list[Target]:
    """The columns, in command-line order; every bundled runtime when none is named."""
    raw: list[tuple[str, str]] = list(getattr(args, "targets", None) or [])
    if not raw:
        return [Target(b.name, bundled=b) for b in BUNDLED]
    bundled = {b.name: b for b in BUNDLED}
    out = []
    for kind, value in raw:
        if kind == "report":
            name, path = _split(value, "--from-reports", required=True)
            out.append(Target(name, report=Path(path)))
            continue
        if kind == "matrix":
            name, path = _split(value, "--from-matrix", required=True)
            out.append(Target(name, carried=Path(path)))
            continue
        name, spec = _split(value, "--candidate", required=False)
        if spec:
            out.append(Target(name, spec=spec))
        elif name in bundled:
            out.append(Target(name, bundled=bundled[name]))
        else:
            raise UsageError(
                f"--candidate {value!r}: not a bundled runtime ({', '.join(bundled)}); use NAME=SPEC"
            )
    names = [t.name for t in out]
    if len(set(names)) != len(names):
        raise UsageError(f"column names must be unique: {names}")
    return out


def baselines_from(args: argparse.Namespace, targets: list[Target]) -> dict[str, Path]:
    """NAME -> baseline path: --expected-failures, else the own file of the bundled runtime of that name."""
    out: dict[str, Path] = {}
    bundled = {b.name: b for b in BUNDLED if b.package}
    for target in targets:
        if target.name in bundled:
            own = CANDIDATES_ROOT / bundled[target.name].package / bundled[target.name].baseline
            if own.is_file():
                out[target.name] = own
    for value in args.expected_failures:
        name, path = _split(value, "--expected-failures", required=True)
        out[name] = Path(path)
    return out


def _digest(*files: Path) -> str:
    sha = hashlib.sha256()
    for file in files:
        sha.update(file.read_bytes())
    return sha.hexdigest()


def _setup(command: list[str], cwd: Path | None, log: Path) -> None:
    with log.open("a", encoding="utf-8") as sink:
        sink.write(f"$ {' '.join(command)}\n")
        sink.flush()
        try:
            done = subprocess.run(
                command, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, timeout=SETUP_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SetupFailed(f"{command[0]}: {exc}") from exc
    if done.returncode != 0:
        raise SetupFailed(f"`{' '.join(command)}` exited {done.returncode} (log: {log})")


def _copy_package(bundled: Bundled, work: Path, needed: tuple[str, ...]) -> Path:
    """Copy candidates/<pkg> into <work>/src, so nothing is written into the checkout or the install."""
    source = CANDIDATES_ROOT / bundled.package
    missing = [name for name in needed if not (source / name).is_file()]
    if missing:
        raise SetupFailed(f"candidates/{bundled.package}/{missing[0]} not found")
    root = work / "src"
    (root / "candidates").mkdir(parents=True, exist_ok=True)
    (root / "candidates" / "__init__.py").write_text("", encoding="utf-8")
    target = root / "candidates" / bundled.package
    shutil.copytree(source, target, ignore=_COPY_IGNORE, dirs_exist_ok=True)
    return target


def prepare(bundled: Bundled, work: Path, log: Path) -> Prepared:
    """Give a bundled runtime its environment (reused while its lock/requirements are unchanged)."""
    if bundled.kind == "inprocess":
        return Prepared(bundled.spec)
    if bundled.kind == "node":
        package = _copy_package(bundled, work, ("adapter.mjs", "package.json", "package-lock.json"))
        shutil.copyfile(NODE_KIT, package / NODE_KIT.name)
        stamp = package / "node_modules" / ".toolproof-stamp"
        digest = _digest(package / "package-lock.json")
        if not stamp.is_file() or stamp.read_text(encoding="utf-8") != digest:
            _setup(["npm", "ci", "--no-audit", "--no-fund"], package, log)
            stamp.write_text(digest, encoding="utf-8")
        return Prepared(f"cmd:node {package / 'adapter.mjs'}{bundled.arguments}", cwd=package)
    package = _copy_package(bundled, work, ("adapter.py", "requirements.txt"))
    # The adapter imports the kit as `toolproof.adapter`; the runtime's venv has no toolproof, so
    # <work>/src mirrors the checkout (candidates/ beside toolproof/adapter.py, a namespace package).
    kit = work / "src" / "toolproof" / "adapter.py"
    kit.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(KIT, kit)
    venv = work / "venvs" / (bundled.env or bundled.name)
    python = venv / "bin" / "python"
    stamp = venv / ".toolproof-stamp"
    digest = _digest(package / "requirements.txt")
    if not stamp.is_file() or stamp.read_text(encoding="utf-8") != digest:
        _setup([sys.executable, "-m", "venv", "--clear", str(venv)], None, log)
        _setup(
            [str(python), "-m", "pip", "install", "-q", "-r", str(package / "requirements.txt")], None, log
        )
        stamp.write_text(digest, encoding="utf-8")
    return Prepared(
        f"cmd:{python} -m candidates.{bundled.package}.adapter{bundled.arguments}", cwd=work / "src"
    )


def run_suite(
    name: str, prepared: Prepared, baseline: Path | None, work: Path, jobs: int, extra: Sequence[str] = ()
) -> Column:
    """Run the whole suite against one spec in a subprocess; its --report-json is the column."""
    report = work / "reports" / f"{name}.json"
    report.unlink(missing_ok=True)
    log = work / "logs" / f"{name}.log"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *suite_pytest_args(),
        "-q",
        f"--candidate={prepared.spec}",
        "--report-json",
        str(report),
    ]
    if jobs > 1:
        command += ["-n", str(jobs)]
    if baseline is not None:
        command += ["--expected-failures", str(baseline.resolve())]
    if prepared.cwd is not None:
        command += ["--toolproof-cwd", str(prepared.cwd)]
    command += extra
    # A scratch directory: a checkout's candidates/ must never shadow the installed package.
    with tempfile.TemporaryDirectory(prefix=f"toolproof-matrix-{name}-") as scratch, log.open("a") as sink:
        sink.write(f"$ {' '.join(command)}\n")
        sink.flush()
        try:
            subprocess.run(
                command, cwd=scratch, stdout=sink, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            return Column(name, prepared.spec, None, error=f"the suite run timed out after {RUN_TIMEOUT:g} s")
    return load_column(name, report, source=prepared.spec, missing=f"the suite wrote no report (log: {log})")


def load_column(name: str, path: Path, *, source: str, missing: str = "") -> Column:
    """A column from a --report-json file (an error column when it is missing or unreadable)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Column(name, source, None, error=missing or f"report not found: {path}")
    except (OSError, ValueError) as exc:
        return Column(name, source, None, error=f"report unreadable: {path}: {exc}")
    # Version 1 (before findings) still reads: report/matrix.py takes its `group` as the observation
    # and each failing check as a finding of its own.
    if not isinstance(document, dict) or document.get("report_version") not in READABLE_REPORT_VERSIONS:
        return Column(name, source, None, error=f"not a toolproof report (report_version 1 or 2): {path}")
    return Column(name, source, document)


def carry_column(name: str, path: Path) -> Column:
    """Column `name` of the matrix.json at `path`, kept as it was (an error column when the file is
    missing or unreadable, or has no such column). Its baseline reasons come with it."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return carried_column(document, name, str(path))
    except FileNotFoundError:
        return Column(name, str(path), None, error=f"matrix not found: {path}")
    except (OSError, ValueError) as exc:
        return Column(name, str(path), None, error=f"matrix unreadable: {path}: {exc}")
    except KeyError:
        return Column(name, str(path), None, error=f"{path} has no column {name!r}")


def _with_baseline(column: Column, baseline: Path | None) -> Column:
    if baseline is None:
        return column
    reasons: dict[str, Expected] = load_baseline(baseline)
    return Column(column.name, column.source, column.report, column.error, reasons)


def produce(
    target: Target, baseline: Path | None, work: Path, jobs: int, extra: Sequence[str] = ()
) -> Column:
    """One column: load its report, carry it from an earlier matrix, or prepare and run its candidate."""
    if target.carried is not None:
        return carry_column(target.name, target.carried)
    if target.report is not None:
        return _with_baseline(load_column(target.name, target.report, source=str(target.report)), baseline)
    (work / "logs").mkdir(parents=True, exist_ok=True)
    (work / "reports").mkdir(parents=True, exist_ok=True)
    log = work / "logs" / f"{target.name}.log"
    log.write_text("", encoding="utf-8")
    try:
        prepared = prepare(target.bundled, work, log) if target.bundled else Prepared(target.spec)
    except SetupFailed as exc:
        return Column(target.name, target.spec or target.name, None, error=str(exc))
    own = target.bundled.pytest_args if target.bundled else ()
    return _with_baseline(run_suite(target.name, prepared, baseline, work, jobs, (*own, *extra)), baseline)


def _describe(column: Column, document: dict[str, Any]) -> str:
    if column.report is None:
        return f"NOT RUN: {column.error}"
    c = counts(document, column.name)
    summary = column.report.get("summary", {})
    stale = summary.get("stale_baseline_entries", 0)
    text = (
        f"exit {column.report.get('exit_status')}; {c['findings']} findings; requirements: {c['pass']} pass, "
        f"{c['fail_must']} fail MUST, {c['fail_should']} fail SHOULD, {c['expected']} expected, "
        f"{c['undecided']} undecided, "
        f"{c['not_claimed']} not claimed"
    )
    return text + (f"; {stale} STALE baseline entries" if stale else "")


def main(args: argparse.Namespace, passthrough: Sequence[str] = ()) -> int:
    """Produce every column, write the matrix files; exit 3 when a column could not be produced."""
    targets = targets_from(args)
    baselines = baselines_from(args, targets)
    work = Path(args.work_dir).resolve()
    columns, seconds = [], {}
    for target in targets:
        started = time.monotonic()
        print(f"matrix: {target.name} ...", flush=True)
        columns.append(produce(target, baselines.get(target.name), work, args.jobs, passthrough))
        seconds[target.name] = time.monotonic() - started
    document = build_matrix(columns)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "matrix.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (out / "matrix.md").write_text(render_markdown(document), encoding="utf-8")
    (out / "matrix.html").write_text(render_html(document), encoding="utf-8")
    for column in columns:
        print(f"  {column.name:<24} {seconds[column.name]:6.1f} s  {_describe(column, document)}")
    print(f"wrote {out / 'matrix.json'}, {out / 'matrix.md'} and {out / 'matrix.html'}")
    broken = [c.name for c in columns if c.report is None]
    return exitcodes.CANDIDATE_BROKEN if broken else exitcodes.OK
