"""toolproof.connect.stdio: cmd: candidates over JSON Lines, driven against the fauxmplementations.

Each fauxmplementation misbehaves in exactly one way; each test pins the
exception type, its side, and the message that lets an adapter author find
the problem (the offending line, the exit code, the stderr tail).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from toolproof.connect.candidate import Candidate
from toolproof.connect.stdio import MAX_LINE, StdioConnection
from toolproof.errors import CandidateTimeout, ProtocolViolation, ToolproofError, UnsolicitedLine

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
HELLO = {"op": "hello", "protocol": 1}
linux_only = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")


class Opened:
    """Every connection a test opens, closed at its end."""

    def __init__(self) -> None:
        self.connections: list[StdioConnection] = []

    def __call__(
        self, command: str, *, startup_grace: float = 10.0, trace: io.StringIO | None = None
    ) -> StdioConnection:
        connection = StdioConnection(
            command, env=dict(os.environ), cwd=None, startup_grace=startup_grace, trace=trace
        )
        self.connections.append(connection)
        return connection


@pytest.fixture
def opened() -> Iterator[Opened]:
    registry = Opened()
    yield registry
    for connection in registry.connections:
        connection.close()


def faux(name: str) -> str:
    return f"{sys.executable} {FAUX / f'{name}.py'}"


def sent_ops(trace: io.StringIO) -> list[str]:
    """The ops of every request line the harness wrote, in order."""
    return [json.loads(line[2:])["op"] for line in trace.getvalue().splitlines() if line.startswith("> ")]


def live_group_members(pgid: int) -> list[int]:
    """Processes of group `pgid` that are not zombies."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _ppid, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == pgid and state not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in ("Z", "X")


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_wellbehaved_answers_every_op(opened: Opened) -> None:
    trace = io.StringIO()
    connection = opened(faux("wellbehaved"), trace=trace)
    candidate = Candidate(connection, timeout=10.0)
    declared = candidate.hello()
    assert dict(declared.implementation) == {"name": "faux", "version": "0", "language": "python"}
    assert declared.capabilities == frozenset({"openai.chat"})
    assert candidate.build("b1", {}).raw == {"ok": True}
    assert candidate.run("b1", "hi").raw == {"ok": True, "output": "faux", "stop_reason": "completed"}
    assert candidate.close("b1").raw == {"ok": True}
    assert candidate.run("b1", "hi").raw == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown id: b1"},
    }
    assert candidate.raw({"op": "frobnicate"}) == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown op: 'frobnicate'"},
    }
    assert connection.generation == 0
    assert sent_ops(trace) == ["hello", "build", "run", "close", "run", "frobnicate"]


def test_garbage_stdout_is_a_violation_showing_the_line(opened: Opened) -> None:
    connection = opened(faux("garbage_stdout"))
    with pytest.raises(ProtocolViolation) as caught:
        connection.request(HELLO, 10.0)
    assert caught.value.side == "adapter-protocol"
    assert str(caught.value) == (
        "stdout carried a line that is not JSON (Expecting value): 'garbage_stdout: starting up' -- "
        "stdout must carry protocol lines only (a stray print?)"
    )
    assert connection.generation == 1  # killed: the next request starts a fresh process


def test_crash_on_build_shows_exit_code_and_stderr_then_restarts_with_hello(opened: Opened) -> None:
    trace = io.StringIO()
    connection = opened(faux("crash_on_build"), trace=trace)
    candidate = Candidate(connection, timeout=10.0)
    candidate.hello()
    with pytest.raises(ProtocolViolation) as caught:
        candidate.build("b1", {})
    assert caught.value.side == "adapter-protocol"
    assert str(caught.value) == (
        "candidate exited (code 3) before answering 'build'\n"
        "--- candidate stderr during its requests ---\n"
        "crash_on_build: cannot build, giving up\n"
    )
    assert connection.generation == 1
    # The fresh process forgot build b1, and is greeted with hello before anything else.
    assert candidate.close("b1").raw == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown id: b1"},
    }
    assert connection.generation == 1
    assert sent_ops(trace) == ["hello", "build", "hello", "close"]


@linux_only
def test_hang_times_out_within_the_timeout_and_the_whole_group_is_killed(opened: Opened) -> None:
    connection = opened(faux("hang_on_run"))
    candidate = Candidate(connection, timeout=10.0)
    assert candidate.build("b1", {}).ok is True  # warm: the startup grace is spent
    started = time.monotonic()
    with pytest.raises(CandidateTimeout) as caught:
        connection.request({"op": "run", "id": "b1", "input": "hi"}, 1.0)
    elapsed = time.monotonic() - started
    assert 1.0 <= elapsed < 5.0  # the timeout, then the kill: never the hour the child sleeps
    assert caught.value.side == "timeout"
    message = str(caught.value)
    assert message.startswith(
        "no response to 'run' within 1 s\n--- candidate stderr during its requests ---\nhang_on_run: pid="
    )
    found = re.search(r"hang_on_run: pid=(\d+) pgid=(\d+) child=(\d+)\n", message)
    assert found is not None
    pid, pgid, child = (int(g) for g in found.groups())
    # The group (the shell, the adapter, its child) is killed as a whole, not just the process toolproof
    # started: SIGKILL is asynchronous, so wait (bounded) for the kernel to finish.
    assert wait_until(lambda: live_group_members(pgid) == [], timeout=5.0), live_group_members(pgid)
    assert (alive(pid), alive(child)) == (False, False)
    # A fresh process serves the next request.
    assert connection.generation == 1
    assert candidate.hello().capabilities == frozenset({"openai.chat"})
    assert candidate.build("b2", {}).ok is True


