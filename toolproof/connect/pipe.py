"""`pipe:` candidates: a Python stdio adapter's JSON Lines loop on a thread of this process, over OS pipes.

`pipe:package.module:factory` runs ``package.module.serve(stdin, stdout, factory())`` -- the loop the
module's `main` runs over a real process's stdin and stdout, in the shape of the reference adapter
(candidates/reference/adapter.py) -- on a daemon thread, with three `os.pipe()` pairs as its stdin,
stdout and stderr. `PipeConnection` is a `StdioConnection` whose process is that thread: the same
writer, stdout reading, strict decoder and limits as `cmd:`, so one response per
request, strict decoding and unsolicited lines are judged exactly as over a subprocess, and its
`transport` is "cmd" (a JSON Lines wire: the suite's wire and conduct tests run, on twins that are
threads too).

Why it exists: mutation testing. mutmut sees only code that runs in the test process; a `cmd:`
subprocess is invisible to it, and a `py:` candidate is called method by method, so the adapter's
own protocol layer (line reading, decoding, dispatch, request validation, the response writer) never
runs under the suite. Over pipes it does, in-process, and on a thread mutmut's trampolines record
(they note hits in one process-wide set).

Where it differs from a subprocess, by design:

- `main` and its `protect_stdout` do not run. fd 1, `sys.stdout` and `sys.stdin` belong to the whole
  process (pytest's capture swaps them per test; other threads print through them): redirecting them
  from a thread would break the capture and every other thread. The thread is given its own pipe as
  stdout instead, which is what `protect_stdout` hands `serve` in a real process. So a stray print in
  the candidate goes to this process's stdout, never into the protocol stream: only `cmd:` can catch
  a stray print.
- Its stderr is this process's. The pipe the connection reads as the candidate's stderr carries only
  the traceback of an exception that ended `serve` (a crashing interpreter prints one), for the
  "stderr tail" of the error that follows; the exit code is then 1 (0 when `serve` returns).
- A thread cannot be killed. A kill closes its stdin (EOF: `serve` leaves its loop and releases its
  agents) and waits up to KILL_GRACE seconds; a thread still running then (hung in candidate code) is
  abandoned, as a daemon, with its pipes. Every wait has a timeout: a hung candidate never hangs the
  harness. As over `cmd:`, the next request starts a fresh thread with a fresh candidate object.
- An in-process candidate shares the harness's network: the egress guard is the in-process one.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import threading
import traceback
from collections.abc import Callable
from typing import IO

from toolproof.connect.inprocess import load_factory, origin_of
from toolproof.connect.stdio import Process, StdioConnection
from toolproof.errors import CandidateStartError

KILL_GRACE = 5.0
"""Seconds a kill waits for the thread to end after its stdin closed (`cmd:` waits as long after SIGKILL)."""

THREAD_NAME = "toolproof-pipe-candidate"

Serve = Callable[[IO[bytes], IO[bytes]], None]
"""The adapter's loop, bound to its candidate object: serve(stdin, stdout) until stdin's EOF."""


def load_serve(target: str) -> Serve:
    """`package.module:factory` -> a function that serves `factory()` with the module's `serve`.

    Imported and looked up now (CandidateStartError), so that a bad spec starts no thread. The
    factory itself runs on the thread, as the adapter's `main` runs it in its process.
    """
    factory = load_factory(target)
    module = importlib.import_module(target.partition(":")[0])
    serve = getattr(module, "serve", None)
    if not callable(serve):
        raise CandidateStartError(
            f"{module.__name__!r} has no callable serve(stdin, stdout, candidate): pipe: runs a stdio"
            " adapter's JSON Lines loop (see candidates/reference/adapter.py)"
        )

    def bound(stdin: IO[bytes], stdout: IO[bytes]) -> None:
        serve(stdin, stdout, factory())

    return bound


class ServingThread:
    """A `Process` that is a thread: `serve` over three OS pipes, seen from the harness's ends."""

    def __init__(self, serve: Serve) -> None:
        stdin_r, stdin_w = os.pipe()  # os.pipe() fds are not inherited by the candidate's children
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        # The harness's ends, buffered as subprocess.Popen's are (bufsize -1).
        self.stdin: IO[bytes] | None = os.fdopen(stdin_w, "wb")
        self.stdout: IO[bytes] | None = os.fdopen(stdout_r, "rb")
        self.stderr: IO[bytes] | None = os.fdopen(stderr_r, "rb")
        self.returncode: int | None = None
        ends = (os.fdopen(stdin_r, "rb"), os.fdopen(stdout_w, "wb"), os.fdopen(stderr_w, "wb"))
        self._thread = threading.Thread(target=self._main, args=(serve, *ends), name=THREAD_NAME, daemon=True)
        self._thread.start()

    def _main(self, serve: Serve, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes]) -> None:
        code = 0
        try:
            serve(stdin, stdout)
        except BaseException:  # the thread's whole life: whatever ends it is the candidate's exit
            code = 1
            try:
                stderr.write(traceback.format_exc().encode("utf-8", "replace"))
            except OSError:
                pass
        finally:
            self.returncode = code
            # stderr first: its tail is complete by the time the harness sees stdout's EOF and
            # reports; then stdout (EOF: "the candidate exited") and stdin (a write gets EPIPE).
            for stream in (stderr, stdout, stdin):
                try:
                    stream.close()
                except OSError:  # unflushed bytes nobody reads any more
                    pass

    def poll(self) -> int | None:
        """The exit code once the thread has ended, else None."""
        return None if self._thread.is_alive() else self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Join the thread; subprocess.TimeoutExpired if it is still running after `timeout` s."""
        self._thread.join(timeout)
        if self._thread.is_alive() or self.returncode is None:
            raise subprocess.TimeoutExpired(THREAD_NAME, timeout or 0.0)
        return self.returncode


class PipeConnection(StdioConnection):
    """A `pipe:` candidate: StdioConnection's line handling, with a thread for the process."""

    def __init__(self, target: str, *, startup_grace: float, trace: IO[str] | None = None) -> None:
        self._serve = load_serve(target)
        super().__init__(
            f"pipe:{target}", env={}, cwd=None, startup_grace=startup_grace, trace=trace, subreaper=False
        )
        self.target = target
        self.origin = origin_of(target)  # the module file, as for py: (controls check where it came from)

    def _spawn(self) -> Process:
        return ServingThread(self._serve)

    def _terminate(self, proc: Process) -> None:
        """Close its stdin (EOF ends the loop) and wait; a thread still running after KILL_GRACE is left."""
        # Nobody reads stdout once the candidate is killed: closing our end makes a write the thread is
        # blocked in fail (EPIPE), as SIGKILL would end a process's write.
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:  # unflushed request bytes the thread no longer reads
                    pass
        try:
            proc.wait(timeout=KILL_GRACE)
        except subprocess.TimeoutExpired:
            pass

    def twin(self) -> PipeConnection:
        """A new connection to a fresh thread serving a fresh candidate object of the same factory."""
        return PipeConnection(self.target, startup_grace=self.startup_grace, trace=self._trace)
