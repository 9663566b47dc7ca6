"""A failure message, shortened for the console and the Markdown summary (the JSON keeps it whole).

A `tp.expect` message is a heading ending in ":", then indented lines: one per
difference (`$.path: expected X got Y`) and an `observed: ...` line. Its
shortened form keeps the heading, the first differences and the observed
value, each clipped (the `deviation:` line is left to the caller, which
names the finding). An invariant's message keeps its count line and its
first problems. Any other message (a crash) shows its first line only: the
rest is detail such as a stderr tail.
`failed_tests` and `dumps_of` find where a check failed, and the `--toolproof-dump` files of those tests.
"""

from __future__ import annotations

from typing import Any

from toolproof.judge.expected import INVARIANT_PROBLEM

HEADING_WIDTH = 200
DETAIL_WIDTH = 160
MAX_DIFFERENCES = 3
_OBSERVED = "observed: "
DEVIATION = "deviation: "
"""How `tp.expect` names a recognised deviation, as the first line under the heading."""


def clip(text: str, width: int) -> str:
    """`text` cut to at most `width` characters, marked with "..." when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."


def is_expect_message(message: str) -> bool:
    """The `tp.expect` shape: a heading ending in ":" followed only by indented lines."""
    lines = message.splitlines()
    return (
        len(lines) > 1
        and lines[0].endswith(":")
        and all(line.startswith("  ") and line.strip() for line in lines[1:])
    )


def reason_lines(message: str) -> list[str]:
    """The shortened reason: the heading, then (tp.expect messages only) details, unindented.

    At most MAX_DIFFERENCES differences are kept, then a count of the rest, then
    the observed line; every line is clipped.
    """
    lines = message.splitlines()
    problems = [line for line in lines[1:] if INVARIANT_PROBLEM.match(line)]
    if lines and problems:
        shown = [clip(p, DETAIL_WIDTH) for p in problems[:MAX_DIFFERENCES]]
        hidden = len(problems) - len(shown)
        if hidden:
            shown.append(f"... {hidden} more problem{'s' if hidden > 1 else ''}")
        return [clip(lines[0], HEADING_WIDTH), *shown]
    if not is_expect_message(message):
        return [clip(lines[0] if lines else "", HEADING_WIDTH)]
    # The deviation line (judge/findings.py) is shown apart: the FAIL line and the summary name it.
    details = [line.strip() for line in lines[1:] if not line.strip().startswith(DEVIATION)]
    observed = [d for d in details if d.startswith(_OBSERVED)]
    differences = [d for d in details if not d.startswith(_OBSERVED)]
    shown = [clip(d, DETAIL_WIDTH) for d in differences[:MAX_DIFFERENCES]]
    hidden = len(differences) - len(shown)
    if hidden:
        shown.append(f"... {hidden} more difference{'s' if hidden > 1 else ''}")
    shown += [clip(d, DETAIL_WIDTH) for d in observed]
    return [clip(lines[0], HEADING_WIDTH), *shown]


def dumps_of(report: dict[str, Any], check_id: str) -> list[str]:
    """The dump files of the tests in which `check_id` failed, in test order ([] without dumps)."""
    dumps: dict[str, str] = report["dumps"]
    return [dumps[test] for test in failed_tests(report, check_id) if test in dumps]


def failed_tests(report: dict[str, Any], check_id: str) -> list[str]:
    """The tests in which `check_id` failed, sorted."""
    return sorted({r["test"] for r in report["results"] if r["check"] == check_id and r["status"] == "fail"})
