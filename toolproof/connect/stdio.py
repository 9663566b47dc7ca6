"""`cmd:` candidates: a subprocess speaking JSON Lines on stdin/stdout.

One process per pytest worker. After a crash, a timeout, a malformed or an
unsolicited line the candidate is killed, with everything it started
(`toolproof.connect.reaper`: its process group, its session, its descendants and
the orphans the harness adopted as child subreaper), and the next request starts
a fresh process: the harness never tries to resync a stream it cannot trust.

Responses carry no request id, so a line is matched to a request by time: a
response is due only once its request is written. A line that was already
read when the harness is about to write a request (a duplicated response, a
late answer, a stray print) is unsolicited. The reader thread stamps each line
when it reads it, so a line read before the request was written is caught even
if it was queued after the harness looked; a line still in the pipe, not yet
read, when the request is written is indistinguishable from its answer.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import IO, Any, NamedTuple, NoReturn, Protocol

from toolproof.connect import reaper
from toolproof.connect.protocol import decode_line, encode, line_text
from toolproof.errors import CandidateStartError, CandidateTimeout, ProtocolViolation

MAX_LINE = 16 * 1024 * 1024
_STDERR_KEEP = 64 * 1024
_EOF = object()
_SHOWN = 500


class Process(Protocol):
    """What StdioConnection needs of a running candidate: a `subprocess.Popen`, or the in-process
    stand-in of `toolproof.connect.pipe` (which overrides `_spawn` and `_terminate`)."""

    stdin: IO[bytes] | None
    stdout: IO[bytes] | None
    stderr: IO[bytes] | None

    def poll(self) -> int | None:
        """The exit code, or None while it runs."""
        ...

    def wait(self, timeout: float | None = None) -> int:
        """The exit code; raises subprocess.TimeoutExpired after `timeout` s."""
        ...


class _Line(NamedTuple):
    """One stdout line as the reader thread read it."""

    at: float  # time.monotonic() when it was read
    raw: bytes


class StdioConnection:
    """A `cmd:` candidate process; restarted after any breach of the protocol."""

    def __init__(
        self,
        command: str,
        *,
        env: Mapping[str, str],
        cwd: str | None,
        startup_grace: float,
        trace: IO[str] | None = None,
        subreaper: bool = True,
    ) -> None:
        """`subreaper`: make this process a child subreaper (Linux) when the candidate starts, so that
        the candidate's orphans come back to it and die with the candidate (toolproof.connect.reaper)."""
        self.command = command
        self.origin = command
        self.transport = "cmd"
        self.generation = 0
        self._env = dict(env)
        self._cwd = cwd
        self.startup_grace = startup_grace
        self._trace = trace
        self._proc: Process | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._readers: list[threading.Thread] = []
        self._subreaper = subreaper
        self._family: reaper.Family | None = None

    # -- process lifecycle -------------------------------------------------
    def _spawn(self) -> Process:
        """Start the candidate process (with its family, for _terminate)."""
        if self._subreaper:
            reaper.become_subreaper()  # before the candidate can orphan anything
        try:
            proc = subprocess.Popen(
                self.command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self._cwd,
                env=self._env,
                start_new_session=True,  # its own process group, so we can kill all of it
            )
        except OSError as exc:
            raise CandidateStartError(f"cannot start {self.command!r}: {exc}") from exc
        self._family = reaper.Family(proc.pid)
        return proc

    def _start(self) -> Process:
        proc = self._spawn()
        self._lines = queue.Queue()
        assert proc.stdout is not None and proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_stdout, args=(proc.stdout, self._lines), daemon=True),
            threading.Thread(target=self._read_stderr, args=(proc.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self._proc = proc
        return proc

    def _read_stdout(self, stream: IO[bytes], lines: queue.Queue[object]) -> None:
        while True:
            raw = stream.readline(MAX_LINE + 1)
            if not raw:
                lines.put(_EOF)
                return
            lines.put(_Line(time.monotonic(), raw))
            if len(raw) > MAX_LINE:
                lines.put(_EOF)
                return

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", "replace")
            if self._trace is not None:
                self._trace.write(f"[candidate stderr] {text}")
            self._stderr.append(text)
            self._stderr_size += len(text)
            while self._stderr_size > _STDERR_KEEP and self._stderr:
                self._stderr_size -= len(self._stderr.popleft())

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        # Bump now, not at the next start: the Candidate must see the change *before* its next
        # request, so that a fresh process is greeted with hello first.
        self.generation += 1
        self._terminate(proc)
        # Let the readers drain to EOF (the stderr tail is then complete). A reader still blocked
        # means a process outside the group holds the pipe: closing its stream would block on the
        # reader's buffer lock forever, so leave that stream to the daemon thread.
        streams: list[IO[bytes] | None] = [proc.stdin]
        for reader, stream in zip(self._readers, (proc.stdout, proc.stderr), strict=True):
            reader.join(timeout=1.0)
            if not reader.is_alive():
                streams.append(stream)
        for stream in streams:
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def _terminate(self, proc: Process) -> None:
        """Kill the candidate's process group and family, and reap them."""
        assert isinstance(proc, subprocess.Popen)  # what _spawn started
        family, self._family = self._family, None
        # Who is whose, taken while the tree is intact; killed after the group, so that no shell of the
        # group outlives its child long enough to report the kill on stderr.
        members = family.members() if family is not None else []
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if family is not None:
            family.kill(members)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if family is not None:
            family.reap(timeout=5)  # what forked meanwhile, and the orphans re-parented to us

    # -- the Connection interface -----------------------------------------
    def request(self, message: dict[str, Any], timeout: float) -> tuple[Any, str]:
        """Write one line, read exactly one line back; kill and restart on any breach."""
        with self._lock:
            fresh = self._proc is None
            proc = self._proc or self._start()
            if fresh:
                timeout += self.startup_grace
            op = message.get("op")
            sent_at = time.monotonic()
            with self._lines.mutex:
                waiting = self._lines.queue[0] if self._lines.queue else None
            if isinstance(waiting, _Line):
                self._unsolicited(waiting, op)
            line = encode(message)
            self._log(">", line)
            try:
                assert proc.stdin is not None
                proc.stdin.write(line.encode("utf-8") + b"\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                self._fail()
                raise ProtocolViolation(
                    f"candidate closed its stdin ({exc}); exit code {proc.poll()}{self._tail()}"
                ) from exc
            try:
                item = self._lines.get(timeout=timeout)
            except queue.Empty:
                self._fail()
                raise CandidateTimeout(f"no response to {op!r} within {timeout:g} s{self._tail()}") from None
            if item is _EOF:
                self._ended(proc, f"before answering {op!r}")
            assert isinstance(item, _Line)
            if item.at < sent_at:  # read before the request was written: it cannot answer it
                self._unsolicited(item, op)
            raw = item.raw
            if len(raw) > MAX_LINE:
                self._fail()
                raise ProtocolViolation(f"response line longer than {MAX_LINE} bytes")
            if not raw.endswith(b"\n"):  # the stream ended inside the line (EOF follows it)
                shown = line_text(raw)
                self._ended(proc, f"in the middle of a line, before answering {op!r}: {_cut(shown)!r}")
            try:
                decoded, text = decode_line(raw)
            except ProtocolViolation as exc:
                self._log("<", line_text(raw))
                self._fail()
                raise ProtocolViolation(f"{exc}{self._tail()}") from None
            self._log("<", text)
            return decoded, text

    def _ended(self, proc: Process, when: str) -> NoReturn:
        """stdout reached EOF: the candidate exited (or closed stdout and kept running)."""
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # it closed stdout but kept running
            self._fail()
            raise ProtocolViolation(f"candidate closed its stdout {when}{self._tail()}") from None
        self._fail()
        raise ProtocolViolation(f"candidate exited (code {code}) {when}{self._tail()}")

    def _unsolicited(self, line: _Line, op: object) -> NoReturn:
        text = line_text(line.raw)
        self._log("<", text)
        self._fail()
        raise ProtocolViolation(
            f"stdout carried a line nobody asked for, before {op!r} was sent: {_cut(text)!r} -- protocol v1"
            " answers each request with exactly one line (a duplicated response, or a stray print?)"
            f"{self._tail()}"
        )

    def _fail(self) -> None:
        self._kill()

    # -- raw stream access (adapter-conduct checks, toolproof.connect.conduct) ------
    def twin(self) -> StdioConnection:
        """A new connection that starts the same command, in the same environment and cwd."""
        return StdioConnection(
            self.command,
            env=self._env,
            cwd=self._cwd,
            startup_grace=self.startup_grace,
            trace=self._trace,
            subreaper=self._subreaper,
        )

    def send_line(self, line: str) -> None:
        """Write one request line as it is (starting the process if needed); no response is read."""
        with self._lock:
            proc = self._proc or self._start()
            self._log(">", line)
            try:
                assert proc.stdin is not None
                proc.stdin.write(line.encode("utf-8") + b"\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise ProtocolViolation(
                    f"candidate closed its stdin ({exc}); exit code {proc.poll()}{self._tail()}"
                ) from exc

    def read_line(self, timeout: float) -> str | None:
        """The next stdout line exactly as written (no line end), or None at EOF; raises on timeout.

        A line that is not UTF-8 or nests too deeply comes back as a marker that is no JSON
        (`toolproof.connect.protocol.line_text`).
        """
        try:
            item = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise CandidateTimeout(f"no stdout line within {timeout:g} s{self._tail()}") from None
        if item is _EOF:
            return None
        assert isinstance(item, _Line)
        text = line_text(item.raw)
        self._log("<", text)
        return text

    def end_input(self, grace: float) -> list[str]:
        """Close stdin (the end of the session) and return the stdout lines written until EOF.

        After `grace` seconds the process group is killed and what was read is returned.
        """
        proc = self._proc
        rest: list[str] = []
        if proc is None:
            return rest
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.read_line(left)
            except CandidateTimeout:
                break
            if line is None:
                break
            rest.append(line)
        self.close()
        return rest

    def discard(self) -> None:
        """The stream can no longer be trusted: kill now, restart on the next request."""
        with self._lock:
            self._kill()

    def _tail(self) -> str:
        tail = "".join(self._stderr)[-2000:]
        return f"\n--- candidate stderr (tail) ---\n{tail}" if tail.strip() else ""

    def _log(self, direction: str, line: str) -> None:
        if self._trace is not None:
            self._trace.write(f"{direction} {line}\n")
            self._trace.flush()

    def close(self) -> None:
        """Close stdin (a clean EOF), then kill the group if it lingers."""
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()
                proc.wait(timeout=3)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def diagnostics(self) -> str:
        """The tail of the candidate's stderr."""
        return "".join(self._stderr)[-4000:]


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def default_trace() -> IO[str]:
    """Where --trace-protocol writes: stderr, so it never mixes with pytest's report."""
    return sys.stderr
