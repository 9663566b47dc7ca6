"""The stdio entry point (toolproof.fakes.stdio_server): one route's server over stdio, spawned by the
official client, lists and answers as the HTTP route does, and the harness records its messages."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.message import SessionMessage

from toolproof.fakes import McpServers
from toolproof.fakes.mcp_servers import _stdio_process
from toolproof.fakes.records import NO_RESPONSE, StdioProcess
from toolproof.fakes.stdio_server import (
    CRASHED,
    MODULE,
    NOISE_LINE,
    NOISE_MESSAGE,
    REPORT_FAILED,
    Reporter,
    config_entry,
    noise,
    start_time,
)
from toolproof.fakes.stdio_wrapper import COMMAND_PREFIX
from toolproof.plugin.processes import Reported, running

ALPHA_TOOLS = [
    "lookup",
    "echo_text",
    "multi_block",
    "structured",
    "report_error",
    "no_description_tool",
    "nested_args",
    "output_send__qq",
    "crash_http",
    "crash_close",
]
CALLS: list[tuple[str, dict[str, Any]]] = [("lookup", {"q": "x y"}), ("echo_text", {"text": "  Grüße\n"})]
SPAWN_TIMEOUT = 20.0


@pytest.fixture(scope="module")
def servers() -> Iterator[McpServers]:
    with McpServers() as fakes:
        yield fakes


@pytest.fixture
def token(servers: McpServers) -> Iterator[str]:
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name
    servers.forget(name)


def params(entry: dict[str, Any]) -> StdioServerParameters:
    """The entry as the official client's parameters (type checked: it is the only shape we build)."""
    assert entry["type"] == "stdio"
    return StdioServerParameters(
        command=entry["command"], args=entry["args"], env=entry.get("env"), cwd=entry.get("cwd")
    )


async def session(client: Client) -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
    listing = (await client.list_tools()).tools
    return listing, [await client.call_tool(name, args) for name, args in CALLS]


def exchange(
    entry: dict[str, Any], errlog: Path
) -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
    async def spawned() -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
        with errlog.open("w") as err:
            async with Client(stdio_client(params(entry), errlog=err)) as client:
                return await session(client)

    return asyncio.run(asyncio.wait_for(spawned(), SPAWN_TIMEOUT))


def over_http(url: str) -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
    async def connected() -> tuple[list[mcp_types.Tool], list[mcp_types.CallToolResult]]:
        async with Client(url) as client:
            return await session(client)

    return asyncio.run(asyncio.wait_for(connected(), SPAWN_TIMEOUT))


def test_config_entry_names_this_interpreter_by_absolute_path(servers: McpServers, token: str) -> None:
    entry = config_entry(
        servers, token, "beta", query="tenant=a b", report_env=["A"], env={"A": "1"}, cwd="/"
    )
    report = f"{servers.origin}/{token}/stdio-report/beta"
    assert entry == {
        "type": "stdio",
        "command": sys.executable,
        "args": [
            *("-m", MODULE, "--route", "beta", "--token", token, "--report", report),
            *("--query", "tenant=a b", "--report-env", "A"),
        ],
        "env": {"A": "1"},
        "cwd": "/",
    }
    assert Path(entry["command"]).is_absolute()


def test_stdio_route_serves_and_records_as_http_does(servers: McpServers, token: str, tmp_path: Path) -> None:
    http_token = f"{token}h"
    extra = ["two words", 'q"uote', "Grüße 世界", ""]
    entry = config_entry(
        servers,
        token,
        "alpha",
        report_env=["TP_STDIO_VALUE", "TP_STDIO_UNSET"],
        env={"TP_STDIO_VALUE": ' v a"l '},
        cwd=str(tmp_path),
        extra_args=extra,
    )
    errlog = tmp_path / "stderr.txt"
    stdio_listing, stdio_results = exchange(entry, errlog)
    try:
        http_listing, http_results = over_http(servers.url(http_token, "alpha"))
        http_records = servers.requests(http_token)
    finally:
        servers.forget(http_token)

    # One route definition: the same listing and the same results whichever transport carried them.
    assert [tool.name for tool in stdio_listing] == ALPHA_TOOLS
    assert [tool.model_dump() for tool in stdio_listing] == [tool.model_dump() for tool in http_listing]
    assert [r.model_dump() for r in stdio_results] == [r.model_dump() for r in http_results]
    texts = [[b.text for b in r.content if isinstance(b, mcp_types.TextContent)] for r in stdio_results]
    assert texts == [["alpha:x y"], ["  Grüße\n"]]
    assert [r.is_error for r in stdio_results] == [False, False]

    # The harness recorded each stdio message with the method/params/id an HTTP request carries.
    records = servers.requests(token)
    assert [(r.transport, r.index, r.token, r.route, r.rpc_method) for r in records] == [
        ("stdio", 0, token, "alpha", "server/discover"),
        ("stdio", 1, token, "alpha", "tools/list"),
        ("stdio", 2, token, "alpha", "tools/call"),
        ("stdio", 3, token, "alpha", "tools/call"),
    ]
    assert [(r.transport, r.rpc_method, r.rpc_params, r.rpc_id) for r in http_records] == [
        ("http", r.rpc_method, r.rpc_params, r.rpc_id) for r in records
    ]
    assert records[2].rpc_params["name"] == "lookup"
    assert records[2].rpc_params["arguments"] == {"q": "x y"}
    assert [(r.method, r.path, r.query, r.headers, r.status) for r in records] == [
        ("", "", "", (), NO_RESPONSE)
    ] * 4
    assert [json.loads(r.body) for r in records] == [json.loads(r.body) for r in http_records]

    # What the process reported about itself: argv byte for byte, cwd, the variables asked about.
    (process,) = {r.process for r in records}
    assert isinstance(process, StdioProcess)
    assert process == StdioProcess(
        pid=process.pid,
        argv=(sys.executable, *entry["args"]),
        cwd=str(tmp_path),
        env=(("TP_STDIO_VALUE", ' v a"l '), ("TP_STDIO_UNSET", None)),
        start=process.start,  # the process has ended: its own /proc entry is gone
        ppid=os.getpid(),
        parent_start=start_time(os.getpid()),
    )
    assert isinstance(process.start, int)  # Linux /proc: what tells the process from a later one
    assert entry["args"][-5:] == ["--", *extra]

    # The server wrote to stderr, and the client still spoke the protocol: stderr is no protocol.
    assert errlog.read_text(encoding="utf-8") == f"toolproof stdio server: route alpha, pid {process.pid}\n"


