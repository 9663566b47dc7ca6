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
"""

from __future__ import annotations

import gc
import json
import os
import resource
import signal
import sys

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
            _child(request)  # never returns
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


def _child(request: dict[str, object]) -> None:
    code = 3
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the child waits for its own subprocesses
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        fd = os.open(str(request["output"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        env = request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        cwd = str(request["cwd"])
        os.chdir(cwd)
        for name in [m for m in sys.modules if m == "candidates" or m.startswith("candidates.")]:
            del sys.modules[name]
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
            status = str(request["status"])
            usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
            cpu = round(sum(u.ru_utime + u.ru_stime for u in usage), 1)
            with open(status + ".tmp", "w", encoding="utf-8") as out:
                out.write(json.dumps({"exit": code, "cpu_seconds": cpu}))
            os.replace(status + ".tmp", status)
        finally:
            os._exit(code)
