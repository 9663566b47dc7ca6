"""The three scores (raw, reviewed, over all mutants), the counts they are made of, and the gate."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolproof.mutation.model import _STATUS_RANK, FORMAT, KILLED, NO_TESTS, NOT_CHECKED, SKIPPED, diff_key
from toolproof.mutation.review import _label, _review_index, parse_review, review_of

SCORE_FORMULA = "killed / (total - no_tests - skipped)"
REVIEWED_SCORE_FORMULA = "killed / (total - no_tests - skipped - equivalent)"
ALL_MUTANTS_FORMULA = "killed / total"


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


def score_all(counts: dict[str, int]) -> dict[str, Any]:
    """killed / total, in percent (100 when there is no mutant): the score over every mutant mutmut made.

    Nothing leaves the denominator: a mutant no test reached (no tests), a skipped one and one
    reviewed equivalent count as not killed. The raw and reviewed scores say how well the tests
    judge what they reach; this one also says how much of the reference they reach at all, and no
    review can raise it.
    """
    killed, total = counts.get(KILLED, 0), counts["total"]
    percent = round(100.0 * killed / total, 2) if total else 100.0
    return {"formula": ALL_MUTANTS_FORMULA, "killed": killed, "denominator": total, "percent": percent}


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


RAW, REVIEWED, ALL_MUTANTS = "raw score", "reviewed score", "score over all mutants"


def score_lines(report: dict[str, Any], review_text: str | None) -> list[str]:
    """The raw score, (with a review) the reviewed one, and the score over all mutants, each with its
    formula and numbers. Each line starts with its name (RAW, REVIEWED, ALL_MUTANTS)."""
    raw = report["score"]
    lines = [f"{RAW} {raw['percent']:.2f}% = {raw['formula']} = {raw['killed']} / {raw['denominator']}"]
    if review_text is not None:
        r = reviewed_score(report, review_text)
        lines.append(
            f"{REVIEWED} {r['percent']:.2f}% = {r['formula']} = {r['killed']} / {r['denominator']}"
            f" ({r['equivalent']} reviewed equivalent)"
        )
    # From the counts, not a stored field: reports written before this score existed show it too.
    a = score_all(report["counts"])
    lines.append(f"{ALL_MUTANTS} {a['percent']:.2f}% = {a['formula']} = {a['killed']} / {a['denominator']}")
    return lines