def test_bad_shape_is_a_violation_showing_the_line_and_the_stream_is_discarded(opened: Opened) -> None:
    trace = io.StringIO()
    connection = opened(faux("bad_shape"), trace=trace)
    candidate = Candidate(connection, timeout=10.0)
    candidate.build("b1", {})
    with pytest.raises(ProtocolViolation) as caught:
        candidate.run("b1", "hi")
    assert caught.value.side == "adapter-protocol"
    assert str(caught.value) == (
        "response to 'run' does not match protocol v1 "
        "(<root>: {'ok': True} is not valid under any of the given schemas); line: {\"ok\": true}"
    )
    assert connection.generation == 1
    assert candidate.build("b2", {}).raw == {"ok": True}
    assert sent_ops(trace) == ["hello", "build", "run", "hello", "build"]


def test_huge_line_is_a_violation(opened: Opened) -> None:
    connection = opened(faux("huge_line"))
    with pytest.raises(ProtocolViolation) as caught:
        connection.request(HELLO, 20.0)
    assert str(caught.value) == f"response line longer than {MAX_LINE} bytes"
    assert caught.value.side == "adapter-protocol"
    assert connection.generation == 1


def test_slow_start_works_thanks_to_the_startup_grace(opened: Opened) -> None:
    connection = opened(faux("slow_start"), startup_grace=5.0)
    response, _line = connection.request(HELLO, 0.5)
    assert response["ok"] is True
    assert connection.request({"op": "close", "id": "b"}, 5.0)[0] == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown id: b"},
    }
    assert connection.generation == 0


def test_slow_start_times_out_without_a_startup_grace(opened: Opened) -> None:
    connection = opened(faux("slow_start"), startup_grace=0.0)
    with pytest.raises(CandidateTimeout) as caught:
        connection.request(HELLO, 0.5)
    assert str(caught.value) == "no response to 'hello' within 0.5 s"
    assert caught.value.side == "timeout"
    assert connection.generation == 1


def test_bad_hello_is_a_violation_naming_the_capability(opened: Opened) -> None:
    connection = opened(faux("bad_hello"))
    candidate = Candidate(connection, timeout=10.0)
    with pytest.raises(ProtocolViolation) as caught:
        candidate.hello()
    assert caught.value.side == "adapter-protocol"
    message = str(caught.value)
    assert message.startswith("response to 'hello' does not match protocol v1 (<root>: ")
    assert message.endswith(
        '; line: {"ok": true, "protocol": 1, "implementation": {"name": "faux", "version": "0", '
        '"language": "python"}, "capabilities": ["openai.chat", "toolsets.telepathy"]}'
    )
    assert connection.generation == 1


def test_a_restarted_candidate_must_declare_the_same(opened: Opened, tmp_path: Path) -> None:
    # A candidate whose capabilities depend on how often it was started (a counter file).
    script = tmp_path / "fickle.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(FAUX)!r})\n"
        "from _faux import Faux\n"
        f"counter = {str(tmp_path / 'starts')!r}\n"
        "with open(counter, 'a') as f: f.write('x')\n"
        "starts = len(open(counter).read())\n"
        "class Fickle(Faux):\n"
        "    def hello(self, request):\n"
        "        r = super().hello(request)\n"
        "        r['capabilities'] = ['openai.chat'] if starts == 1 else []\n"
        "        return r\n"
        "    def build(self, request):\n"
        "        sys.exit(1)\n"
        "Fickle().serve()\n"
    )
    candidate = Candidate(opened(f"{sys.executable} {script}"), timeout=10.0)
    candidate.hello()
    with pytest.raises(ProtocolViolation):
        candidate.build("b1", {})
    with pytest.raises(ProtocolViolation) as caught:
        candidate.close("b1")
    assert str(caught.value) == "a restarted candidate declared different capabilities/options"


