"""A hostile adapter: a working adapter that misbehaves once, on one run request, in one of 13 ways.

tests/fauxmplementations/hostile.py takes the mode as an argument. For every mode
these self-tests pin what issue 12 §4 asks of the harness:

- the side the failure is put on (or that there is none: a misbehaviour the
  protocol allows must not become a false failure), and the exact message;
- the exit code of a run of the installed suite, on a narrow selection;
- completeness: every selected test reported;
- no process left: every process the faux started (it writes their pids to a
  file) is gone, zombies included, once the connection is closed.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect import reaper
from toolproof.connect.candidate import Candidate
from toolproof.connect.conduct import record
from toolproof.connect.protocol import MAX_DEPTH, decode_line, line_text
from toolproof.connect.stdio import MAX_LINE, StdioConnection
from toolproof.errors import CandidateTimeout, ProtocolViolation, ToolproofError, UnsolicitedLine
from toolproof.invocation import suite_pytest_args
from toolproof.report import exitcodes

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, uses prctl")

# The answer the faux gives to run on a live build, as it writes it (json.dumps defaults).
GOOD_RUN = '{"ok": true, "output": "faux", "stop_reason": "completed"}'
NOT_JSON_TAIL = " -- stdout must carry protocol lines only (a stray print?)"
DEEP = '{"ok": true, "output": ' + "[" * 200_000 + "]" * 200_000 + ', "stop_reason": "completed"}'


@dataclass(frozen=True)
class Mode:
    """What the harness must make of one misbehaviour."""

    #: The side of the failure, or None: no failure at all (the protocol allows it).
    side: str | None
    #: The message of the error the misbehaving run raises over StdioConnection (None: no error).
    message: str | None
    #: The roles of the processes the faux starts besides adapters ("child", "grandchild").
    spawns: tuple[str, ...] = ()
    #: The suite check that fails: the one the misbehaving run's test declares.
    failing: str = "proto.unknown-build-id"
    #: The error's class over StdioConnection (ProtocolViolation for a side adapter-protocol).
    kind: type[ToolproofError] = ProtocolViolation
    #: The status of the failing test's own check when `failing` is another check (it blocked it).
    blocked: str | None = None


MODES: dict[str, Mode] = {
    "crash": Mode(
        "adapter-protocol",
        "candidate exited (code 3) in the middle of a line, before answering 'run': "
        + repr(GOOD_RUN[: (len(GOOD_RUN) + 1) // 2])
        + "\n--- candidate stderr during its requests ---\nhostile: crashing mid-run\n",
    ),
    "garbage": Mode(
        "adapter-protocol",
        "stdout carried a line that is not JSON (Expecting value): 'hostile: this is no response'"
        + NOT_JSON_TAIL,
    ),
    "huge": Mode("adapter-protocol", f"response line longer than {MAX_LINE} bytes"),
    "nan": Mode(
        "adapter-protocol",
        "stdout carried a line that is not JSON (NaN is not a JSON value): "
        + repr('{"ok": true, "output": NaN, "stop_reason": "completed"}')
        + NOT_JSON_TAIL,
    ),
    "no-newline": Mode("timeout", "no response to 'run' within 1 s"),
    "hang": Mode("timeout", "no response to 'run' within 1 s"),
    "stderr": Mode(None, None),
    "bytewise": Mode(None, None),
    "group-child": Mode(None, None, spawns=("child",)),
    "deep": Mode(
        "adapter-protocol",
        f"stdout carried a line nested deeper than {MAX_DEPTH} levels: {DEEP[:500] + '...'!r} --"
        " no protocol v1 response nests that deep",
    ),
    "bad-utf8": Mode(
        "adapter-protocol",
        "stdout carried a line that is not UTF-8 (byte 0xff at offset 26): "
        + repr('{"ok": true, "output": "fa\ufffdux", "stop_reason": "completed"}')
        + " -- protocol v1 lines are UTF-8 JSON (RFC 8259 §8.1)",
    ),
    "duplicate": Mode(
        "adapter-protocol",
        f"stdout carried a line nobody asked for, right after the answer to 'run', before any other"
        f" request: {GOOD_RUN!r} -- protocol v1"
        " answers each request with exactly one line (a duplicated response, or a stray print?)",
        # Caught at the run it came with, whatever the timing (issue 22 §5): tp-proto-response-order,
        # and the run's test's own check is undecided, blocked by it.
        failing="proto.response-order",
        kind=UnsolicitedLine,
        blocked="undecided",
    ),
    "setsid-grandchild": Mode(None, None, spawns=("grandchild",)),
}


def test_every_mode_of_the_faux_is_pinned_here() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import hostile; print(' '.join(hostile.MODES))"],
        cwd=FAUX,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stdout.split() == list(MODES)
    assert len(MODES) == 13


# -- processes ----------------------------------------------------------------------------------


def started(state: Path) -> list[tuple[int, int, str]]:
    """(pid, start time, role) of every process the faux recorded."""
    path = state / "pids"
    rows = [line.split() for line in path.read_text(encoding="ascii").splitlines()] if path.exists() else []
    return [(int(pid), int(start), role) for pid, start, role in rows]


def present(pid: int, start: int) -> bool:
    """Whether the process (pid, start) still exists, as a zombie too (a zombie is a leftover)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return int(stat[stat.rindex(b")") + 2 :].split()[19]) == start


