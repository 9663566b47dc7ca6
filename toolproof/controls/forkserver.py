"""Suite runs forked from a server process that has already imported the harness (a "zygote").

A fresh `python -m pytest` spends about 3 s importing pytest, hypothesis, mcp,
openai and the harness before the first test, more than most controls' tests
take. The runner starts one server (`serve`, single-threaded) that imports
PRELOAD once; for each suite run it forks a child that runs pytest with the
same arguments, working directory, environment and sys.path as the
`python -m pytest` subprocess it replaces, only without paying the imports.

Nothing here imports `candidates`, and a child drops any `candidates` module
before it starts: the candidate is always imported from the patched copy in
the child's working directory. The runner still checks the candidate's origin
in the report, so a stale import would fail a control, never pass it. (pytest
does not rewrite the asserts of preloaded modules, and says so in a warning:
that changes the text of a harness assertion, never a verdict.)

Protocol (text lines on the server's stdin/stdout): the runner writes one JSON
request `{"args", "cwd", "env", "output", "status"}`; the server forks and
answers the child's pid. The child writes its output to `output` and, last,
`{"exit", "cpu_seconds"}` to `status`. The server ignores SIGCHLD, so the kernel reaps
children and the runner can tell a child that died without a status.

The same server also stands in for `python -c CODE ARGS...` (`run_python`: the self-tests' many
`toolproof run` subprocesses). A request with `code` forks a watcher, which forks the child and
waits for it: the child sets up what a fresh `python -c` would see (argv, environment and
PYTHONPATH on sys.path, working directory, stdin from /dev/null, stdout and stderr to files) and
lets the program end as a program ends, SystemExit and exceptions through interpreter shutdown
(atexit, non-daemon threads joined); the watcher writes its exit status. What a fork shares with
the server and a fresh process would not: its hash seed, and modules imported once (the
preloaded ones: third-party libraries and the unpatched harness, which read no environment at
import). Tests that judge either (the determinism tests, the process-tree tests) keep real
subprocesses.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Imported once by the server: third-party libraries and the unpatched harness, never `candidates`.
PRELOAD = (
    "pytest",
    "_hypothesis_pytestplugin",
    "anyio.pytest_plugin",
    "xdist.plugin",
    "xdist.looponfail",
    "hypothesis",
    "hypothesis.strategies",
    "jsonschema",
    "anyio",
    "httpx2",
    "mcp",
    "mcp_types",
    "openai",
    "uvicorn",
    "toolproof.plugin",
    "toolproof.plugin.hooks",
    "toolproof.plugin.fixtures",
    "toolproof.plugin.scenario",
    "toolproof.judge.invariants",
    "toolproof.selftest.probes",
    "toolproof.connect.inprocess",
    "toolproof.strategies.arguments",
    "toolproof.strategies.loop",
    "toolproof.strategies.schemas",
    "toolproof.strategies.toolsets",
    "toolproof.tools.cli",
)


def serve() -> None:
    """The server loop: preload, then one forked child per request line until stdin closes."""
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass  # imported by the child when it needs it
    if any(m == "candidates" or m.startswith("candidates.") for m in sys.modules):
        raise SystemExit("toolproof controls: the fork server imported `candidates`; refusing to serve")
    gc.freeze()  # the preloaded objects live on: children's collections skip them (and do not copy them)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            if "code" in request:
                _watch(request)  # never returns
            _child(request)  # never returns
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


def _child(request: dict[str, Any]) -> None:
    code = 3
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the child waits for its own subprocesses
        _redirect(str(request["output"]), str(request["output"]))
        cwd = str(request["cwd"])
        _enter(dict(request["env"]), cwd)
        sys.path.insert(0, cwd)  # as `python -m pytest` run in cwd puts it
        import pytest

        args = request["args"]
        assert isinstance(args, list)
        code = int(pytest.main([str(a) for a in args]))
    except BaseException as exc:  # report it; a child must always end with a status
        print(f"toolproof controls: the forked pytest run raised {exc!r}", file=sys.stderr)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
            _write_status(str(request["status"]), code, sum(u.ru_utime + u.ru_stime for u in usage))
        finally:
            os._exit(code)


def _redirect(stdout: str, stderr: str) -> None:
    """stdin from /dev/null, stdout and stderr to these files (the same file twice: one stream)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    out = os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = out if stderr == stdout else os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in {out, err}:
        os.close(fd)


