"""toolproof.connect.pipe: a stdio adapter's JSON Lines loop on a thread, judged as over cmd:.

- the reference round trip (hello, build, run, close) over `pipe:`, answered by the adapter's own
  loop, and the thread gone after close;
- every hostile line the faux can write (tests/fauxmplementations/pipe_faux.py) raises the same
  error type, side and message over `pipe:` as the same adapter does over `cmd:`, and a fresh
  candidate serves what follows;
- a hung thread never hangs the harness; bad specs start no thread;
- the installed suite's wire tests run over `pipe:` (they are judged, not "not testable");
- the egress guard of a `pipe:` candidate is the in-process one.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolproof.connect import egress, pipe
from toolproof.connect.candidate import Candidate
from toolproof.connect.conduct import record
from toolproof.connect.connectables import ConnectSettings, connect, resolve
from toolproof.connect.pipe import PipeConnection
from toolproof.connect.stdio import MAX_LINE, StdioConnection
from toolproof.errors import (
    CandidateStartError,
    CandidateTimeout,
    ProtocolViolation,
    ToolproofError,
    UnsolicitedLine,
)
from toolproof.fakes import ModelEndpoint, Text
from toolproof.invocation import suite_pytest_args
from toolproof.report import exitcodes

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
REFERENCE = "toolproof.candidates.reference.adapter:reference"
TAIL = "\n--- candidate stderr during its requests ---\n"
GOOD_RUN = '{"ok": true, "output": "faux", "stop_reason": "completed"}'
NOT_JSON_TAIL = " -- stdout must carry protocol lines only (a stray print?)"


def serving_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == pipe.THREAD_NAME and t.is_alive()]


class Opened:
    """Every connection a test opens, closed at its end."""

    def __init__(self) -> None:
        self.connections: list[StdioConnection] = []

    def pipe(self, target: str) -> PipeConnection:
        connection = PipeConnection(target, startup_grace=10.0)
        self.connections.append(connection)
        return connection

    def cmd(self, command: str) -> StdioConnection:
        connection = StdioConnection(command, env=dict(os.environ), cwd=None, startup_grace=10.0)
        self.connections.append(connection)
        return connection


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    monkeypatch.syspath_prepend(str(FAUX))
    # A hung faux thread is abandoned after KILL_GRACE: keep the hang tests short.
    monkeypatch.setattr(pipe, "KILL_GRACE", 0.5)
    import pipe_faux

    pipe_faux.RELEASE.clear()
    registry = Opened()
    yield registry
    pipe_faux.RELEASE.set()  # let abandoned faux threads end
    for connection in registry.connections:
        connection.close()
    for thread in serving_threads():
        thread.join(5.0)


# -- the reference ------------------------------------------------------------------------------


def test_the_reference_round_trip_over_pipes(opened: Opened) -> None:
    before = len(serving_threads())
    connection = opened.pipe(REFERENCE)
    assert (connection.transport, connection.origin) == (
        "cmd",
        sys.modules["toolproof.candidates.reference.adapter"].__file__,
    )
    assert len(serving_threads()) == before  # nothing runs before the first request
    candidate = Candidate(connection, timeout=10.0)
    with ModelEndpoint() as model:
        model.script("pipe-1", [Text("done over pipes")])
        config = {
            "model": {"base_url": model.base_url("pipe-1"), "api_key": "k", "name": "m"},
            "mcp_servers": {},
        }
        assert "toolsets.namespace" in candidate.hello().capabilities
        assert len(serving_threads()) == before + 1
        assert candidate.build("b1", config).raw == {"ok": True}
        assert candidate.run("b1", "hi").raw == {
            "ok": True,
            "output": "done over pipes",
            "stop_reason": "completed",
        }
        assert candidate.close("b1").raw == {"ok": True}
        assert len(model.requests("pipe-1")) == 1
    # Answered by the adapter's dispatch (py: answers an unknown op in the harness).
    response, line = connection.request({"op": "frobnicate", "id": "b1"}, 10.0)
    assert line == '{"ok": false, "error": {"kind": "internal", "message": "unknown op: \\"frobnicate\\""}}'
    assert response == json.loads(line)
    connection.close()
    assert len(serving_threads()) == before  # EOF ended the loop; close waited for the thread
    assert connection.generation == 1


def test_a_conduct_session_runs_on_a_twin_thread(opened: Opened) -> None:
    connection = opened.pipe(REFERENCE)
    hello = {"op": "hello", "protocol": 1}
    transcript = record(connection, [hello, {"op": "close", "id": "never"}, hello], timeout=10.0)
    assert [json.loads(line)["ok"] for line in transcript.lines] == [True, False, True]
    assert transcript.stray() == []
    assert connection.generation == 0  # the twin was started and ended, not this connection


def test_pipe_specs_resolve_and_connect(opened: Opened) -> None:
    assert resolve("pipe:" + REFERENCE) == "pipe:" + REFERENCE
    connection = connect("pipe:" + REFERENCE, ConnectSettings(startup_grace=3.0))
    assert isinstance(connection, PipeConnection)
    opened.connections.append(connection)
    assert (connection.target, connection.startup_grace) == (REFERENCE, 3.0)


# -- hostile lines, as over cmd: -----------------------------------------------------------------

# The error each mode raises on the misbehaving run, or on the request after it (the duplicate).
HOSTILE: dict[str, tuple[type[ToolproofError], str, str]] = {
    "garbage": (
        ProtocolViolation,
        "adapter-protocol",
        "stdout carried a line that is not JSON (Expecting value): 'faux: this is no response'"
        + NOT_JSON_TAIL,
    ),
    "duplicate": (
        UnsolicitedLine,
        "adapter-protocol",
        f"stdout carried a line nobody asked for, right after the answer to 'run', before any other"
        f" request: {GOOD_RUN!r} -- protocol v1"
        " answers each request with exactly one line (a duplicated response, or a stray print?)",
    ),
    "nan": (
        ProtocolViolation,
        "adapter-protocol",
        "stdout carried a line that is not JSON (NaN is not a JSON value): "
        + repr('{"ok": true, "output": NaN, "stop_reason": "completed"}')
        + NOT_JSON_TAIL,
    ),
    "bad-utf8": (
        ProtocolViolation,
        "adapter-protocol",
        "stdout carried a line that is not UTF-8 (byte 0xff at offset 26): "
        + repr('{"ok": true, "output": "fa\ufffdux", "stop_reason": "completed"}')
        + " -- protocol v1 lines are UTF-8 JSON (RFC 8259 §8.1)",
    ),
    "deep": (
        ProtocolViolation,
        "adapter-protocol",
        "stdout carried a line nested deeper than 64 levels: "
        + repr('{"ok": true, "output": ' + "[" * 477 + "...")
        + " -- no protocol v1 response nests that deep",
    ),
    "huge": (ProtocolViolation, "adapter-protocol", f"response line longer than {MAX_LINE} bytes"),
    "crash": (
        ProtocolViolation,
        "adapter-protocol",
        "candidate exited (code 1) in the middle of a line, before answering 'run': "
        + repr(GOOD_RUN[: (len(GOOD_RUN) + 1) // 2]),
    ),
    "hang": (CandidateTimeout, "timeout", "no response to 'run' within 1 s"),
    "no-newline": (CandidateTimeout, "timeout", "no response to 'run' within 1 s"),
}


def misbehave(connection: StdioConnection, mode: str) -> tuple[ToolproofError | None, tuple[bool, int]]:
    """build, the misbehaving run, build; then (the error, (a later build's ok, the generation))."""
    timeout = 1.0 if HOSTILE.get(mode, (None, "", ""))[1] == "timeout" else 10.0
    candidate = Candidate(connection, timeout=timeout)
    assert candidate.build("b1", {}).ok is True
    error: ToolproofError | None = None
    try:
        assert candidate.run("b1", "hi").raw == json.loads(GOOD_RUN)
        assert candidate.build("b2", {}).ok is True
    except ToolproofError as exc:
        error = exc
    return error, (candidate.build("b3", {}).ok, connection.generation)


@pytest.mark.parametrize("mode", ["good", *HOSTILE])
def test_a_hostile_line_is_attributed_as_over_cmd(opened: Opened, mode: str) -> None:
    seen = {}
    for transport, connection in (
        ("cmd", opened.cmd(f"{sys.executable} {FAUX / 'pipe_faux.py'} {mode}")),
        ("pipe", opened.pipe(f"pipe_faux:{mode.replace('-', '_')}")),
    ):
        error, after = misbehave(connection, mode)
        message, _, tail = str(error).partition(TAIL)
        seen[transport] = (type(error), error and error.side, message if error else None, after)
        if mode == "crash":  # the traceback, from the process's stderr or the thread's
            assert "RuntimeError: faux: crashing mid-run" in tail, transport
        else:
            assert tail == "", transport
    if mode == "good":
        assert seen["pipe"] == (type(None), None, None, (True, 0))
    else:
        kind, side, message = HOSTILE[mode]
        assert seen["pipe"] == (kind, side, message, (True, 1))  # killed: a fresh candidate serves b3
    assert seen["pipe"] == seen["cmd"]


def test_a_hung_thread_never_hangs_the_harness(opened: Opened) -> None:
    import pipe_faux

    connection = opened.pipe("pipe_faux:hang")
    candidate = Candidate(connection, timeout=0.5)
    candidate.build("b1", {})
    started = time.monotonic()
    with pytest.raises(CandidateTimeout):
        candidate.run("b1", "hi")
    # The timeout, KILL_GRACE for the thread, then StdioConnection's 1 s for each blocked reader.
    assert time.monotonic() - started < 0.5 + pipe.KILL_GRACE + 2 * 1.0 + 1.5
    hung = serving_threads()
    assert len(hung) == 1  # abandoned, still blocked in the faux
    assert candidate.build("b2", {}).ok is True  # on a fresh thread
    started = time.monotonic()
    connection.close()
    assert time.monotonic() - started < 2.0
    pipe_faux.RELEASE.set()
    hung[0].join(5.0)
    assert serving_threads() == []


def test_a_factory_that_raises_on_the_thread_is_a_crash(opened: Opened) -> None:
    connection = opened.pipe("pipe_faux:Faux")  # Faux() without a mode: the thread raises TypeError
    for generation in (1, 2):
        with pytest.raises(ProtocolViolation) as caught:
            connection.request({"op": "hello", "protocol": 1}, 5.0)
        # Dead before or after the request was written ("closed its stdin" / "exited"), as a process.
        message, _, tail = str(caught.value).partition(TAIL)
        assert message.startswith("candidate ")
        assert tail.endswith("TypeError: Faux.__init__() missing 1 required positional argument: 'mode'\n")
        assert (caught.value.side, connection.generation) == ("adapter-protocol", generation)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_such_module_here:factory", "cannot import 'no_such_module_here'"),
        ("pipe_faux:missing", "'pipe_faux' has no callable 'missing'"),
        ("miniatures:sync_candidate", "'miniatures' has no callable serve(stdin, stdout, candidate)"),
    ],
)
def test_a_bad_spec_starts_no_thread(opened: Opened, target: str, message: str) -> None:
    before = len(serving_threads())
    with pytest.raises(CandidateStartError) as caught:
        opened.pipe(target)
    assert str(caught.value).startswith(message)
    assert len(serving_threads()) == before


