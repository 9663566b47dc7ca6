"""toolproof.connect.conduct: a fresh twin's stdout kept line by line, against the fauxmplementations.

Each test pins the exact lines (or the exception) a fauxmplementation produces
for the hello, build, run, close session the conduct checks send.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect.conduct import record
from toolproof.connect.stdio import StdioConnection
from toolproof.errors import CandidateTimeout, ProtocolViolation

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
HELLO = {"op": "hello", "protocol": 1}
SESSION: list[dict[str, Any]] = [
    HELLO,
    {"op": "build", "id": "b1", "config": {}},
    {"op": "run", "id": "b1", "input": "hi"},
    {"op": "close", "id": "b1"},
]
FAUX_HELLO = (
    '{"ok": true, "protocol": 1, "implementation": {"name": "faux", "version": "0", "language": "python"},'
    ' "capabilities": ["openai.chat"]}'
)


def connection(name: str) -> StdioConnection:
    return StdioConnection(
        f"{sys.executable} {FAUX / f'{name}.py'}", env=dict(os.environ), cwd=None, startup_grace=10.0
    )


def test_a_well_behaved_adapter_writes_one_line_per_request() -> None:
    transcript = record(connection("wellbehaved"), SESSION, timeout=10.0)
    assert transcript.lines == (
        FAUX_HELLO,
        '{"ok": true}',
        '{"ok": true, "output": "faux", "stop_reason": "completed"}',
        '{"ok": true}',
    )
    assert (transcript.stray(), transcript.schema_problems()) == ([], [])


def test_a_line_before_hello_is_kept_in_place() -> None:
    transcript = record(connection("garbage_stdout"), [HELLO], timeout=10.0)
    assert transcript.lines == ("garbage_stdout: starting up", FAUX_HELLO)
    assert transcript.stray() == ["garbage_stdout: starting up"]
    assert transcript.objects() == [json.loads(FAUX_HELLO)]


def test_a_line_written_after_the_last_answer_is_read_up_to_eof() -> None:
    transcript = record(connection("event_after_close"), SESSION, timeout=10.0)
    assert transcript.lines[3:] == ('{"ok": true}', '{"ok": true}')
    assert len(transcript.objects()) == 5


def test_schema_problems_name_the_response_and_its_request() -> None:
    transcript = record(connection("bad_shape"), SESSION, timeout=10.0)
    assert transcript.schema_problems() == [
        "response 3 (to run): <root>: {'ok': True} is not valid under any of the given schemas"
    ]


def test_an_adapter_that_exits_mid_session_raises_with_what_it_wrote() -> None:
    with pytest.raises(ProtocolViolation, match=r"stdout ended before request 2 \(build\) was answered"):
        record(connection("crash_on_build"), SESSION, timeout=10.0)


def test_an_adapter_that_never_answers_raises_a_timeout() -> None:
    with pytest.raises(CandidateTimeout, match=r"request 3 \(run\) got no JSON object line"):
        record(connection("hang_on_run"), SESSION, timeout=1.0)


def test_the_shared_connection_is_left_alone() -> None:
    shared = connection("wellbehaved")
    record(shared, [HELLO], timeout=10.0)
    assert shared.generation == 0
    assert shared.diagnostics() == ""
