"""The `toolproof` command line: run, smoke, probe, controls, baseline update."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolproof.connect.connectables import ConnectSettings
from toolproof.errors import UsageError
from toolproof.report import exitcodes

_EPILOG = "exit codes: " + " | ".join(
    line.strip() for line in (exitcodes.__doc__ or "").splitlines() if line[:1].isdigit()
)


class _Judged:
    """Tells `_run` whether the plugin judged the run (it set its final verdict) or never got there."""

    judged = False
    usage = False  # the plugin stopped on a usage error (its 2 is not pytest's 2, interrupted)

    def pytest_unconfigure(self, config: Any) -> None:
        from toolproof.plugin.hooks import FINAL, USAGE  # imported by pytest by now: no early import

        self.judged = config.stash.get(FINAL, None) is not None
        self.usage = config.stash.get(USAGE, None) is not None


# pytest's own status when the plugin never judged the run -> toolproof's exit code.
_UNJUDGED = {
    0: exitcodes.OK,  # --collect-only, --help, --version
    5: exitcodes.EMPTY,  # nothing collected (a -k that selects nothing)
    4: exitcodes.USAGE,  # pytest's usage error: a bad option or argument
}


def _run(args: argparse.Namespace, passthrough: list[str]) -> int:
    import pytest

    from toolproof.invocation import suite_pytest_args

    seen = _Judged()
    try:
        arguments = [*suite_pytest_args(config=args.pytest_config), "--candidate", args.candidate]
        status = int(pytest.main([*arguments, *passthrough], [seen]))
    except Exception as exc:  # pytest itself failed to start (a plugin clash, a broken install)
        print(f"toolproof: the suite could not be started: {exc!r}", file=sys.stderr)
        return exitcodes.HARNESS
    if seen.judged:
        return status  # the plugin judged the run and set the status
    if seen.usage:
        return exitcodes.USAGE  # its message is printed already
    code = _UNJUDGED.get(status, exitcodes.HARNESS)
    if code not in (exitcodes.OK, exitcodes.EMPTY):
        print(f"toolproof: the suite did not run to a verdict (pytest status {status})", file=sys.stderr)
    return code


def _existing_file(value: str) -> Path:
    path = Path(value).resolve()
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{value}: no such file")
    return path


def _smoke(args: argparse.Namespace) -> int:
    from toolproof.connect.connectables import resolve
    from toolproof.connect.stdio import default_trace
    from toolproof.tools.smoke import run_smoke

    resolve(args.candidate)  # a bad spec is a usage error (exit 2), not a broken candidate (3)
    settings = ConnectSettings(
        timeout=args.timeout,
        startup_grace=args.startup_grace,
        trace=default_trace() if args.trace_protocol else None,
    )
    steps = run_smoke(args.candidate, settings, sys.stdout)
    return exitcodes.OK if steps and all(s.ok for s in steps) else exitcodes.CANDIDATE_BROKEN


def _probe(args: argparse.Namespace, passthrough: list[str]) -> int:
    from toolproof.connect.candidate import Candidate
    from toolproof.connect.connectables import connect, resolve
    from toolproof.errors import ToolproofError
    from toolproof.judge.declared import option_defaults
    from toolproof.tools.probe import main as probe_main

    resolve(args.candidate)  # a bad spec is a usage error (exit 2), not a broken candidate (3)
    settings = ConnectSettings(timeout=args.timeout, startup_grace=args.startup_grace)
    try:  # fail closed: no probe of a candidate that cannot even say hello
        candidate = Candidate(connect(args.candidate, settings), timeout=settings.timeout)
        try:
            declared = candidate.hello()
        finally:
            candidate.shutdown()
    except (ToolproofError, OSError) as exc:
        print(f"toolproof probe: the candidate did not answer hello: {exc}", file=sys.stderr)
        return exitcodes.CANDIDATE_BROKEN
    timeouts = [
        "--toolproof-timeout",
        str(args.timeout),
        "--toolproof-startup-grace",
        str(args.startup_grace),
    ]
    output = Path(args.output) if args.output else None
    only = frozenset(args.only) if args.only else None
    unknown = sorted((only or frozenset()) - set(declared.options))
    if unknown:
        raise UsageError(f"probe --only: unknown option(s) {', '.join(unknown)} (contracts/options.yaml)")
    start = option_defaults() if args.from_defaults else None
    return probe_main(
        args.candidate, declared, [*timeouts, *passthrough], output, sys.stdout, only, start, args.every_value
    )


def _comment_lines(text: str) -> int:
    """How many lines the opening comment block of `text` has."""
    count = 0
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        count += 1
    return count


def _baseline_update(args: argparse.Namespace) -> int:
    import yaml

    from toolproof.judge.expected import baseline_from_report, explore_only, load_baseline, migrate_baseline

    output = Path(args.output)
    if args.report is None and not output.exists():
        raise UsageError(f"baseline update: {output} does not exist (give --report to write one)")
    old_text = output.read_text(encoding="utf-8") if output.exists() else ""
    # The file's opening comment block (what the baseline is about) survives; comments between
    # entries do not (the entries are rewritten): say why there in each entry's reason instead.
    header = "".join(line for line in old_text.splitlines(keepends=True)[: _comment_lines(old_text)])

    def write(document: dict[str, Any]) -> None:
        output.write_text(
            header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )

    previous = {}
    candidate = None
    if output.exists():
        # First onto the current contract version: retired IDs dropped, every reason kept.
        migrated, dropped = migrate_baseline(output)
        for gone in dropped:
            print(f"dropped {gone.describe()}")
        write(migrated)
        previous = load_baseline(output)  # validates what is left (an unknown ID still fails)
        candidate = migrated.get("candidate")
        if args.report is None:
            print(f"migrated {output}: {len(previous)} entries kept, {len(dropped)} retired dropped")
            return exitcodes.OK
    report = json.loads(Path(args.report).read_text(encoding="utf-8"))
    document = baseline_from_report(report, previous, candidate=candidate)
    for skipped in explore_only(report):
        print(skipped)
    write(document)
    print(f"wrote {len(document['expected_failures'])} entries to {args.output}")
    return exitcodes.OK


def _controls(args: argparse.Namespace) -> int:
    from toolproof.controls.runner import main as controls_main

    return controls_main(mode=args.mode, jobs=args.jobs, only=args.only, out_dir=Path(args.out_dir))


def _traceability(args: argparse.Namespace) -> int:
    from toolproof.controls.control import declared_kills
    from toolproof.report import traceability

    controls = json.loads(Path(args.controls).read_text(encoding="utf-8")) if args.controls else None
    table = traceability.build(declared_kills(), controls)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(traceability.render_markdown(table), encoding="utf-8")
    out.with_suffix(".json").write_text(
        json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {out} and {out.with_suffix('.json')}")
    return exitcodes.OK


def _matrix(args: argparse.Namespace, passthrough: list[str]) -> int:
    from toolproof.tools.matrix import main as matrix_main

    return matrix_main(args, passthrough)


def _mutation(args: argparse.Namespace) -> int:
    from toolproof.mutation.cli import main as mutation_main

    return mutation_main(args)


def _bench(args: argparse.Namespace) -> int:
    from toolproof.tools.bench import main as bench_main

    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="toolproof", description=__doc__, epilog=_EPILOG, allow_abbrev=False
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="run the conformance suite against a candidate (extra args go to pytest)",
        epilog=_EPILOG,
        allow_abbrev=False,  # what it does not know goes to pytest: never taken as a prefix of --candidate
    )
    run.add_argument(
        "--candidate", default="reference", help="reference | py:pkg.mod:factory | cmd:<command>"
    )
    run.add_argument(
        "--pytest-config",
        type=_existing_file,
        default=None,
        metavar="FILE",
        help="take pytest settings (addopts, toolproof_* ini keys) from FILE; by default the suite "
        "uses its own and none of the working directory's (conftest.py files are never loaded)",
    )

    smoke = sub.add_parser("smoke", help="check an adapter's protocol conduct only")
    smoke.add_argument("--candidate", default="reference")
    smoke.add_argument("--timeout", type=float, default=60.0)
    smoke.add_argument("--startup-grace", type=float, default=20.0)
    smoke.add_argument("--trace-protocol", action="store_true", help="print every line exchanged (stderr)")

    probe = sub.add_parser(
        "probe",
        help="propose hello.options: run the scenarios that tell each relevant option's values apart",
        description="For every option the candidate's capabilities make relevant, run the suite's tests"
        " that read it under the declaration, and, where they fail, once per listed value; print, per"
        " option: the value the runtime behaved like (as declared, or with the checks that told it"
        " apart), 'no declared value fits' (what failed: a defect is never declared away), 'ambiguous'"
        " (nothing proposed), or 'declare from the runtime's source' (the question to answer). A"
        " proposal, never a verdict: `toolproof run` judges the declaration. Extra args go to pytest"
        " (e.g. --toolproof-env KEY=VALUE).",
        epilog="exit codes: 0 the probe ran (whatever it found) | 2 usage error | 3 the candidate could"
        " not be started or did not answer hello | 4 toolproof failed (harness error)",
        allow_abbrev=False,
    )
    probe.add_argument("--candidate", required=True, help="reference | py:pkg.mod:factory | cmd:<command>")
    probe.add_argument(
        "--output", default=None, metavar="FILE", help="write the proposed hello.options (JSON)"
    )
    probe.add_argument(
        "--only", action="append", default=None, metavar="OPTION", help="probe only this option (repeatable)"
    )
    probe.add_argument(
        "--from-defaults",
        action="store_true",
        help="start from every option's default (what a fresh `toolproof init` skeleton declares),"
        " not from what hello declares",
    )
    probe.add_argument(
        "--every-value",
        action="store_true",
        help="try every listed value of every option, not only of those whose tests fail under the"
        " declaration (slower; each line then names the checks that told the values apart)",
    )
    probe.add_argument("--timeout", type=float, default=60.0, help="seconds a candidate may take per request")
    probe.add_argument("--startup-grace", type=float, default=20.0)

    controls = sub.add_parser("controls", help="run the negative controls and write the kill matrix")
    controls.add_argument("--mode", choices=("named", "full"), default="named")
    controls.add_argument("--jobs", type=int, default=2)
    controls.add_argument("--only", action="append", default=[], help="run only this control (repeatable)")
    controls.add_argument("--out-dir", default="reports")

    trace = sub.add_parser("traceability", help="write the requirement -> check -> test -> control table")
    trace.add_argument("--controls", default=None, help="a controls.json to show observed verdicts")
    trace.add_argument("--out", default="reports/traceability.md")

    from toolproof.tools.matrix import add_arguments as matrix_arguments

    matrix_arguments(
        sub.add_parser(
            "matrix", help="run several runtimes (or merge their reports) into the conformance matrix"
        )
    )

    from toolproof.mutation.cli import add_arguments as mutation_arguments
    from toolproof.tools.bench import add_arguments as bench_arguments

    mutation_arguments(
        sub.add_parser("mutation", help="mutation report of the reference (mutmut), check, merge")
    )
    bench_arguments(
        sub.add_parser("bench", help="benchmark the suite, the controls and the harness overhead")
    )

    from toolproof.tools.init import add_arguments as init_arguments

    init_arguments(sub.add_parser("init", help="write an adapter skeleton on the kit (python or node)"))

    baseline = sub.add_parser("baseline", help="expected-failure baselines")
    baseline_sub = baseline.add_subparsers(dest="baseline_command", required=True)
    update = baseline_sub.add_parser(
        "update",
        help="migrate a baseline to the current contract version; with --report, rewrite its entries"
        " to exactly the checks that ran and failed (keeping the reasons of those already listed)",
    )
    update.add_argument("--report", default=None, help="a --report-json file (without it: migrate only)")
    update.add_argument("--output", required=True, help="the baseline YAML to (re)write")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `toolproof` script."""
    parser = build_parser()
    raw = list(sys.argv[1:] if argv is None else argv)
    args, rest = parser.parse_known_args(raw)
    if rest and args.command not in ("run", "matrix", "probe"):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if rest[:1] == ["--"]:
        rest = rest[1:]
    try:
        if args.command == "run":
            return _run(args, rest)
        if args.command == "smoke":
            return _smoke(args)
        if args.command == "probe":
            return _probe(args, rest)
        if args.command == "controls":
            return _controls(args)
        if args.command == "traceability":
            return _traceability(args)
        if args.command == "matrix":
            return _matrix(args, rest)
        if args.command == "mutation":
            return _mutation(args)
        if args.command == "bench":
            return _bench(args)
        if args.command == "init":
            from toolproof.tools.init import main as init_main

            return init_main(args)
        return _baseline_update(args)
    except UsageError as exc:
        print(f"toolproof: {exc}", file=sys.stderr)
        return exitcodes.USAGE


if __name__ == "__main__":
    sys.exit(main())
