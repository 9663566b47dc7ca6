"""toolproof.connect.inprocess: py: candidates on one long-lived loop, driven against the miniatures."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolproof.connect.candidate import Candidate
from toolproof.connect.inprocess import InProcessConnection
from toolproof.errors import CandidateStartError, CandidateTimeout, ProtocolViolation, SessionAborted

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"


class Opened:
    def __init__(self) -> None:
        self.connections: list[InProcessConnection] = []

    def __call__(self, target: str) -> InProcessConnection:
        connection = InProcessConnection(target)
        self.connections.append(connection)
        return connection


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    monkeypatch.syspath_prepend(str(FAUX))
    registry = Opened()
    yield registry
    for connection in registry.connections:
        connection.close()


def loop_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "toolproof-candidate")


def test_sync_methods(opened: Opened) -> None:
    connection = opened("miniatures:sync_candidate")
    assert connection.origin == str(FAUX / "miniatures.py")
    candidate = Candidate(connection, timeout=5.0)
    assert candidate.hello().capabilities == frozenset({"openai.chat"})
    assert candidate.build("b1", {"k": [1]}).raw == {"ok": True}
    assert candidate.run("b1", "hi").raw == {"ok": True, "output": "sync:hi", "stop_reason": "completed"}
    assert candidate.close("b1").raw == {"ok": True}
    assert candidate.run("b1", "hi").raw == {
        "ok": False,
        "error": {"kind": "internal", "message": "unknown id: b1"},
    }
    assert connection.generation == 0


def test_async_methods_share_one_loop_across_calls(opened: Opened) -> None:
    candidate = Candidate(opened("miniatures:async_candidate"), timeout=5.0)
    candidate.build("b1", {})
    assert candidate.run("b1", "hi").raw == {
        "ok": True,
        "output": "async:hi:same-loop=True",
        "stop_reason": "completed",
    }


def test_an_unknown_op_is_answered_by_the_harness(opened: Opened) -> None:
    connection = opened("miniatures:sync_candidate")
    response, line = connection.request({"op": "frobnicate", "id": "b"}, 5.0)
    assert response == {"ok": False, "error": {"kind": "internal", "message": "unknown op 'frobnicate'"}}
    assert line == '{"ok":false,"error":{"kind":"internal","message":"unknown op \'frobnicate\'"}}'


def test_arguments_are_copies(opened: Opened) -> None:
    connection = opened("miniatures:sync_candidate")
    config = {"mcp_servers": {"a": {"url": "u"}}}
    connection.request({"op": "build", "id": "b", "config": config}, 5.0)
    assert connection._impl.built == {"b"}
    assert config == {"mcp_servers": {"a": {"url": "u"}}}


def test_a_raising_method_is_a_protocol_violation_and_the_session_goes_on(opened: Opened) -> None:
    candidate = Candidate(opened("miniatures:raising_run"), timeout=5.0)
    candidate.build("b1", {})
    with pytest.raises(ProtocolViolation) as caught:
        candidate.run("b1", "hi")
    assert str(caught.value) == "miniatures:raising_run: run() raised RuntimeError('miniature: run exploded')"
    assert caught.value.side == "adapter-protocol"
    assert candidate.close("b1").raw == {"ok": True}


def test_a_non_json_return_value_is_a_protocol_violation(opened: Opened) -> None:
    candidate = Candidate(opened("miniatures:non_json_run"), timeout=5.0)
    candidate.build("b1", {})
    with pytest.raises(ProtocolViolation) as caught:
        candidate.run("b1", "hi")
    assert str(caught.value) == (
        "miniatures:non_json_run: run() returned a value that is not JSON: "
        "Object of type set is not JSON serializable"
    )


def test_a_never_returning_method_times_out_then_aborts_the_session(opened: Opened) -> None:
    connection = opened("miniatures:never_returning_run")
    candidate = Candidate(connection, timeout=5.0)
    candidate.build("b1", {})
    with pytest.raises(CandidateTimeout) as caught:
        connection.request({"op": "run", "id": "b1", "input": "hi"}, 0.2)
    assert caught.value.side == "timeout"
    assert str(caught.value) == (
        "miniatures:never_returning_run run() did not return within 0.2 s; an in-process candidate cannot be"
        " interrupted, so the session is aborted (run untrusted candidates as cmd:)"
    )
    with pytest.raises(SessionAborted) as aborted:
        candidate.close("b1")
    assert aborted.value.side == "timeout"
    assert str(aborted.value) == (
        "session aborted earlier: miniatures:never_returning_run run() did not return within 0.2 s"
    )
    assert connection.diagnostics() == "miniatures:never_returning_run run() did not return within 0.2 s"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("miniatures", "py: spec must be 'package.module:factory', got 'miniatures'"),
        ("miniatures:", "py: spec must be 'package.module:factory', got 'miniatures:'"),
        ("miniatures:no_such_factory", "'miniatures' has no callable 'no_such_factory'"),
        ("miniatures:HELLO", "'miniatures' has no callable 'HELLO'"),
        (
            "toolproof_no_such_module:f",
            "cannot import 'toolproof_no_such_module': "
            "ModuleNotFoundError(\"No module named 'toolproof_no_such_module'\")",
        ),
        (
            "json:loads",
            "json:loads: loads() raised TypeError(\"loads() missing 1 required positional argument: 's'\")",
        ),
    ],
)
def test_a_candidate_that_cannot_start(opened: Opened, target: str, message: str) -> None:
    before = loop_threads()
    with pytest.raises(CandidateStartError) as caught:
        opened(target)
    assert str(caught.value) == message
    assert caught.value.side == "adapter-protocol"
    assert loop_threads() == before  # no loop thread left behind


def test_close_stops_the_loop_thread_and_is_idempotent(opened: Opened) -> None:
    before = loop_threads()
    connection = opened("miniatures:sync_candidate")
    assert loop_threads() == before + 1
    connection.close()
    connection.close()
    assert loop_threads() == before