Spawn = Callable[[dict[str, Any]], "subprocess.Popen[bytes]"]


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start the entry's command with pipes; every process started is killed (by its id) and reaped."""
    started: list[subprocess.Popen[bytes]] = []

    def start(entry: dict[str, Any]) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [entry["command"], *entry["args"]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=entry.get("cwd"),
        )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=SPAWN_TIMEOUT)
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()


def rpc(method: str, params: dict[str, Any], rpc_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}).encode() + b"\n"


INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "toolproof-selftest", "version": "1"},
}


def test_the_server_exits_when_stdin_closes(servers: McpServers, token: str, spawn: Spawn) -> None:
    process = spawn(config_entry(servers, token, "beta"))
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(rpc("initialize", INITIALIZE, 1))
    process.stdin.flush()
    answer = json.loads(process.stdout.readline())
    process.stdin.close()
    assert process.wait(timeout=SPAWN_TIMEOUT) == 0
    assert (answer["id"], answer["result"]["serverInfo"]["name"]) == (1, "toolproof-beta")
    assert process.stdout.read() == b""  # nothing but the protocol ever reached stdout
    assert [(r.transport, r.rpc_method, r.rpc_params) for r in servers.requests(token)] == [
        ("stdio", "initialize", INITIALIZE)
    ]


def test_crash_tool_ends_the_process_mid_call(servers: McpServers, token: str, spawn: Spawn) -> None:
    process = spawn(config_entry(servers, token, "alpha"))
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(rpc("initialize", INITIALIZE, 1))
    process.stdin.flush()
    process.stdout.readline()
    process.stdin.write(rpc("tools/call", {"name": "crash_close", "arguments": {}}, 2))
    process.stdin.flush()
    assert process.wait(timeout=SPAWN_TIMEOUT) == CRASHED
    assert process.stdout.read() == b""
    assert [r.rpc_method for r in servers.requests(token)] == ["initialize", "tools/call"]


def test_a_report_the_harness_refuses_ends_the_server(servers: McpServers, token: str, spawn: Spawn) -> None:
    entry = config_entry(servers, token, "beta")
    report = entry["args"].index("--report") + 1
    entry["args"][report] = f"{servers.origin}/{token}/stdio-report/no_such_route"
    process = spawn(entry)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(rpc("initialize", INITIALIZE, 1))
    process.stdin.flush()
    assert process.wait(timeout=SPAWN_TIMEOUT) == REPORT_FAILED
    assert process.stdout.read() == b""  # traffic the harness cannot see is never served
    assert servers.requests(token) == []


def test_tenant_route_reads_the_query_option(servers: McpServers, token: str, tmp_path: Path) -> None:
    entry = config_entry(servers, token, "tenant", query="tenant=acme")

    async def spawned() -> list[str]:
        with (tmp_path / "err").open("w") as err:
            async with Client(stdio_client(params(entry), errlog=err)) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

    listing = asyncio.run(asyncio.wait_for(spawned(), SPAWN_TIMEOUT))
    assert listing == ["tenant_acme_lookup"]


@pytest.mark.parametrize(
    "url",
    ["http://localhost:1/x", "https://127.0.0.1:1/x", "http://10.0.0.1:1/x", "http://127.0.0.1.nip.io/x"],
)
def test_reports_go_to_loopback_only(url: str) -> None:
    with pytest.raises(ValueError, match=re.escape("must be http://127.0.0.1:PORT")):
        Reporter(url, ())


