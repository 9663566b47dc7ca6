"""`cmd:` candidates: a subprocess speaking JSON Lines on stdin/stdout.

One process per pytest worker. After a crash, a timeout, a malformed or an
unsolicited line the candidate is killed, with everything it started
(`toolproof.connect.reaper`: its process group, its session, its descendants and
the orphans the harness adopted as child subreaper), and the next request starts
a fresh process: the harness never tries to resync a stream it cannot trust.

Responses carry no request id, so a line is matched to its request by position:
exactly one line answers each request. The harness reads stdout itself, on the
thread that asks (no reader thread runs behind its back), so it knows which
bytes were in the pipe at each moment:

- before it writes a request it takes every byte the pipe already holds: a line
  there, or part of one, was asked for by nobody;
- after the answer's line, whatever came with it (the rest of the same write) or
  is already in the pipe was asked for by nobody either: an answer written twice
  in one write is caught at that answer, every time, whatever the timing;
- at the end of the session (`close`, `end_input`) it closes stdin and reads
  stdout until EOF: a line written after the last answer is caught there.

Each of these is an `UnsolicitedLine` (adapter-protocol: `tp-proto-response-order`
for a JSON object, `tp-proto-stdout-protocol-only` for a stray print). Only a
line written after the harness looked and before its request arrived cannot be
told from that request's answer.

stderr is read by a thread (a candidate must never block on a full stderr pipe),
each line stamped when it is read. Every request is a window of time belonging
to the current scope (a test, `begin_scope`): the stderr shown with an error, and
`scope_stderr`, are the lines read during that scope's own requests, never
another test's.
"""

from __future__ import annotations

import json
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import IO, Any, NoReturn, Protocol

from toolproof.connect import reaper
from toolproof.connect.protocol import END_OF_SESSION_GRACE, decode_line, encode, line_text
from toolproof.errors import CandidateStartError, CandidateTimeout, ProtocolViolation, UnsolicitedLine

MAX_LINE = 16 * 1024 * 1024
_STDERR_KEEP = 64 * 1024
_SHOWN = 500
_TAIL = 2000
_CHUNK = 1 << 20
"""Bytes asked of the pipe per read: more than a pipe holds, so one write that fits is read whole."""
_DRAIN_READS = 64
"""Reads at most while taking what the pipe holds without waiting (a candidate printing without pause)."""
_PUMP_MS = 50
"""How long the stderr thread waits for bytes before it looks again (it never blocks holding the lock)."""
_WINDOWS = 4096
"""Request windows kept for scoping stderr (a test makes a handful)."""
_POLL = 0.05
"""At the end of the session: how often to look whether the candidate has exited."""
UNSCOPED = "its requests"
IN_SCOPE = "this test's requests"


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


