"""toolproof.plugin.processes: which reported stdio server processes still run, and the harness's kill.

Processes here are this test's own children (`sleep`-like Pythons), started and ended by their id.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from toolproof.fakes.records import NO_RESPONSE, McpRequest, StdioProcess
from toolproof.fakes.stdio_server import start_time
from toolproof.plugin import processes
from toolproof.plugin.processes import Reported

pytestmark = pytest.mark.skipif(not processes.AVAILABLE, reason="needs Linux /proc")


def record(route: str, process: StdioProcess | None, transport: str = "stdio") -> McpRequest:
    return McpRequest(
        token="t",
        route=route,
        index=0,
        method="",
        path="",
        query="",
        headers=(),
        body=b"{}",
        rpc_method="tools/list",
        rpc_params=None,
        rpc_id=1,
        status=NO_RESPONSE,
        transport=transport,
        process=process,
    )


def reported_as(
    pid: int, start: int | None, ppid: int | None = None, parent_start: int | None = None
) -> StdioProcess:
    return StdioProcess(pid=pid, argv=(), cwd="/", env=(), start=start, ppid=ppid, parent_start=parent_start)


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A child that runs until killed (killed and reaped by its id after the test)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield child
    if child.poll() is None:
        child.kill()
    child.wait(timeout=10)


def test_reported_names_each_process_once_with_parents_only_when_asked() -> None:
    records = [
        record("a", reported_as(10, 100, ppid=9, parent_start=90)),
        record("a", reported_as(10, 100, ppid=9, parent_start=90)),
        record("b", reported_as(11, 110)),
        record("c", None, transport="http"),
        record("d", reported_as(12, None)),  # no start time: never tracked
        record("e", reported_as(os.getpid(), start_time(os.getpid()))),  # never this process
    ]
    assert processes.reported(records) == [Reported("a", "server", 10, 100), Reported("b", "server", 11, 110)]
    assert processes.reported(records, parents=True) == [
        Reported("a", "parent", 9, 90),
        Reported("a", "server", 10, 100),
        Reported("b", "server", 11, 110),
    ]


def test_running_tells_a_live_process_from_a_reused_pid_and_a_zombie(
    sleeper: subprocess.Popen[bytes],
) -> None:
    start = start_time(sleeper.pid)
    assert start is not None
    assert processes.running(Reported("a", "server", sleeper.pid, start))
    assert not processes.running(Reported("a", "server", sleeper.pid, start + 1))  # another process's pid
    os.kill(sleeper.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while processes.running(Reported("a", "server", sleeper.pid, start)) and time.monotonic() < deadline:
        time.sleep(0.02)
    # Unreaped, it is a zombie of this process: it has ended.
    assert not processes.running(Reported("a", "server", sleeper.pid, start))


def test_survivors_waits_up_to_the_bound(sleeper: subprocess.Popen[bytes]) -> None:
    alive = Reported("a", "server", sleeper.pid, start_time(sleeper.pid) or 0)
    began = time.monotonic()
    assert processes.survivors([alive], 0.3) == [alive]
    assert time.monotonic() - began >= 0.3
    assert processes.survivors([], 5.0) == []


def test_kill_survivors_kills_what_still_runs_and_nothing_else(sleeper: subprocess.Popen[bytes]) -> None:
    start = start_time(sleeper.pid)
    records = [
        record("a", reported_as(sleeper.pid, start)),
        record("b", reported_as(sleeper.pid, (start or 0) + 1)),
    ]
    assert processes.kill_survivors(records) == [Reported("a", "server", sleeper.pid, start or 0)]
    assert sleeper.wait(timeout=10) == -signal.SIGKILL
    assert processes.kill_survivors(records) == []
