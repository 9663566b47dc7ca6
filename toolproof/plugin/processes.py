"""The processes stdio servers reported: which still run, and the harness's own kill of them.

A stdio server (`toolproof.fakes.stdio_server`) reports its pid and start time, and its parent's,
with every message (`StdioProcess`). (pid, start time) names one process across pid reuse: a pid
whose /proc entry is gone, is a zombie (it only waits to be reaped: it runs nothing), or now
starts at another time, is a process that ended (`running`).

`survivors` waits, up to a bound, for reported processes to end: what a check after `close`
reads. `kill_survivors` is the harness failing closed: after every test, each stdio server
process its builds reported that still runs is killed (SIGKILL, only if it is still the process
it was), so a runtime that leaks one never leaks it past the test. Linux only: where there is
no /proc (`AVAILABLE` false; `StdioProcess.start` None), nothing is tracked nor killed.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from toolproof.connect import reaper
from toolproof.fakes.records import STDIO, McpRequest

AVAILABLE: Final = sys.platform == "linux" and Path("/proc/self/stat").exists()
"""Whether this host has the Linux /proc the start times come from."""
POLL_S: Final = 0.05
"""How often `survivors` looks again."""


@dataclass(frozen=True, order=True)
class Reported:
    """One process a stdio server reported: itself (`role` "server") or its parent ("parent")."""

    route: str
    role: str
    pid: int
    start: int

    def describe(self) -> str:
        """For messages: which process, of which route."""
        return f"{self.role} process {self.pid} of route {self.route!r} (start time {self.start})"


def reported(records: Iterable[McpRequest], *, parents: bool = False) -> list[Reported]:
    """Every distinct process the stdio records name (sorted); with `parents`, their parents too
    (a wrapper the server runs under). Never this process itself."""
    found: set[Reported] = set()
    for record in records:
        process = record.process
        if record.transport != STDIO or process is None or process.start is None:
            continue
        found.add(Reported(record.route, "server", process.pid, process.start))
        if parents and process.ppid is not None and process.parent_start is not None:
            found.add(Reported(record.route, "parent", process.ppid, process.parent_start))
    return sorted(one for one in found if one.pid != os.getpid())


def running(process: Reported) -> bool:
    """True while `process` is the process it was and is not a zombie."""
    now = reaper.read(process.pid)
    return now is not None and now.start == process.start and not now.dead


def survivors(processes: Iterable[Reported], bound: float) -> list[Reported]:
    """Those of `processes` still running once all ended or `bound` seconds passed (whichever first)."""
    left = [one for one in processes if running(one)]
    deadline = time.monotonic() + bound
    while left and time.monotonic() < deadline:
        time.sleep(POLL_S)
        left = [one for one in left if running(one)]
    return left


def kill_survivors(records: Iterable[McpRequest]) -> list[Reported]:
    """SIGKILL every reported stdio server process still running (never reaped here: a child of
    this process belongs to whoever started it); returns those it signalled."""
    killed = []
    for process in reported(records):
        now = reaper.read(process.pid)
        if now is not None and now.start == process.start and not now.dead:
            reaper.kill(now)
            killed.append(process)
    return killed
