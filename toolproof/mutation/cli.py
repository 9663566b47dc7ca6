"""`toolproof mutation report|check|render|merge`: the arguments and the dispatch."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolproof.mutation.merge import merge, merge_rerun, rerun_names
from toolproof.mutation.model import FORMAT, MutationError
from toolproof.mutation.render import render_markdown
from toolproof.mutation.review import review_skeleton
from toolproof.mutation.run import run_report
from toolproof.mutation.scores import check, score_lines
from toolproof.mutation.settings import load_settings, relative_source, source_hash


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
        "--resume",
        action="store_true",
        help="with --workdir: finish the passes a stopped run began there (same reference source),"
        " keeping every verdict mutmut recorded, instead of emptying it",
    )
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
                report = run_report(root, settings, mutate, args.keep_workdir, workdir, resume=args.resume)
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
