"""Hangs are findings, with the fakes' evidence (issue 22 §5; toolproof.judge.idle).

The installed suite's tool-failure tests (where real runtimes hung after an HTTP 500 or a dropped
connection) run against tests/fauxmplementations/reference_hangs.py, the reference with a hang put
back, declaring `idle_answer_seconds: 1`:

- a run that never returns after the tool failed, every request of the harness answered, fails
  `proto.answers-when-idle` (side candidate) with the evidence, and the test's own check is
  undecided, blocked by it: over cmd:, and in-process, where the verdict is recorded before the
  session is aborted;
- a build that never returns, having asked nothing: the same, and the precondition is undecided;
- a run that hangs while one of its requests is still being read by the harness stays "timeout,
  no verdict" (exit 3), and says why;
- a run that sat with nothing owed for longer than the bound, then went on and was answered,
  breaks it as well: the verdict does not depend on how long the harness waits.

Each run is `toolproof run` in a process of its own (an in-process hang leaves a thread that
never ends). Times and build tokens differ from run to run: messages are compared with every
number and token replaced.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from toolproof.controls.forkserver import run_python
from toolproof.report import exitcodes

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
HANGS = FAUX / "reference_hangs.py"
HTTP_500 = "test_tool_failure_http_500_goes_the_declared_way"
DROPPED = "test_tool_failure_connection_dropped_goes_the_declared_way"
HANG = "proto.answers-when-idle"

# `python -c` of the command line, forked from a preloaded interpreter (toolproof.controls.forkserver).
CLI = "import sys; from toolproof.tools.cli import main; sys.exit(main())"


def toolproof_run(tmp_path: Path, candidate: str, *args: str) -> tuple[int, dict[str, Any]]:
    """`toolproof run` of the installed suite: (exit status, JSON report)."""
    report_path = tmp_path / "report.json"
    done = run_python(
        CLI,
        [
            "run",
            "--candidate",
            candidate,
            "--",
            "--report-json",
            str(report_path),
            "-q",
            "-p",
            "no:cacheprovider",
            *args,
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(FAUX)},
        timeout=300,
    )
    assert report_path.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return done.returncode, json.loads(report_path.read_text(encoding="utf-8"))


def shape(text: str) -> str:
    """`text` with build tokens as <token> and numbers as N (they differ from run to run)."""
    return re.sub(r"\d+(\.\d+)?", "N", re.sub(r"\b[0-9a-f]{12}\b", "<token>", text))


def results(report: dict[str, Any], check: str) -> list[tuple[str, str, str, str | None]]:
    """(test name, status, side, blocked_by) of each occurrence of `check`, in test order."""
    return sorted(
        (r["test"].rsplit("::", 1)[-1], r["status"], r["side"], r["blocked_by"])
        for r in report["results"]
        if r["check"] == check
    )


def evidence(report: dict[str, Any], test: str) -> list[str]:
    """The first lines of the hang verdict of `test` (its evidence), shaped; then the timeout line."""
    (message,) = [
        r["message"] for r in report["results"] if r["check"] == HANG and r["test"].endswith(f"::{test}")
    ]
    return [shape(line) for line in message.splitlines()[:4]]


def test_a_run_that_never_returns_after_a_tool_failure_is_a_hang_over_cmd(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path,
        f"cmd:{{python}} {HANGS} after_tool_failure",
        "-k",
        f"{HTTP_500} or {DROPPED}",
        "--toolproof-timeout",
        "4",
    )
    assert code == exitcodes.CHECK_FAILED
    assert results(report, HANG) == [
        (DROPPED, "fail", "candidate", None),
        (HTTP_500, "fail", "candidate", None),
    ]
    assert results(report, "err.tool-failure-http-500") == [(HTTP_500, "undecided", "candidate", HANG)]
    assert results(report, "err.tool-failure-connection-dropped") == [
        (DROPPED, "undecided", "candidate", HANG)
    ]
    # The build each test needed was answered: one root cause, one failure.
    assert results(report, "proto.valid-config-builds-and-runs") == [
        (DROPPED, "pass", "candidate", None),
        (HTTP_500, "pass", "candidate", None),
    ]
    last = {
        HTTP_500: "answered, HTTP N, at +N s",
        DROPPED: "dropped, no HTTP response, at +N s",
    }
    tool = {HTTP_500: "crash_http", DROPPED: "crash_close"}
    for test in (HTTP_500, DROPPED):
        assert evidence(report, test) == [
            "run of build <token> got no answer in N s; the harness owed nothing for N s of it, from"
            " +N s (idle_answer_seconds: N s)",
            "  every model and MCP request was answered then, none in flight; answered while it ran: N",
            f"  the answer before: MCP POST /<token>/mcp/alpha (tools/call {tool[test]}): {last[test]}",
            "no response to 'run' within N s",
        ]
    assert report["verdict_lines"][-1] == (
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate); 2 hangs with every"
        " request of the harness answered (proto.answers-when-idle)"
    )


def test_in_process_the_hang_is_recorded_before_the_session_is_aborted(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path, "py:reference_hangs:after_tool_failure", "-k", HTTP_500, "--toolproof-timeout", "3"
    )
    assert code == exitcodes.CHECK_FAILED
    assert results(report, HANG) == [(HTTP_500, "fail", "candidate", None)]
    assert results(report, "err.tool-failure-http-500") == [(HTTP_500, "undecided", "candidate", HANG)]
    assert evidence(report, HTTP_500)[0] == (
        "run of build <token> got no answer in N s; the harness owed nothing for N s of it, from +N s"
        " (idle_answer_seconds: N s)"
    )
    assert shape(report["verdict_lines"][-1]) == (
        "toolproof: exit N: N MUST finding (N failing MUST check) (candidate); N hang with every"
        " request of the harness answered (proto.answers-when-idle); also session aborted:"
        " reference_hangs:after_tool_failure run() did not return within N s; an in-process candidate"
        " cannot be interrupted, so the session is aborted (run untrusted candidates as cmd:)"
    )


def test_a_build_that_never_returns_is_a_hang_and_leaves_the_precondition_undecided(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path, f"cmd:{{python}} {HANGS} in_build", "-k", HTTP_500, "--toolproof-timeout", "3"
    )
    assert code == exitcodes.CHECK_FAILED
    assert results(report, HANG) == [(HTTP_500, "fail", "candidate", None)]
    assert results(report, "proto.valid-config-builds-and-runs") == [
        (HTTP_500, "undecided", "candidate", HANG)
    ]
    assert results(report, "err.tool-failure-http-500") == [(HTTP_500, "undecided", "candidate", HANG)]
    assert evidence(report, HTTP_500) == [
        "build <token> got no answer in N s; the harness owed nothing for N s of it, from +N s"
        " (idle_answer_seconds: N s)",
        "  every model and MCP request was answered then, none in flight; answered while it ran: N",
        "no response to 'build' within N s",
    ]


def test_a_hang_with_a_request_still_in_flight_is_a_timeout_without_a_verdict(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path,
        f"cmd:{{python}} {HANGS} with_request_in_flight",
        "-k",
        HTTP_500,
        "--toolproof-timeout",
        "3",
    )
    assert code == exitcodes.CANDIDATE_BROKEN
    assert results(report, "err.tool-failure-http-500") == [(HTTP_500, "fail", "timeout", None)]
    assert results(report, HANG) == [(HTTP_500, "undecided", "candidate", "run timed out")]
    (message,) = [r["message"] for r in report["results"] if r["check"] == "err.tool-failure-http-500"]
    assert shape(message.splitlines()[0]) == (
        "not decided: CandidateTimeout during call: no response to 'run' within N s"
    )
    assert [shape(line) for line in message.splitlines() if line.startswith("no verdict: ")] == [
        "no verdict: the harness still owed the candidate an answer when it gave up: model POST"
        " /<token>/vN/chat/completions, in flight since +N s"
    ]
    assert report["verdict_lines"][-1] == "toolproof: exit 3: 1 timeout: err.tool-failure-http-500"


def test_a_run_quiet_too_long_before_it_went_on_breaks_the_declared_bound_too(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path,
        f"cmd:{{python}} {HANGS} late_after_tool_failure",
        "-k",
        HTTP_500,
        "--toolproof-timeout",
        "20",
    )
    assert code == exitcodes.CHECK_FAILED
    assert results(report, HANG) == [(HTTP_500, "fail", "candidate", None)]
    # The run went the declared way, and its own check says so (its two observations).
    assert results(report, "err.tool-failure-http-500") == [(HTTP_500, "pass", "candidate", None)] * 2
    assert evidence(report, HTTP_500) == [
        "run of build <token> was answered after N s; the harness owed nothing for N s of it, from +N s"
        " (idle_answer_seconds: N s)",
        "  every model and MCP request was answered then, none in flight; answered while it ran: N",
        "  the answer before: MCP POST /<token>/mcp/alpha (tools/call crash_http): answered, HTTP N, at +N s",
    ]


def test_a_baselined_hang_is_an_expected_failure_of_the_test_it_blocks(tmp_path: Path) -> None:
    # The hang verdict is an invariant check that blocks the test: listed in the baseline, the test
    # reads xfailed and the run passes, as for any other expected failure.
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(
        "version: 1\ncontract: 6\ncandidate: faux\nexpected_failures:\n"
        f"  - check: {HANG}\n    reason: the faux runtime never answers after a tool failure\n",
        encoding="utf-8",
    )
    code, report = toolproof_run(
        tmp_path,
        f"cmd:{{python}} {HANGS} after_tool_failure",
        "-k",
        HTTP_500,
        "--toolproof-timeout",
        "4",
        "--expected-failures",
        str(baseline),
    )
    assert code == exitcodes.OK
    assert results(report, HANG) == [(HTTP_500, "fail", "candidate", None)]
    assert report["verdict_lines"][-1] == (
        "toolproof: exit 0: every MUST check passed (13 passing checks); also 1 expected failure (baseline)"
    )
