"""Everything a `cmd:` candidate started dies with it: the harness as child subreaper (Linux).

Killing the candidate's process group (`os.killpg`) misses what left the group:
a child that called ``setsid``/``setpgid``, and a daemon that double-forked so
its parent exited at once. Such an orphan is normally re-parented to init, out
of the harness's sight, and outlives the run.

On Linux the harness therefore makes itself a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``, `become_subreaper`, done by default when a
`cmd:` candidate starts): an orphan anywhere below it is re-parented to the
harness process instead of init. When a candidate is stopped (a restart after
a breach, the end of the session), its `Family` is killed and reaped:

- its session: the candidate starts as a session leader (`start_new_session`),
  so every process that did not call ``setsid`` keeps its session id, wherever
  it now hangs in the tree;
- the descendants, by parent pid, of every member: a ``setsid`` child whose
  parent still lives;
- the orphans the harness adopted: children of the harness process that it did
  not start itself (their session is not the harness's own, nor another live
  candidate's) and that started no earlier than this candidate.

Every member is sent SIGKILL (through a pidfd where the kernel has one, so a
recycled pid is never hit), and those that are the harness's children are
reaped with ``waitpid`` on their pid (never ``waitpid(-1)``, which would steal
the exit status `subprocess` waits for). Every wait is bounded. Orphans of
what the harness itself runs stay in its own session: they are never killed
nor reaped here.

Elsewhere (no ``/proc``, no prctl) a `Family` is empty and the process group
is all that is killed, as before: the behaviour is feature-detected, never
assumed.

What this cannot contain, and what ``--toolproof-netns`` (`toolproof.connect.egress`)
adds beyond it: the network namespace confines the candidate and everything it
starts, orphans and re-parented daemons included, to a loopback with relays to
the harness's fakes, so no process of the candidate reaches the network
however it detaches. It does not contain *processes* (there is no PID
namespace; the pids above are the same inside it), so the subreaper is what
cleans up in both cases. Neither contains work a candidate hands to a process
outside its own tree (a service manager, a container daemon, ``at``): that
process was never the candidate's descendant. Two live candidates of one
harness process (a worker's connection and a conduct twin) are told apart by
session and start time; an orphan that left its session after both started
goes with whichever of them stops first.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")
_LINUX = sys.platform.startswith("linux")  # the /proc/PID/stat layout read here is Linux's
_lock = threading.Lock()
# pid -> whether this process is a subreaper; keyed by pid because a forked child does not inherit it.
_subreaper: dict[int, bool] = {}
# Live candidate roots of this process (pid -> start time): never another family's member.
_roots: dict[int, int] = {}


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux); False where the platform offers none."""
    pid = os.getpid()
    with _lock:
        if pid not in _subreaper:
            _subreaper[pid] = _prctl_subreaper()
        return _subreaper[pid]