@linux_only
def test_an_escaped_child_holding_the_pipes_cannot_hang_the_harness(opened: Opened, tmp_path: Path) -> None:
    # The candidate starts a child in a new session (outside the group toolproof kills) that keeps
    # stdout and stderr open, then dies without answering.
    script = tmp_path / "escape.py"
    script.write_text(
        "import subprocess, sys\n"
        "sys.stdin.readline()\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import os, time; os.setsid(); time.sleep(60)'])\n"
        "sys.stderr.write(f'escaped={child.pid}\\n'); sys.stderr.flush()\n"
        "sys.exit(3)\n"
    )
    connection = opened(f"{sys.executable} {script}", startup_grace=0.0)
    started = time.monotonic()
    try:
        with pytest.raises(CandidateTimeout) as caught:
            connection.request(HELLO, 1.0)
    finally:
        escaped = re.search(r"escaped=(\d+)", connection.diagnostics())
        if escaped is not None:  # a safety net: the harness kills and reaps it (connect/reaper.py)
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(escaped.group(1)), 9)
    assert time.monotonic() - started < 8.0  # 1 s timeout, at most 2 x 1 s waiting for the readers
    assert str(caught.value).startswith(
        "no response to 'hello' within 1 s\n--- candidate stderr during its requests ---\nescaped="
    )
    assert escaped is not None


def test_a_candidate_that_closes_stdout_but_keeps_running_is_a_violation(
    opened: Opened, tmp_path: Path
) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import os, sys, time\nsys.stdin.readline()\nos.close(1)\ntime.sleep(60)\n")
    # `exec`: no shell left holding the pipe, so closing fd 1 really ends the stream.
    connection = opened(f"exec {sys.executable} {script}", startup_grace=0.0)
    started = time.monotonic()
    with pytest.raises(ProtocolViolation) as caught:
        connection.request(HELLO, 10.0)
    assert time.monotonic() - started < 9.0  # it waited (5 s) for an exit that never came, then killed it
    assert str(caught.value) == "candidate closed its stdout before answering 'hello'"
    assert connection.generation == 1


# -- unsolicited lines, whatever the timing and the position (issue 22 §5) ----------------------

REPEATS = 20
"""Each position is tried this often: a pass that depended on the timing would show."""
ANSWERS = {
    "build": '{"ok": true}',
    "run": '{"ok": true, "output": "faux", "stop_reason": "completed"}',
    "close": '{"ok": true}',
}


REQUEST_FIELDS: dict[str, dict[str, object]] = {"build": {"config": {}}, "run": {"input": "hi"}, "close": {}}


def unsolicited(line: str, when: str) -> str:
    return (
        f"stdout carried a line nobody asked for, {when}: {line!r} -- protocol v1 answers each request"
        " with exactly one line (a duplicated response, or a stray print?)"
    )


@pytest.mark.parametrize("position", ["build", "run", "close"])
def test_an_answer_written_twice_in_one_write_is_caught_at_that_answer_every_time(
    opened: Opened, position: str
) -> None:
    connection = opened(f"{faux('twice')} {position}")
    candidate = Candidate(connection, timeout=10.0)
    caught = []
    for attempt in range(REPEATS):
        build = f"b{attempt}"
        for op in ("build", "run", "close"):
            try:
                candidate.raw({"op": op, "id": build, **REQUEST_FIELDS[op]})
            except ToolproofError as exc:
                caught.append((op, type(exc), exc.side, str(exc)))
                break
    when = f"right after the answer to {position!r}, before any other request"
    assert caught == [
        (position, UnsolicitedLine, "adapter-protocol", unsolicited(ANSWERS[position], when))
    ] * (REPEATS)
    assert connection.generation == REPEATS  # each one killed its process: a fresh one served the next


@pytest.mark.parametrize("position", ["late", "end"])
def test_a_line_after_the_last_answer_is_read_at_the_end_of_the_session_every_time(
    opened: Opened, position: str
) -> None:
    """`late`: written 0.3 s after the close answer, in a write of its own; `end`: written when stdin
    closes. Either way nothing follows to catch it but the end of the session, which reads stdout
    until EOF."""
    seen = []
    for _ in range(REPEATS):
        candidate = Candidate(opened(f"{faux('twice')} {position}"), timeout=10.0)
        outcomes = [candidate.build("b", {}).ok, candidate.run("b", "hi").ok, candidate.close("b").ok]
        seen.append((outcomes, candidate.shutdown()))
    assert seen == [([True, True, True], ['{"ok": true}'])] * REPEATS


def test_a_line_already_waiting_when_a_request_is_due_is_caught_before_it_is_written(opened: Opened) -> None:
    trace = io.StringIO()
    connection = opened(f"{faux('twice')} late", trace=trace)
    candidate = Candidate(connection, timeout=10.0)
    assert candidate.close("never").raw == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown id: never"},
    }
    time.sleep(1.0)  # the extra line is in the pipe by now
    with pytest.raises(UnsolicitedLine) as caught:
        candidate.build("b", {})
    assert str(caught.value) == unsolicited(
        '{"ok": true}', "before 'build' was sent (after the answer to 'close')"
    )
    assert sent_ops(trace) == ["hello", "close"]  # the build was never written