def leftovers(state: Path) -> list[str]:
    return [f"{role} {pid}" for pid, start, role in started(state) if present(pid, start)]


def spawned(state: Path) -> list[str]:
    return [role for _pid, _start, role in started(state) if role != "adapter"]


# -- over StdioConnection -----------------------------------------------------------------------


def hostile(mode: str, state: Path) -> str:
    return f"{sys.executable} {FAUX / 'hostile.py'} {mode} {state}"


class Opened:
    """Every connection a test opens, closed at its end."""

    def __init__(self) -> None:
        self.connections: list[StdioConnection] = []

    def __call__(self, command: str) -> StdioConnection:
        connection = StdioConnection(command, env=dict(os.environ), cwd=None, startup_grace=10.0)
        self.connections.append(connection)
        return connection


@pytest.fixture
def opened() -> Iterator[Opened]:
    registry = Opened()
    yield registry
    for connection in registry.connections:
        connection.close()


@linux_only
@pytest.mark.parametrize("mode", list(MODES))
def test_a_hostile_mode_over_stdio(mode: str, opened: Opened, tmp_path: Path) -> None:
    expected = MODES[mode]
    connection = opened(hostile(mode, tmp_path))
    candidate = Candidate(connection, timeout=1.0 if expected.side == "timeout" else 10.0)
    assert candidate.build("b1", {}).ok is True
    error: ToolproofError | None = None
    try:
        assert candidate.run("b1", "hi").raw == json.loads(GOOD_RUN)
        # The next request: a duplicated answer is still waiting when it is about to be sent.
        assert candidate.build("b2", {}).ok is True
    except ToolproofError as exc:
        error = exc
    if expected.side is None:
        assert error is None
        assert connection.generation == 0
    else:
        assert error is not None
        assert (type(error), error.side, str(error)) == (
            CandidateTimeout if expected.side == "timeout" else expected.kind,
            expected.side,
            expected.message,
        )
        assert connection.generation == 1  # killed: a fresh process serves what follows
        assert candidate.build("b3", {}).ok is True
    assert spawned(tmp_path) == list(expected.spawns)
    connection.close()
    assert leftovers(tmp_path) == []  # killed and reaped by close itself: no waiting


# -- through the installed suite ----------------------------------------------------------------

SUITE_MODULE = "toolproof.conformance.test_protocol"
# One run request (the misbehaving one), a request after it, and a conduct session on a twin.
SELECTED = (
    "test_run_on_unknown_build_id_is_an_internal_error",
    "test_unknown_op_is_an_internal_error_and_the_adapter_keeps_serving",
    "test_stdout_carries_protocol_lines_only",
)
SUITE_TIMEOUT = "2"
# Every check the selection records besides the per-test egress invariant.
SELECTED_CHECKS = ("proto.stdout-protocol-only", "proto.unknown-build-id", "proto.unknown-op")


def suite_argv(mode: str, state: Path) -> list[str]:
    return [
        "--candidate",
        f"cmd:{{python}} {FAUX / 'hostile.py'} {mode} {state}",
        "--toolproof-timeout",
        SUITE_TIMEOUT,
        "--toolproof-startup-grace",
        "10",
        "--report-json",
        str(state / "report.json"),
        "-k",
        " or ".join(SELECTED),
    ]


def verdicts(report: dict[str, Any]) -> dict[str, str]:
    """The status of each selected check (and of proto.response-order, which any test may fail), with
    its side when it failed."""
    return {
        row["id"]: f"fail ({row['side']})" if row["status"] == "fail" else row["status"]
        for row in report["checks"]
        if row["id"] in (*SELECTED_CHECKS, "proto.response-order")
    }


