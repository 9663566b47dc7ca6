"""A stdout line nobody asked for fails `proto.response-order` (side adapter-protocol) at every position.

tests/fauxmplementations/twice.py writes one line too many, once in its life: an answer written
twice in one write after its first build, run or close answer; or an extra line after its last
answer (`late`: 0.3 s after a close answer, in a write of its own; `end`: when stdin closes). Each
position is charged to the same check on the same side, deterministically (tests/harness/test_stdio.py
repeats each position at the connection; here each goes through the `tp` fixture once): the
needed build, the judged run and close, and the end of the session, read until EOF. A line that is
no JSON object (`stray-run`, `stray-end`) is a stray print: `proto.stdout-protocol-only`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_plugin import Suite, faux

from toolproof.report import exitcodes

LIFECYCLE = r"""
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_lifecycle(tp):
    tp.build(tp.config({}))
    tp.expect_outcome("proto.unknown-build-id", tp.close(), {"ok": True}, what="close")
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="closed")
"""
CLOSE_LAST = r"""
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_lifecycle(tp):
    tp.build(tp.config({}))
    tp.expect_outcome("proto.unknown-build-id", tp.close(), {"ok": True}, what="close")
"""
ORDER = "proto.response-order"
STRAY = "proto.stdout-protocol-only"
CHECKS = (ORDER, STRAY, "proto.valid-config-builds-and-runs", "proto.unknown-build-id")
TAIL = " -- protocol v1 answers each request with exactly one line (a duplicated response, or a stray print?)"
AT_THE_END = (
    "stdout carried a line nobody asked for, after the last answer of the session, read once stdin was"
    f" closed: '{{\"ok\": true}}'{TAIL}"
)


AT_THE_END_STRAY = (
    "stdout carried a line nobody asked for, after the last answer of the session, read once stdin was"
    f" closed: 'twice: done'{TAIL}"
)


def with_answer(op: str, line: str) -> str:
    return (
        f"stdout carried a line nobody asked for, right after the answer to {op!r}, before any other"
        f" request: {line!r}{TAIL}"
    )


# position -> (suite, {check: (status, side, blocked_by), or None: not recorded}, the failure's message)
POSITIONS: dict[str, tuple[str, dict[str, tuple[str, str, str | None] | None], str]] = {
    "build": (
        LIFECYCLE,
        {
            ORDER: ("fail", "adapter-protocol", None),
            STRAY: None,
            "proto.valid-config-builds-and-runs": ("undecided", "candidate", ORDER),
            "proto.unknown-build-id": ("undecided", "candidate", ORDER),
        },
        with_answer("build", '{"ok": true}'),
    ),
    "close": (
        LIFECYCLE,
        {
            ORDER: ("fail", "adapter-protocol", None),
            STRAY: None,
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("undecided", "candidate", ORDER),
        },
        with_answer("close", '{"ok": true}'),
    ),
    "run": (
        LIFECYCLE,
        {
            ORDER: ("fail", "adapter-protocol", None),
            STRAY: None,
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("undecided", "candidate", ORDER),  # and its close pass before
        },
        with_answer("run", '{"ok": false, "error": {"kind": "internal", "message": "unknown id: <id>"}}'),
    ),
    "end": (
        LIFECYCLE,
        {
            ORDER: ("fail", "adapter-protocol", None),
            STRAY: None,
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("pass", "candidate", None),
        },
        AT_THE_END,
    ),
    "late": (
        CLOSE_LAST,
        {
            ORDER: ("fail", "adapter-protocol", None),
            STRAY: None,
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("pass", "candidate", None),
        },
        AT_THE_END,
    ),
    "stray-run": (
        LIFECYCLE,
        {
            ORDER: None,
            STRAY: ("fail", "adapter-protocol", None),
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("undecided", "candidate", STRAY),
        },
        with_answer("run", "twice: done"),
    ),
    "stray-end": (
        LIFECYCLE,
        {
            ORDER: None,
            STRAY: ("fail", "adapter-protocol", None),
            "proto.valid-config-builds-and-runs": ("pass", "candidate", None),
            "proto.unknown-build-id": ("pass", "candidate", None),
        },
        AT_THE_END_STRAY,
    ),
}


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def last(results: list[dict[str, Any]], check: str) -> tuple[str, str, str | None] | None:
    """The last occurrence of `check` (an undecided after a pass is the test's last word on it)."""
    found = [r for r in results if r["check"] == check]
    return (found[-1]["status"], found[-1]["side"], found[-1]["blocked_by"]) if found else None


@pytest.mark.parametrize("position", list(POSITIONS))
def test_an_unsolicited_line_fails_response_order_wherever_it_comes(suite: Suite, position: str) -> None:
    source, expected, message = POSITIONS[position]
    suite.write(test_lifecycle=source)
    run = suite.run("--candidate", f"{faux('twice')} {position}")
    assert run.ret == exitcodes.CANDIDATE_BROKEN, run.output
    results = run.data["results"]
    assert {check: last(results, check) for check in CHECKS} == expected
    failed = ORDER if expected[ORDER] is not None else STRAY
    (shown,) = [r["message"] for r in results if r["check"] == failed]
    build = re.findall(r"unknown id: ([0-9a-f]{12})", shown)  # the run's answer names its build
    assert shown == message.replace("<id>", build[0] if build else "<id>")
    assert run.data["verdict_lines"][-1] == f"toolproof: exit 3: 1 protocol break: {failed}"