def test_the_egress_guard_of_a_pipe_candidate_is_in_process() -> None:
    settings = ConnectSettings()
    session, returned = egress.open_session("pipe:" + REFERENCE, settings, netns=False, urls=[])
    try:
        assert (session.transport, session.guard is not None, returned) == ("py", True, settings)
    finally:
        egress.close_session(session)


# -- the installed suite ------------------------------------------------------------------------

WIRE_CHECKS = (
    "proto.unknown-op",
    "proto.hello-first",
    "proto.stdout-protocol-only",
    "proto.response-order",
    "proto.response-schema",
)


def test_the_suite_judges_the_wire_checks_over_pipes(pytester: pytest.Pytester) -> None:
    """test_protocol in process: every wire check is judged (py: has them not testable) and passes."""
    report_path = pytester.path / "report.json"
    saved = dict(os.environ)  # the harness scrubs provider variables from its own environment
    try:
        result = pytester.runpytest_inprocess(
            *suite_pytest_args("toolproof.conformance.test_protocol"),
            "--candidate",
            "pipe:" + REFERENCE,
            "--report-json",
            str(report_path),
            no_reraise_ctrlc=True,
        )
    finally:
        os.environ.clear()
        os.environ.update(saved)
    output = "\n".join([*result.outlines, *result.errlines])
    assert int(result.ret) == exitcodes.OK, output
    report = json.loads(report_path.read_text(encoding="utf-8"))
    statuses = {row["id"]: row["status"] for row in report["checks"]}
    assert {check: statuses.get(check) for check in WIRE_CHECKS} == dict.fromkeys(WIRE_CHECKS, "pass")
    assert report["candidate"]["origin"] == sys.modules["toolproof.candidates.reference.adapter"].__file__