def expected_verdicts(mode: str) -> dict[str, str]:
    expected = MODES[mode]
    rows = dict.fromkeys(SELECTED_CHECKS, "pass")
    if expected.side is not None:
        rows[expected.failing] = f"fail ({expected.side})"
    if expected.blocked is not None:
        rows["proto.unknown-build-id"] = expected.blocked
    return rows


@linux_only
@pytest.mark.parametrize("mode", list(MODES))
def test_a_hostile_mode_through_the_suite(mode: str, pytester: pytest.Pytester) -> None:
    """The installed suite on three of its tests, in process: this process is the harness."""
    state = pytester.path / "state"
    state.mkdir()
    saved = dict(os.environ)  # the harness scrubs provider variables from its own environment
    try:
        result = pytester.runpytest_inprocess(
            *suite_pytest_args(SUITE_MODULE), *suite_argv(mode, state), no_reraise_ctrlc=True
        )
    finally:
        os.environ.clear()
        os.environ.update(saved)
    output = "\n".join([*result.outlines, *result.errlines])
    expected = MODES[mode]
    report = json.loads((state / "report.json").read_text(encoding="utf-8"))
    assert verdicts(report) == expected_verdicts(mode), output
    assert int(result.ret) == (exitcodes.OK if expected.side is None else exitcodes.CANDIDATE_BROKEN), output
    outcomes = {
        k: v for k, v in result.parseoutcomes().items() if k in ("passed", "failed", "error", "errors")
    }
    assert outcomes == ({"passed": 3} if expected.side is None else {"passed": 2, "failed": 1}), output
    summary = report["summary"]
    assert (summary["collected_tests"], summary["reported_tests"]) == (3, 3)
    assert spawned(state) == list(expected.spawns)
    assert leftovers(state) == []


@linux_only
@pytest.mark.parametrize("mode", ["deep", "setsid-grandchild"])
def test_a_hostile_mode_through_toolproof_run(mode: str, tmp_path: Path) -> None:
    """`toolproof run` in a process of its own: its exit code, and nothing outlives it."""
    state = tmp_path / "state"
    state.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from toolproof.tools.cli import main; sys.exit(main())",
            "run",
            *suite_argv(mode, state),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    expected = MODES[mode]
    report = json.loads((state / "report.json").read_text(encoding="utf-8"))
    assert verdicts(report) == expected_verdicts(mode), done.stdout[-3000:]
    assert done.returncode == (exitcodes.OK if expected.side is None else exitcodes.CANDIDATE_BROKEN)
    assert (report["summary"]["collected_tests"], report["summary"]["reported_tests"]) == (3, 3)
    assert spawned(state) == list(expected.spawns)
    assert leftovers(state) == []


# -- the subreaper ------------------------------------------------------------------------------

PR_GET_CHILD_SUBREAPER = 37


def is_subreaper() -> bool:
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    flag = ctypes.c_int(-1)
    assert prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
    return flag.value == 1


@linux_only
def test_starting_a_candidate_makes_the_harness_a_child_subreaper(opened: Opened, tmp_path: Path) -> None:
    connection = opened(hostile("hang", tmp_path))
    connection.request({"op": "hello", "protocol": 1}, 10.0)
    assert (reaper.become_subreaper(), is_subreaper()) == (True, True)


@linux_only
def test_an_orphan_in_a_session_of_its_own_dies_when_the_candidate_restarts(
    opened: Opened, tmp_path: Path
) -> None:
    connection = opened(hostile("setsid-grandchild", tmp_path))
    candidate = Candidate(connection, timeout=10.0)
    candidate.build("b1", {})
    assert candidate.run("b1", "hi").ok is True
    [(pid, start, _role)] = [row for row in started(tmp_path) if row[2] == "grandchild"]
    # Adopted: its parent exited, and the harness, not init, is its parent now.
    stat = Path(f"/proc/{pid}/stat").read_bytes()
    fields = stat[stat.rindex(b")") + 2 :].split()
    assert (int(fields[1]), int(fields[3])) == (os.getpid(), pid)  # parent, session (its own)
    connection.discard()  # what a breach does: kill now, restart on the next request
    assert present(pid, start) is False
    assert candidate.build("b2", {}).ok is True
    assert connection.generation == 1