def test_stderr_noise_answers_each_request_on_stderr_only(
    servers: McpServers, token: str, tmp_path: Path
) -> None:
    """--stderr-noise writes, before each request, an error response with its id and a non-JSON line
    to stderr; stdout still carries only the server's own answers."""
    entry = config_entry(servers, token, "beta", stderr_noise=True)
    assert entry["args"][-1] == "--stderr-noise"
    errlog = tmp_path / "stderr.txt"
    with errlog.open("wb") as err:
        process = subprocess.Popen(
            [entry["command"], *entry["args"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err
        )
        try:
            out, _ = process.communicate(rpc("initialize", INITIALIZE, 7), timeout=SPAWN_TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=SPAWN_TIMEOUT)
    answers = [json.loads(line) for line in out.splitlines()]
    assert [(a["id"], "result" in a) for a in answers] == [(7, True)]
    lines = errlog.read_text(encoding="utf-8").splitlines()
    assert lines[1:] == [
        json.dumps({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603, "message": NOISE_MESSAGE}}),
        NOISE_LINE,
    ]


def test_noise_is_for_requests_only() -> None:
    request = SessionMessage(mcp_types.JSONRPCRequest(jsonrpc="2.0", id="a", method="ping"))
    notification = SessionMessage(
        mcp_types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
    )
    assert noise(request) == (
        '{"jsonrpc": "2.0", "id": "a", "error": {"code": -32603, '
        '"message": "toolproof: stderr is not protocol"}}\n'
        "toolproof: this stderr line is not JSON-RPC {\n"
    )
    assert noise(notification) == ""
    assert noise(ValueError("not JSON")) == ""


def test_linger_keeps_the_process_after_stdin_closes(servers: McpServers, token: str, spawn: Spawn) -> None:
    entry = config_entry(servers, token, "beta", linger=30)
    assert entry["args"][-2:] == ["--linger", "30"]
    process = spawn(entry)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(rpc("initialize", INITIALIZE, 1))
    process.stdin.flush()
    process.stdout.readline()
    process.stdin.close()
    with pytest.raises(subprocess.TimeoutExpired):
        process.wait(timeout=1.5)  # EOF read, and the process stays: only a signal ends it now


def test_start_time_names_a_live_process_and_none_for_no_process() -> None:
    assert isinstance(start_time(os.getpid()), int)
    assert start_time(2**22 + 12345) is None  # above the kernel's pid_max


def test_wrapper_starts_the_server_as_its_child(servers: McpServers, token: str, spawn: Spawn) -> None:
    """Through stdio_wrapper the server's parent is the wrapper (not this process), and the wrapper
    passes stdin and stdout through and ends with the server's status."""
    process = spawn(config_entry(servers, token, "beta", command_prefix=COMMAND_PREFIX))
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(rpc("initialize", INITIALIZE, 1))
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == 1
    process.stdin.close()
    assert process.wait(timeout=SPAWN_TIMEOUT) == 0
    (reported,) = {r.process for r in servers.requests(token)}
    assert reported is not None
    assert (reported.ppid, reported.pid == process.pid) == (process.pid, False)


def test_wrapper_forwards_no_signal(tmp_path: Path) -> None:
    """SIGTERM ends the wrapper alone; its child runs on (the npx/uvx case a tree kill is for)."""
    pid_file = tmp_path / "child.pid"
    script = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(30)"
    wrapper = subprocess.Popen([sys.executable, "-m", "toolproof.fakes.stdio_wrapper", "--", "-c", script])
    child = None
    try:
        for _ in range(200):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        child = int(pid_file.read_text())
        wrapper.terminate()
        assert wrapper.wait(timeout=SPAWN_TIMEOUT) == -signal.SIGTERM
        assert running(Reported("x", "server", child, start_time(child) or 0))
    finally:
        if wrapper.poll() is None:
            wrapper.kill()
            wrapper.wait(timeout=SPAWN_TIMEOUT)
        if child is not None:
            os.kill(child, signal.SIGKILL)


def test_wrapper_without_a_command_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolproof.fakes.stdio_wrapper"], capture_output=True, timeout=SPAWN_TIMEOUT
    )
    assert (done.returncode, done.stdout) == (2, b"")


@pytest.mark.parametrize(
    ("extra", "parsed"),
    [
        ({}, (None, None, None)),
        ({"start": 5, "ppid": 4, "parent_start": 3}, (5, 4, 3)),
        ({"start": None, "ppid": 4, "parent_start": None}, (None, 4, None)),
        ({"start": True}, None),
        ({"ppid": "4"}, None),
        ({"parent_start": 1.5}, None),
    ],
)
def test_a_report_s_process_times_are_integers_or_null(extra: dict[str, Any], parsed: Any) -> None:
    report = {"pid": 1, "argv": ["python"], "cwd": "/", "env": [], **extra}
    process = _stdio_process(report)
    assert (None if process is None else (process.start, process.ppid, process.parent_start)) == parsed