def _enter(env: dict[str, str], cwd: str) -> None:
    """The request's environment and working directory; no `candidates` module left from the server."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    for name in [m for m in sys.modules if m == "candidates" or m.startswith("candidates.")]:
        del sys.modules[name]


def _write_status(path: str, code: int, cpu: float | None) -> None:
    """`{"exit", "cpu_seconds"}` at `path`, whole or not at all (written aside, then renamed)."""
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write(json.dumps({"exit": code, "cpu_seconds": None if cpu is None else round(cpu, 1)}))
    os.replace(path + ".tmp", path)


def _watch(request: dict[str, Any]) -> None:
    """The watcher of a `python -c` request: fork the program, wait for it, write its exit status."""
    watcher = os.getpid()
    code, cpu = 3, None
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        pid = os.fork()
        if pid == 0:
            _python_c(request)  # never returns: it ends as a program ends
        # A SIGTERM from the runner (its timeout) kills the program, as subprocess.run's kill does.
        signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGKILL))
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
    except BaseException as exc:
        if os.getpid() != watcher:
            raise  # the program's own end (SystemExit, or its exception) goes on to interpreter shutdown
        print(f"toolproof: the watcher of a forked run failed: {exc!r}", file=sys.stderr)
    try:
        _write_status(str(request["status"]), code, cpu)
    finally:
        os._exit(0)


def _python_c(request: dict[str, Any]) -> None:
    """Become `python -c request["code"] *request["argv"]` in request["cwd"] with request["env"]."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _redirect(str(request["stdout"]), str(request["stderr"]))
    # sys.path as `python -c` builds it: the working directory (''), then PYTHONPATH, then the rest,
    # where the server's own PYTHONPATH (read before its environment is replaced) gives way.
    served = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(request["env"])
    _enter(env, str(request["cwd"]))
    rest = [p for p in sys.path if p != "" and p not in served]
    wanted = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = ["", *wanted, *[p for p in rest if p not in wanted]]
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    sys.argv = ["-c", *[str(a) for a in request["argv"]]]
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    exec(compile(str(request["code"]), "<string>", "exec"), main.__dict__)
    raise SystemExit(0)


class ForkServer:
    """The client of a preloaded server (`serve`) that runs fork from; started on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._home: tempfile.TemporaryDirectory[str] | None = None

    def fork(self, request: dict[str, Any]) -> int:
        """Send one request; the pid of the forked child (of the watcher, for a `code` request)."""
        with self._lock:
            if self._process is None:
                # An empty working directory: sys.path[0] of the server shadows nothing.
                self._home = tempfile.TemporaryDirectory(prefix="toolproof-forkserver-")
                self._process = subprocess.Popen(
                    [sys.executable, "-c", "from toolproof.controls.forkserver import serve; serve()"],
                    cwd=self._home.name,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            assert self._process.stdin is not None and self._process.stdout is not None
            self._process.stdin.write(json.dumps(request) + "\n")
            self._process.stdin.flush()
            answer = self._process.stdout.readline()
        if not answer.strip().isdigit():
            raise RuntimeError(f"the fork server did not start a run (answered {answer!r})")
        return int(answer)

    def close(self) -> None:
        """Stop the server (its running children go on to their ends)."""
        with self._lock:
            if self._process is not None:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=60)
                self._process = None
            if self._home is not None:
                self._home.cleanup()
                self._home = None


def alive(pid: int) -> bool:
    """Whether a process `pid` still exists (the server's children are reaped by the kernel)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def await_status(
    pid: int, status: Path, timeout: float, kill: signal.Signals, command: Sequence[str]
) -> dict[str, Any] | None:
    """The status a forked run (`pid`, standing for `command`) writes at `status`: None if it is gone
    without one; after `timeout`, `kill` sent to it and TimeoutExpired (for `command`)."""
    deadline = time.monotonic() + timeout
    while not status.exists():
        if not alive(pid) and not status.exists():  # gone (reaped by the server) without a status
            return None
        if time.monotonic() > deadline:
            os.kill(pid, kill)
            raise subprocess.TimeoutExpired(list(command), timeout)
        time.sleep(0.02)
    ended: dict[str, Any] = json.loads(status.read_text(encoding="utf-8"))
    return ended


_PYTHON_SERVER = ForkServer() if hasattr(os, "fork") else None


def run_python(
    code: str, argv: Sequence[str], *, cwd: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([sys.executable, "-c", code, *argv], cwd=, env=, capture_output=True, text=True,
    timeout=)`, forked from the preloaded server where the platform can fork (about 3 s of imports
    saved per run); TimeoutExpired after `timeout`, the program killed."""
    command = [sys.executable, "-c", code, *argv]
    if _PYTHON_SERVER is None:
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    with tempfile.TemporaryDirectory(prefix="toolproof-python-") as scratch:
        out, err, status = (Path(scratch) / name for name in ("stdout", "stderr", "status"))
        request = {
            "code": code,
            "argv": list(argv),
            "cwd": str(cwd),
            "env": env,
            "stdout": str(out),
            "stderr": str(err),
            "status": str(status),
        }
        watcher = _PYTHON_SERVER.fork(request)
        # SIGTERM: the watcher kills the program, as subprocess.run's kill does, and writes no status.
        ended = await_status(watcher, status, timeout, signal.SIGTERM, command)
        if ended is None:
            raise RuntimeError(f"the forked watcher of {command!r} died without an exit status")
        return subprocess.CompletedProcess(
            command,
            int(ended["exit"]),
            out.read_text(encoding="utf-8", errors="replace"),
            err.read_text(encoding="utf-8", errors="replace"),
        )
