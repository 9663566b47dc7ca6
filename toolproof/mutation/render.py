"""`reports/mutation.md` from a report document."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolproof.mutation.model import KILLED, NO_TESTS
from toolproof.mutation.review import _label
from toolproof.mutation.scores import ALL_MUTANTS, RAW, REVIEWED, score_lines


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

    With `review_text` (reports/mutation-review.md) the reviewed score is shown beside the raw one;
    the score over all mutants always is.
    """
    counts = report["counts"]
    scores = {
        name: line.removeprefix(name + " ")
        for line in score_lines(report, review_text)
        for name in (RAW, REVIEWED, ALL_MUTANTS)
        if line.startswith(name + " ")
    }
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
        f"**Raw score** (mutmut's): {scores[RAW]}.",
        *(
            [
                f"**Reviewed score** (the gate): {scores[REVIEWED]}, from"
                " mutation-review.md as it was when this file was written (`toolproof mutation check`"
                " recomputes it from the current review; `toolproof mutation render` rewrites this file).",
            ]
            if REVIEWED in scores
            else []
        ),
        f"**Score over all mutants**: {scores[ALL_MUTANTS]}: no mutant leaves the denominator (no tests,"
        " skipped and equivalent ones count as not killed).",
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
