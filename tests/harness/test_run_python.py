"""`run_python` (toolproof/controls/forkserver.py): a `python -c` forked from a preloaded server ends
as the subprocess it stands in for would, in the self-tests' many `toolproof run` calls."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolproof.controls.forkserver import ForkServer, await_status, run_python

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the fork server needs fork()")


def test_argv_cwd_environment_and_pythonpath_are_the_programs_own(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "faux_only_here.py").write_text("WHERE = 'lib'\n", encoding="utf-8")
    code = (
        "import os, sys, faux_only_here\n"
        "print(sys.argv, os.getcwd(), os.environ['TP_MARK'], faux_only_here.WHERE, sys.path[:2])\n"
        "print('to stderr', file=sys.stderr)\n"
        "sys.exit(7)\n"
    )
    env = {**os.environ, "TP_MARK": "marked", "PYTHONPATH": str(tmp_path / "lib")}
    done = run_python(code, ["a", "b"], cwd=tmp_path, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        7,
        f"['-c', 'a', 'b'] {tmp_path} marked lib ['', '{tmp_path / 'lib'}']\n",
        "to stderr\n",
    )
    assert done.args == [sys.executable, "-c", code, "a", "b"]


def test_an_uncaught_exception_exits_1_with_its_traceback(tmp_path: Path) -> None:
    done = run_python("raise ValueError('boom')", [], cwd=tmp_path, env=dict(os.environ), timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.endswith("ValueError: boom\n"), done.stderr


def test_the_program_ends_as_a_program_ends_threads_joined_atexit_run(tmp_path: Path) -> None:
    code = (
        "import atexit, threading, time\n"
        "atexit.register(lambda: print('atexit', flush=True))\n"
        "threading.Thread(target=lambda: (time.sleep(0.5), print('thread', flush=True))).start()\n"
    )
    done = run_python(code, [], cwd=tmp_path, env=dict(os.environ), timeout=60)
    assert (done.returncode, done.stdout) == (0, "thread\natexit\n")


def test_a_program_past_its_timeout_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    with pytest.raises(subprocess.TimeoutExpired):
        run_python(code, [], cwd=tmp_path, env=dict(os.environ), timeout=3)
    pid = int(marker.read_text(encoding="utf-8"))
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"the timed-out program {pid} is still running")


def test_the_servers_own_pythonpath_gives_way_to_the_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server keeps the PYTHONPATH it was started with; a program sees only its own, as a fresh
    `python -c` with that environment would."""
    served, wanted = tmp_path / "served", tmp_path / "wanted"
    monkeypatch.setenv("PYTHONPATH", str(served))
    server = ForkServer()
    try:
        out, status = tmp_path / "stdout", tmp_path / "status"
        request = {
            "code": "import sys; print([p for p in sys.path if p.startswith(sys.argv[1])])",
            "argv": [str(tmp_path)],
            "cwd": str(tmp_path),
            "env": {**os.environ, "PYTHONPATH": str(wanted)},
            "stdout": str(out),
            "stderr": str(tmp_path / "stderr"),
            "status": str(status),
        }
        ended = await_status(server.fork(request), status, 60, signal.SIGTERM, ["python", "-c"])
    finally:
        server.close()
    assert ended is not None
    assert (ended["exit"], out.read_text(encoding="utf-8")) == (0, f"[{str(wanted)!r}]\n")
