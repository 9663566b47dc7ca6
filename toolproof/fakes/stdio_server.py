"""One fake MCP route served over stdio, for a runtime to spawn; it reports its traffic to the harness.

    python -m toolproof.fakes.stdio_server --route ROUTE --token TOKEN --report URL
        [--query QUERY] [--report-env NAME ...] [--stderr-noise] [--linger SECONDS] [-- EXTRA ...]

serves ROUTE's SDK server (`toolproof.fakes.mcp_servers.route_server`, the same
definition the HTTP routes serve) on stdin/stdout with the `mcp` SDK's stdio
transport. `--query` stands in for the query string of an HTTP route's URL
(the `tenant` and `balda` routes read it); there are no headers over stdio.

Before a message reaches the server, it is reported to URL
(`McpServers.stdio_report_url`, 127.0.0.1 only) with the `--query` it was given
(the record's `query`, as an HTTP route's would be its URL's) and what the
process can tell about itself: its pid, whole command line (`sys.orig_argv`), working directory,
the value of each `--report-env` variable (None when unset), and, from Linux /proc, its start
time and its parent's pid and start time (what tells a process apart from a later one that
reuses its pid: `toolproof.plugin.processes`). The harness
appends it to the same records as the HTTP requests (`McpRequest.transport`
"stdio"). The harness answers with the token's list state (`{"shifted": bool}`:
the `shifting` route's list, which the harness holds per token, so every process
of a build serves one list); the message is served with it. A report that fails
ends the process (exit 3): traffic the harness cannot see is never served.

stdout is the protocol and nothing else writes to it: while serving, the SDK's
transport serves the wire from a copy of fd 1 and points fd 1 at stderr (as
`toolproof.adapter.protect_stdout` does), and sys.stdout is stderr. The server
writes one line to stderr when it starts (stderr is never protocol). It exits 0
when stdin closes. On `alpha`, a call of `crash_close` or `crash_http` ends the
process mid-call (exit 4) once reported: the stdio form of a dropped connection.

Two flags make a server that a runtime must handle (CONTRACT.md §5b, stdio servers):
`--stderr-noise` writes, before each request reaches the server, two stderr lines that would
break the exchange if read as protocol (a JSON-RPC error response with that request's id, and
a line that is not JSON); `--linger SECONDS` keeps the process alive that long after stdin
closed (a server that ignores EOF: only a kill ends it early).

`config_entry` gives the CONFIG entry that names this command.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import ServerMessageMetadata, SessionMessage

from toolproof.fakes.mcp_servers import McpServers, route_server
from toolproof.fakes.mcp_tools import CRASH_CLOSE, CRASH_HTTP, CRASH_ROUTE, ROUTES, RequestView

MODULE: Final = "toolproof.fakes.stdio_server"
REPORT_FAILED: Final = 3
"""Exit status when a report did not reach the harness."""
CRASHED: Final = 4
"""Exit status of a `crash_close`/`crash_http` call on `alpha`."""
RUNTIME_MARK: Final = "TOOLPROOF_RUNTIME_MARK"
RUNTIME_OVERRIDE: Final = "TOOLPROOF_RUNTIME_OVERRIDE"
RUNTIME_ENV: Final = {RUNTIME_MARK: "toolproof runtime mark", RUNTIME_OVERRIDE: "runtime value"}
"""Variables the harness puts in every candidate's environment before it starts (PROTOCOL.md,
"The candidate's environment"): what a stdio server inherits from the runtime is judged by them."""
NOISE_MESSAGE: Final = "toolproof: stderr is not protocol"
"""The error message of the JSON-RPC error response `--stderr-noise` writes to stderr."""
NOISE_LINE: Final = "toolproof: this stderr line is not JSON-RPC {"
"""The non-JSON line `--stderr-noise` writes to stderr after the error response."""
REPORT_TIMEOUT: Final = 10.0
"""Seconds a report may take (the harness answers at once; a hang is a failure)."""


def config_entry(
    servers: McpServers,
    token: str,
    route: str,
    *,
    query: str = "",
    report_env: Sequence[str] = (),
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    extra_args: Sequence[str] = (),
    command_prefix: Sequence[str] = (),
    stderr_noise: bool = False,
    linger: float = 0.0,
) -> dict[str, Any]:
    """The CONFIG entry (contracts/config.json, `type: stdio`) of a stdio server running `route`.

    `command` is this interpreter by absolute path, so a runtime in another environment or
    language can spawn it. `extra_args` are appended after the options and reported back in argv
    (`--` keeps them from being read as options). `command_prefix` puts arguments before
    `-m MODULE` (a wrapper module that starts the server as its child, say). `env` and `cwd` are
    left out of the entry when not given: the runtime's own defaults then apply. `stderr_noise`
    and `linger` pass `--stderr-noise` and `--linger` (the module's docstring).
    """
    args = [
        *command_prefix,
        "-m",
        MODULE,
        "--route",
        route,
        "--token",
        token,
        "--report",
        servers.stdio_report_url(token, route),
    ]
    if query:
        args += ["--query", query]
    for name in report_env:
        args += ["--report-env", name]
    if stderr_noise:
        args.append("--stderr-noise")
    if linger:
        args += ["--linger", f"{linger:g}"]
    if extra_args:
        args += ["--", *extra_args]
    entry: dict[str, Any] = {"type": "stdio", "command": os.path.abspath(sys.executable), "args": args}
    if env is not None:
        entry["env"] = dict(env)
    if cwd is not None:
        entry["cwd"] = cwd
    return entry


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--route", required=True, choices=sorted(ROUTES))
    parser.add_argument("--token", required=True)
    parser.add_argument(
        "--report", required=True, help="the harness's report URL (http://127.0.0.1:PORT/...)"
    )
    parser.add_argument("--query", default="", help="the query string an HTTP URL of the route would carry")
    parser.add_argument("--report-env", action="append", default=[], metavar="NAME")
    parser.add_argument(
        "--stderr-noise",
        action="store_true",
        help="write protocol-looking lines to stderr before each request",
    )
    parser.add_argument(
        "--linger", type=float, default=0.0, metavar="SECONDS", help="stay alive this long after stdin closed"
    )
    parser.add_argument("extra", nargs="*", help="ignored; reported in argv")
    return parser


class Reporter:
    """Posts each message, with what the process knows of itself, to the harness (blocking)."""

    def __init__(self, url: str, report_env: Sequence[str], query: str = "") -> None:
        """Refuse any URL that is not plain http on 127.0.0.1: no traffic leaves the host."""
        parts = urlsplit(url)
        if parts.scheme != "http" or parts.hostname != "127.0.0.1":
            raise ValueError(f"toolproof: the report URL must be http://127.0.0.1:PORT/..., not {url!r}")
        self._url = url
        self._names = tuple(report_env)
        self._query = query

    def report(self, message: str) -> bool:
        """Send one report; return whether the token's list has shifted (the harness's answer:
        `RequestView.shifted`); raise OSError when the harness did not record it."""
        payload = {
            "message": message,
            "pid": os.getpid(),
            "argv": list(sys.orig_argv),
            "cwd": os.getcwd(),
            "query": self._query,
            "env": [[name, os.environ.get(name)] for name in self._names],
            "start": start_time(os.getpid()),
            "ppid": os.getppid(),
            "parent_start": start_time(os.getppid()),
        }
        request = urllib.request.Request(self._url, data=json.dumps(payload).encode("utf-8"), method="POST")
        request.add_header("content-type", "application/json")
        # No proxy: a proxy set in the environment must never see (or divert) loopback traffic.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=REPORT_TIMEOUT) as response:
            if response.status != 200:
                raise OSError(f"toolproof: the harness answered a report with HTTP {response.status}")
            text = response.read(4096)
        try:
            answer = json.loads(text)
        except ValueError:
            answer = text
        shifted = answer.get("shifted") if isinstance(answer, dict) else None
        if not isinstance(shifted, bool):
            raise OSError(f"toolproof: the harness answered a report with {answer!r}")
        return shifted


def start_time(pid: int) -> int | None:
    """Field 22 of /proc/PID/stat (clock ticks after boot): with the pid, it names one process
    across pid reuse. None where there is no Linux /proc, or no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
        return int(stat[stat.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def noise(message: SessionMessage | Exception) -> str:
    """What `--stderr-noise` writes before `message` reaches the server ("" for a notification):
    a JSON-RPC error response answering that request, then a line that is not JSON."""
    if isinstance(message, Exception) or not isinstance(message.message, types.JSONRPCRequest):
        return ""
    error = {"jsonrpc": "2.0", "id": message.message.id, "error": {"code": -32603, "message": NOISE_MESSAGE}}
    return f"{json.dumps(error)}\n{NOISE_LINE}\n"


def _crashes(route: str, message: SessionMessage | Exception) -> bool:
    if route != CRASH_ROUTE or isinstance(message, Exception):
        return False
    root = message.message
    if not isinstance(root, types.JSONRPCRequest) or root.method != "tools/call":
        return False
    name = (root.params or {}).get("name")
    return name in (CRASH_CLOSE, CRASH_HTTP)


def _text(message: SessionMessage | Exception) -> str:
    """The message as JSON text (as the SDK parsed it); a line that did not parse, as the error says."""
    if isinstance(message, Exception):
        return f"toolproof: unparsable line: {message}"
    return message.message.model_dump_json(by_alias=True, exclude_unset=True)


async def serve(route: str, view: RequestView, reporter: Reporter, *, stderr_noise: bool = False) -> None:
    """Serve `route` on stdin/stdout until stdin closes, reporting every message first."""
    server = route_server(route)
    async with stdio_server() as (read_stream, write_stream):
        sys.stdout = sys.stderr  # belt and braces: the SDK already points fd 1 at stderr
        inner_send, inner_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def forward() -> None:
            async with inner_send:
                async for message in read_stream:
                    try:
                        shifted = await anyio.to_thread.run_sync(reporter.report, _text(message))
                    except OSError as failure:
                        # Exit at once: the transport's stdin reader blocks in a thread until EOF,
                        # so an orderly shutdown would hang while the runtime keeps stdin open.
                        print(
                            f"toolproof stdio server: a report failed: {failure!r}",
                            file=sys.stderr,
                            flush=True,
                        )
                        os._exit(REPORT_FAILED)
                    if _crashes(route, message):
                        os._exit(CRASHED)  # mid-call, no answer: like a dropped connection
                    if stderr_noise and (lines := noise(message)):
                        # Before the server sees the request: read as protocol, this error would be
                        # the request's answer, and the non-JSON line a parse error.
                        os.write(2, lines.encode("utf-8"))
                    if isinstance(message, SessionMessage):
                        # The handlers read the route's view as the request context (mcp_servers._view).
                        here = dataclasses.replace(view, shifted=shifted)
                        message = SessionMessage(message.message, ServerMessageMetadata(request_context=here))
                    await inner_send.send(message)

        async with anyio.create_task_group() as group:
            group.start_soon(forward)
            await server.run(inner_receive, write_stream, server.create_initialization_options())


def main(argv: Sequence[str] | None = None) -> int:
    """The entry point; returns the exit status."""
    options = _parser().parse_args(argv)
    reporter = Reporter(options.report, options.report_env, options.query)
    view = RequestView(options.token, options.route, options.query, ())
    print(f"toolproof stdio server: route {options.route}, pid {os.getpid()}", file=sys.stderr, flush=True)
    anyio.run(functools.partial(serve, stderr_noise=options.stderr_noise), options.route, view, reporter)
    if options.linger > 0:
        # A server that ignores stdin EOF: only a signal ends it before this.
        time.sleep(options.linger)
    return 0


if __name__ == "__main__":
    sys.exit(main())
