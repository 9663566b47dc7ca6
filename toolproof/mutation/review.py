"""Parsing `reports/mutation-review.md`: its entries, which entry covers an open mutant, new sections."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from toolproof.mutation.model import KILLED, NO_TESTS, NOT_CHECKED, diff_key

_VERDICTS = ("killed", "equivalent", "gap", "unreached")


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