@linux_only
def test_stopping_one_candidate_spares_the_orphans_of_another(opened: Opened, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    older = Candidate(opened(hostile("setsid-grandchild", first)), timeout=10.0)
    older.build("b1", {})
    older.run("b1", "hi")
    [(pid, start, _role)] = [row for row in started(first) if row[2] == "grandchild"]
    time.sleep(2 / os.sysconf("SC_CLK_TCK"))  # start times count clock ticks: the second starts later
    # A conduct twin is such a second candidate: started later, stopped first.
    younger = opened(hostile("group-child", second))
    Candidate(younger, timeout=10.0).build("b1", {})
    younger.close()
    assert present(pid, start) is True
    older.connection.close()
    assert present(pid, start) is False


def test_without_linux_the_harness_only_kills_the_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reaper, "_LINUX", False)
    monkeypatch.setattr(reaper, "_subreaper", {})
    assert reaper.become_subreaper() is False
    assert reaper.processes() == {}
    assert reaper.read(os.getpid()) is None
    family = reaper.Family(os.getpid())
    assert (family.start, family.members(), family.reap(timeout=1.0)) == (0, [], [])


# -- decoding a line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            b'{"ok": Infinity}\n',
            "stdout carried a line that is not JSON (Infinity is not a JSON value): '{\"ok\": Infinity}'"
            + NOT_JSON_TAIL,
        ),
        (
            b'{"ok": true, "ok": false}\n',
            "stdout carried a line that is not JSON (duplicate key 'ok'): '{\"ok\": true, \"ok\": false}'"
            + NOT_JSON_TAIL,
        ),
        (
            b'{"ok": "\xed\xa0\x80"}\n',  # a UTF-8-encoded surrogate is not UTF-8
            "stdout carried a line that is not UTF-8 (byte 0xed at offset 8): "
            + repr('{"ok": "\ufffd\ufffd\ufffd"}')
            + " -- protocol v1 lines are UTF-8 JSON (RFC 8259 §8.1)",
        ),
        (
            b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"\n",
            f"stdout carried a line nested deeper than {MAX_DEPTH} levels: "
            + repr("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
            + " -- no protocol v1 response nests that deep",
        ),
    ],
)
def test_a_line_that_is_not_utf8_json_is_a_violation(raw: bytes, message: str) -> None:
    with pytest.raises(ProtocolViolation) as caught:
        decode_line(raw)
    assert str(caught.value) == message


def test_a_line_as_deep_as_allowed_decodes() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert decode_line(text.encode() + b"\r\n") == (json.loads(text), text)


def test_lines_for_the_stream_readers_are_exact_or_no_json() -> None:
    assert line_text(b'{"ok": true}\r\n') == '{"ok": true}\r'
    assert line_text(b'{"ok": "fa\xffux"}\n') == '<not UTF-8: byte 0xff at offset 10> {"ok": "fa\ufffdux"}'
    assert line_text(DEEP.encode() + b"\n") == f"<nested deeper than {MAX_DEPTH} levels> {DEEP[:500]}..."
    assert line_text(b"[" * 100 + b" not json\n") == "[" * 100 + " not json"


@linux_only
@pytest.mark.parametrize(
    ("mode", "shown"),
    [
        ("deep", f"<nested deeper than {MAX_DEPTH} levels> {DEEP[:500]}..."),
        (
            "bad-utf8",
            '<not UTF-8: byte 0xff at offset 26> {"ok": true, "output": "fa\ufffdux", "stop_reason": '
            '"completed"}',
        ),
    ],
    ids=["deep", "bad-utf8"],
)
def test_a_conduct_transcript_shows_a_hostile_line_as_no_json(mode: str, shown: str, tmp_path: Path) -> None:
    # The conduct checks read a twin's stdout line by line: a hostile line must reach them as a stray
    # line, never as a decoder's RecursionError (a harness error) or as a lossily decoded object.
    session: list[dict[str, Any]] = [
        {"op": "hello", "protocol": 1},
        {"op": "build", "id": "b1", "config": {}},
        {"op": "run", "id": "b1", "input": "hi"},
    ]
    connection = StdioConnection(hostile(mode, tmp_path), env=dict(os.environ), cwd=None, startup_grace=10.0)
    with pytest.raises(CandidateTimeout) as caught:
        record(connection, session, timeout=1.0)
    message = str(caught.value)
    assert message.startswith("request 3 (run) got no JSON object line: no stdout line within 1 s\n")
    assert message.endswith(f", {shown!r}]")
    assert leftovers(tmp_path) == []