class _Stdout:
    """A candidate's stdout, read and split into lines by the thread that asks for the next one.

    Lines keep their "\\n" (a line without one is where the stream ended inside it); a line longer
    than MAX_LINE is cut to MAX_LINE + 1 bytes and ends the reading (the caller refuses it).
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self._fd = stream.fileno()
        # poll, not select: select refuses a descriptor numbered FD_SETSIZE (1024) or more.
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLIN)
        self._buffer = bytearray()
        self._lines: deque[bytes] = deque()
        #: EOF was read, or reading stopped at an over-long line: no more lines will come.
        self.ended = False

    def _read(self, wait: float) -> bool:
        """Take what the pipe holds, waiting up to `wait` s for a first byte; whether anything came."""
        if self.ended:
            return False
        if not self._poll.poll(max(math.ceil(wait * 1000), 0)):  # readable, or the write end closed
            return False
        try:
            chunk = os.read(self._fd, _CHUNK)
        except OSError:
            chunk = b""
        if not chunk:
            self.ended = True
            if self._buffer:  # the stream ended inside a line
                self._lines.append(bytes(self._buffer))
                self._buffer.clear()
            return True
        start = len(self._buffer)
        self._buffer += chunk
        cut, end = 0, self._buffer.find(b"\n", start)  # the buffer held no line end before this chunk
        while end != -1 and not self.ended:
            self._add(bytes(self._buffer[cut : end + 1]))
            cut, end = end + 1, self._buffer.find(b"\n", end + 1)
        del self._buffer[:cut]
        if len(self._buffer) > MAX_LINE and not self.ended:
            self._add(bytes(self._buffer[: MAX_LINE + 1]))
        if self.ended:
            self._buffer.clear()
        return True

    def _add(self, line: bytes) -> None:
        if len(line) > MAX_LINE:
            self._lines.append(line[: MAX_LINE + 1])
            self.ended = True
        else:
            self._lines.append(line)

    def next_line(self, deadline: float) -> bytes | None:
        """The next line, or None at EOF; TimeoutError when none is complete by `deadline` (monotonic)."""
        while not self._lines:
            if self.ended:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self._read(left)
        return self._lines.popleft()

    def drain(self) -> list[bytes]:
        """Every line, and the part of one, the pipe already holds, taken now (never waits)."""
        self.pending()
        lines = list(self._lines)
        if self._buffer:
            lines.append(bytes(self._buffer[: MAX_LINE + 1]))
        self._lines.clear()
        self._buffer.clear()
        return lines

    def pending(self) -> bytes | None:
        """The first line, or part of one (no "\\n"), already written and not taken yet; None when the
        pipe holds nothing (EOF is nothing). Never waits."""
        for _ in range(_DRAIN_READS):
            if self._lines or not self._read(0.0):
                break
        if self._lines:
            return self._lines[0]
        if self._buffer:
            return bytes(self._buffer[: 4 * _SHOWN])
        return None


class _Stderr:
    """A candidate's stderr, read by a thread (a candidate must never block on a full pipe) and drained
    on demand by the thread that asks. Both read only under one lock, and only bytes the pipe already
    holds (never blocking inside it), so every byte the pipe held when `drain` was called has been
    handed to `sink`, stamped, by the time it returns: stdout and stderr are two pipes, and a line
    written before an answer may otherwise be read only after it."""

    def __init__(self, stream: IO[bytes], sink: Callable[[str], None]) -> None:
        self._fd = stream.fileno()
        self._sink = sink
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._drainer = select.poll()  # one poll object per thread: they cannot be shared
        self._drainer.register(self._fd, select.POLLIN)
        self.ended = False

    def pump(self) -> None:
        """The thread's loop: wait for bytes without the lock, take them with it, until EOF."""
        waiter = select.poll()
        waiter.register(self._fd, select.POLLIN)
        while not self.ended:
            waiter.poll(_PUMP_MS)
            self.drain()

    def drain(self) -> None:
        """Hand every complete line the pipe holds now to the sink (and the last part, at EOF)."""
        with self._lock:
            for _ in range(_DRAIN_READS):
                if self.ended or not self._drainer.poll(0):
                    return
                try:
                    chunk = os.read(self._fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.ended = True
                    if self._buffer:
                        self._sink(self._buffer.decode("utf-8", "replace"))
                        self._buffer.clear()
                    return
                self._buffer += chunk
                cut = self._buffer.rfind(b"\n") + 1
                if cut:
                    for line in bytes(self._buffer[:cut]).splitlines(keepends=True):
                        self._sink(line.decode("utf-8", "replace"))
                    del self._buffer[:cut]


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
        self._stdout: _Stdout | None = None
        self._stderr: deque[tuple[float, str]] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._readers: list[threading.Thread] = []
        self._stderr_pipe: _Stderr | None = None
        self._subreaper = subreaper
        self._family: reaper.Family | None = None
        self._scope: str | None = None
        #: [start, end (None while in flight), scope] of each request, oldest first.
        self._windows: deque[list[Any]] = deque(maxlen=_WINDOWS)
        self._answered: str | None = None  # the op of the last answer read

    @property
    def env(self) -> dict[str, str]:
        """The environment the candidate is started with (a copy)."""
        return dict(self._env)

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
        assert proc.stdout is not None and proc.stderr is not None
        self._stdout = _Stdout(proc.stdout)
        self._answered = None
        self._stderr_pipe = _Stderr(proc.stderr, self._keep_stderr)
        self._readers = [threading.Thread(target=self._stderr_pipe.pump, daemon=True)]
        for reader in self._readers:
            reader.start()
        self._proc = proc
        return proc

    def _keep_stderr(self, text: str) -> None:
        """One stderr line, stamped now (the sink of `_Stderr`)."""
        if self._trace is not None:
            self._trace.write(f"[candidate stderr] {text}")
        self._stderr.append((time.monotonic(), text))
        self._stderr_size += len(text)
        while self._stderr_size > _STDERR_KEEP and self._stderr:
            self._stderr_size -= len(self._stderr.popleft()[1])

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        self._stdout = self._stderr_pipe = None  # their fds are closed below, and may then be reused
        if proc is None:
            return
        # Bump now, not at the next start: the Candidate must see the change *before* its next
        # request, so that a fresh process is greeted with hello first.
        self.generation += 1
        self._terminate(proc)
        # Let the stderr reader drain to EOF (the stderr tail is then complete). A reader still
        # blocked means a process outside the group holds the pipe: closing its stream would block on
        # the reader's buffer lock forever, so leave that stream to the daemon thread. stdout has no
        # reader: nothing reads it once the process is gone.
        streams: list[IO[bytes] | None] = [proc.stdin, proc.stdout]
        for reader, stream in zip(self._readers, (proc.stderr,), strict=True):
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
        """Write one line, read exactly one line back; kill and restart on any breach.

        Raises UnsolicitedLine when stdout held a line before the request was written, or when more
        than the answer's line came with the answer.
        """
        with self._lock:
            window: list[Any] = [time.monotonic(), None, self._scope]  # before a start: its stderr too
            self._windows.append(window)
            try:
                return self._exchange(message, timeout)
            finally:
                window[1] = time.monotonic()

    def _exchange(self, message: dict[str, Any], timeout: float) -> tuple[Any, str]:
        fresh = self._proc is None
        proc = self._proc or self._start()
        if fresh:
            timeout += self.startup_grace
        stdout = self._stdout
        assert stdout is not None  # set by _start
        op = str(message.get("op"))
        early = stdout.pending()
        if early is not None:
            after = f" (after the answer to {self._answered!r})" if self._answered else ""
            self._unsolicited(early, f"before {op!r} was sent{after}")
        line = encode(message)
        self._log(">", line)
        sent_at = time.monotonic()
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
            raw = stdout.next_line(sent_at + timeout)
        except TimeoutError:
            at = time.monotonic()
            self._fail()
            raise CandidateTimeout(
                f"no response to {op!r} within {timeout:g} s{self._tail()}", op=op, sent_at=sent_at, at=at
            ) from None
        if raw is None:
            self._ended(proc, f"before answering {op!r}")
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
        self._answered = op
        extra = stdout.pending()
        if extra is not None:
            self._unsolicited(extra, f"right after the answer to {op!r}, before any other request")
        if self._stderr_pipe is not None:
            self._stderr_pipe.drain()  # what it wrote to stderr before answering is this request's
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

    def _unsolicited(self, raw: bytes, when: str) -> NoReturn:
        text = line_text(raw)
        self._log("<", text)
        self._fail()
        whole = raw.endswith(b"\n")
        message = unsolicited_message(text, when, whole=whole) + self._tail()
        raise UnsolicitedLine(message, is_object=whole and is_json_object(text))

    def _fail(self) -> None:
        self._kill()

    # -- stderr, scoped ------------------------------------------------------
    def begin_scope(self, scope: str) -> None:
        """From now on, requests belong to `scope` (a test): the stderr an error shows, and
        `scope_stderr(scope)`, are the lines the candidate wrote during that scope's requests."""
        with self._lock:
            self._scope = scope

    def scope_stderr(self, scope: str | None) -> str:
        """The stderr lines read during the requests of `scope`, in order (None: of unscoped requests)."""
        now = time.monotonic()
        spans = [
            (start, now if end is None else end)
            for start, end, owner in list(self._windows)
            if owner == scope
        ]
        return "".join(text for at, text in list(self._stderr) if any(a <= at <= b for a, b in spans))

    def _tail(self) -> str:
        """The stderr of the current scope's requests (this one included), labelled, for an error."""
        tail = self.scope_stderr(self._scope)[-_TAIL:]
        label = UNSCOPED if self._scope is None else IN_SCOPE
        return f"\n--- candidate stderr during {label} ---\n{tail}" if tail.strip() else ""

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
        stdout = self._stdout
        if stdout is None:  # no process (never started, or killed): nothing more to read
            return None
        try:
            raw = stdout.next_line(time.monotonic() + timeout)
        except TimeoutError:
            raise CandidateTimeout(f"no stdout line within {timeout:g} s{self._tail()}") from None
        if raw is None:
            return None
        text = line_text(raw)
        self._log("<", text)
        return text

    def end_input(self, grace: float) -> list[str]:
        """Close stdin (the end of the session) and return the stdout lines written until EOF.

        Reading stops at EOF, or once the candidate has exited and its pipe holds nothing more (a
        child of it may keep stdout open), or after `grace` seconds; then the process group is
        killed. Every request was answered before, so each line returned is unsolicited.
        """
        with self._lock:
            proc, stdout = self._proc, self._stdout
            rest: list[str] = []
            if proc is None or stdout is None:
                return rest
            if proc.stdin is not None:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
            deadline = time.monotonic() + grace
            while (left := deadline - time.monotonic()) > 0:
                try:
                    raw = stdout.next_line(time.monotonic() + min(left, _POLL))
                except TimeoutError:
                    if proc.poll() is None:
                        continue
                    rest += [self._received(one) for one in stdout.drain()]  # exited: what is left
                    break
                if raw is None:
                    break
                rest.append(self._received(raw))
            self._kill()
            return rest

    def _received(self, raw: bytes) -> str:
        text = line_text(raw)
        self._log("<", text)
        return text

    def discard(self) -> None:
        """The stream can no longer be trusted: kill now, restart on the next request."""
        with self._lock:
            self._kill()

    def _log(self, direction: str, line: str) -> None:
        if self._trace is not None:
            self._trace.write(f"{direction} {line}\n")
            self._trace.flush()

    def close(self) -> None:
        """End the session (`end_input`): a line stdout still carries is not looked at; use
        `end_input` to judge it."""
        self.end_input(END_OF_SESSION_GRACE)

    def diagnostics(self) -> str:
        """The tail of the candidate's stderr."""
        return "".join(text for _at, text in list(self._stderr))[-4000:]


def unsolicited_message(text: str, when: str, *, whole: bool = True) -> str:
    """What an UnsolicitedLine says: the line (or the part of one, `whole` false) and where it was."""
    what = "a line" if whole else "part of a line (no line end yet)"
    return (
        f"stdout carried {what} nobody asked for, {when}: {_cut(text)!r} -- protocol v1 answers each"
        " request with exactly one line (a duplicated response, or a stray print?)"
    )


def is_json_object(text: str) -> bool:
    """Whether a stdout line is a JSON object: a response (asked for or not), not a stray print."""
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def default_trace() -> IO[str]:
    """Where --trace-protocol writes: stderr, so it never mixes with pytest's report."""
    return sys.stderr