def _prctl_subreaper() -> bool:
    if not _LINUX:
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return int(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0


@dataclass(frozen=True)
class Proc:
    """One process as /proc/PID/stat shows it; (pid, start) identifies it across pid reuse."""

    pid: int
    ppid: int
    pgid: int
    sid: int
    state: str
    #: Clock ticks after boot (field 22).
    start: int

    @property
    def dead(self) -> bool:
        """A zombie (it only waits to be reaped) or already gone."""
        return self.state in ("Z", "X", "x")


def read(pid: int) -> Proc | None:
    """The process `pid`, or None when there is none (or no Linux /proc)."""
    if not _LINUX:
        return None
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
        fields = stat[stat.rindex(b")") + 2 :].split()  # the name in parentheses may hold spaces
        return Proc(
            pid=pid,
            ppid=int(fields[1]),
            pgid=int(fields[2]),
            sid=int(fields[3]),
            state=fields[0].decode("ascii", "replace"),
            start=int(fields[19]),
        )
    except (OSError, ValueError, IndexError):
        return None


def processes() -> dict[int, Proc]:
    """Every process visible in /proc (empty where there is no Linux /proc)."""
    if not _LINUX:
        return {}
    try:
        names = os.listdir(_PROC)
    except OSError:
        return {}
    table = {}
    for name in names:
        if name.isdigit() and (proc := read(int(name))) is not None:
            table[proc.pid] = proc
    return table


def start_of(pid: int) -> int:
    """The start time of `pid` (0 where there is no /proc)."""
    proc = read(pid)
    return proc.start if proc is not None else 0


class Family:
    """A candidate's root process and every process it started (see the module docstring)."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.start = start_of(root)
        with _lock:
            _roots[root] = self.start

    def members(self) -> list[Proc]:
        """The family as it is now, zombies included, the root excluded (its Popen waits for it)."""
        table = processes()
        if not table:
            return []
        me, my_session = os.getpid(), os.getsid(0)
        with _lock:
            others = {pid for pid in _roots if pid != self.root}
        chosen: dict[int, Proc] = {}
        for proc in table.values():
            if proc.pid in (me, self.root) or proc.pid in others:
                continue
            in_session = proc.sid == self.root
            adopted = proc.ppid == me and proc.sid not in (my_session, *others) and proc.start >= self.start
            if in_session or adopted:
                chosen[proc.pid] = proc
        children: dict[int, list[Proc]] = {}
        for proc in table.values():
            children.setdefault(proc.ppid, []).append(proc)
        pending = [self.root, *chosen]
        while pending:
            for child in children.get(pending.pop(), []):
                if child.pid not in chosen and child.pid not in others and child.pid not in (me, self.root):
                    chosen[child.pid] = child
                    pending.append(child.pid)
        return sorted(chosen.values(), key=lambda proc: proc.pid)

    def kill(self, members: list[Proc]) -> None:
        """SIGKILL `members` (taken with `members()` before the group was killed: the tree then still
        showed who is whose), those still the processes they were."""
        for proc in members:
            if not proc.dead:
                _kill(proc)

    def reap(self, timeout: float) -> list[Proc]:
        """Kill members until none is left, reaping those re-parented to this process; bounded by
        `timeout`. Returns what was still there at the deadline (empty: the family is gone)."""
        deadline = time.monotonic() + timeout
        me = os.getpid()
        try:
            while True:
                # A zombie whose parent is not this process is someone else's to reap (init's, without
                # a subreaper): it is dead, so it no longer counts.
                left = [proc for proc in self.members() if not proc.dead or proc.ppid == me]
                for proc in left:
                    if not proc.dead:
                        _kill(proc)
                    if proc.ppid == me:
                        _waitpid(proc.pid)
                left = [proc for proc in left if _present(proc)]
                if not left or time.monotonic() >= deadline:
                    return left
                time.sleep(0.01)
        finally:
            with _lock:
                _roots.pop(self.root, None)


def _present(proc: Proc) -> bool:
    now = read(proc.pid)
    return now is not None and now.start == proc.start and (not now.dead or now.ppid == os.getpid())


def kill(proc: Proc) -> None:
    """SIGKILL `proc` if it is still the process it was (pid and start time); never reaps it."""
    _kill(proc)


def _kill(proc: Proc) -> None:
    """SIGKILL `proc` if it is still the process it was (pid and start time)."""
    try:
        if sys.platform == "linux":
            try:
                handle = os.pidfd_open(proc.pid)
            except ProcessLookupError:
                return
            except OSError:  # a kernel without pidfds (before 5.3)
                handle = -1
            try:
                now = read(proc.pid)
                if now is None or now.start != proc.start:
                    return  # gone, and the pid already names another process
                if handle >= 0:
                    signal.pidfd_send_signal(handle, signal.SIGKILL)
                else:
                    os.kill(proc.pid, signal.SIGKILL)
            finally:
                if handle >= 0:
                    os.close(handle)
        else:
            os.kill(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _waitpid(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:  # reaped meanwhile (by its own Popen, if it ever had one)
        pass
