"""stdio MCP servers: what the spawned process gets, what is protocol, and what is left after close.

CONTRACT.md §5b "stdio servers"; contracts/requirements/transports.yaml. Every server here is the
harness's own (`python -m toolproof.fakes.stdio_server`), which reports what it saw: its argv,
working directory, the variables it was asked about, its pid and start time. The runtime's own
environment carries the marks the harness put there before it started (`stdio_server.RUNTIME_ENV`,
PROTOCOL.md "The candidate's environment").
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any, Final

import pytest

from toolproof.fakes import Call, Text
from toolproof.fakes.records import McpRequest
from toolproof.fakes.stdio_server import RUNTIME_ENV, RUNTIME_MARK, RUNTIME_OVERRIDE
from toolproof.fakes.stdio_wrapper import COMMAND_PREFIX
from toolproof.plugin import processes
from toolproof.plugin.scenario import Scenario, offered_tools, tool_texts

from ._calls import FINAL_TEXT, expect_tool_failure_path

pytestmark = pytest.mark.mcp_transport

CONFIG_ONLY: Final = "TOOLPROOF_STDIO_CONFIG"
"""A variable only the config's `env` sets."""
CONFIG_ENV: Final = {RUNTIME_OVERRIDE: "config value", CONFIG_ONLY: "config: spaces, ünïcødé ✓"}
"""The `env` of the server that has one: one value shadows the runtime's own, one is new."""
ODD_ARGS: Final = (
    "two words",
    "'single quoted'",
    '"double quoted"',
    "back\\slash \\\\ \\n",
    "ünïcødé ✓ 完了",
    "",
    "-dash",
    "--double=x y",
    "$HOME; * `x` | &",
    "tab\there",
)
"""`extra_args`: what a shell or a split on spaces would change, an empty one, and leading dashes."""
GONE_BOUND_S: Final = 5.0
"""Seconds after the close answer within which every server process must have ended (CONTRACT.md §5b)."""
LINGER_S: Final = 30.0
"""How long the lingering servers outlive their stdin: longer than any test waits, so that only
a kill ends them in time (the harness kills what survives, after the test)."""


def _by_route(tp: Scenario, route: str) -> list[McpRequest]:
    """The stdio messages the servers of `route` read for this build (every spawn of it)."""
    return [r for r in tp.mcp_requests(route) if r.transport == "stdio"]


def _distinct(values: list[Any]) -> list[Any]:
    """Each different value once, in first-seen order: what every spawn of a server saw."""
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _spawn_all(tp: Scenario, config: dict[str, Any], check_id: str) -> None:
    """Build `config` (judged by `check_id`: a build that fails spawned no server as configured) and,
    when a server has not been spawned yet, run once: a runtime may list its tools at build or at
    the first run (duplicate_tool_phase), and every server must have run before it is judged."""
    tp.script(Text(FINAL_TEXT))
    tp.expect_outcome(check_id, tp.build(config, judged=True), {"ok": True}, what="the build")
    spawned = {r.route for r in tp.mcp_requests() if r.transport == "stdio"}
    if spawned != set(config["mcp_servers"]):  # the suite's server ids here are their routes
        tp.run("Say something.")


def _env_seen(tp: Scenario, route: str) -> list[dict[str, str | None]]:
    return _distinct([dict(r.process.env) for r in _by_route(tp, route) if r.process is not None])


@pytest.mark.checks(
    "mcp.stdio-env-config-wins", "mcp.stdio-env-inherit-per-option", "mcp.stdio-env-path-kept"
)
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_environment(tp: Scenario) -> None:
    """alpha has a config `env`, balda none; each reports the variables that tell what it got."""
    names = (RUNTIME_OVERRIDE, CONFIG_ONLY, RUNTIME_MARK, "PATH")
    config = tp.config(
        {
            "alpha": tp.server("alpha", transport="stdio", env=CONFIG_ENV, report_env=names),
            "balda": tp.server("balda", transport="stdio", report_env=(RUNTIME_MARK,)),
        }
    )
    # A build that fails spawned no server as configured: the check fails, the others are blocked.
    _spawn_all(tp, config, "mcp.stdio-env-config-wins")
    runtime = tp.runtime_environment()
    alpha, balda = _env_seen(tp, "alpha"), _env_seen(tp, "balda")
    tp.expect(
        "mcp.stdio-env-config-wins",
        [{name: seen[name] for name in CONFIG_ENV} for seen in alpha],
        [CONFIG_ENV],
        what="the config's env variables, as each spawn of the server with an env saw them",
    )
    inherit = tp.option("stdio_env_inherit")
    mark = RUNTIME_ENV[RUNTIME_MARK] if inherit == "all" else None
    tp.expect(
        "mcp.stdio-env-inherit-per-option",
        {
            "with env": [seen[RUNTIME_MARK] for seen in alpha],
            "without env": [seen[RUNTIME_MARK] for seen in balda],
        },
        {"with env": [mark], "without env": [mark]},
        what=f"{RUNTIME_MARK} as each spawn saw it (stdio_env_inherit: {inherit})",
    )
    tp.expect(
        "mcp.stdio-env-path-kept",
        [seen["PATH"] for seen in alpha],
        [runtime.get("PATH")],
        what="PATH as each spawn of the server with a config env saw it (expected: the runtime's own)",
    )


@pytest.fixture
def odd_directory() -> Iterator[str]:
    """A fresh directory whose name has a space and non-ASCII letters; removed after the test."""
    path = tempfile.mkdtemp(prefix="toolproof cwd ünï ")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.mark.checks("mcp.stdio-cwd")
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_runs_in_its_cwd(tp: Scenario, odd_directory: str) -> None:
    config = tp.config({"alpha": tp.server("alpha", transport="stdio", cwd=odd_directory)})
    _spawn_all(tp, config, "mcp.stdio-cwd")
    tp.expect(
        "mcp.stdio-cwd",
        _distinct([r.process.cwd for r in _by_route(tp, "alpha") if r.process is not None]),
        [os.path.realpath(odd_directory)],
        what="the working directory each spawn of the server reported (os.getcwd(), as it is)",
    )


@pytest.mark.checks("mcp.stdio-args-verbatim")
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_args_arrive_verbatim(tp: Scenario) -> None:
    entry = tp.server("alpha", transport="stdio", extra_args=ODD_ARGS)
    _spawn_all(tp, tp.config({"alpha": entry}), "mcp.stdio-args-verbatim")
    tp.expect(
        "mcp.stdio-args-verbatim",
        _distinct([list(r.process.argv[1:]) for r in _by_route(tp, "alpha") if r.process is not None]),
        [entry["args"]],
        what="the arguments after the program each spawn of the server received (sys.orig_argv[1:])",
    )


def _listed_and_called(tp: Scenario, *, noisy: bool) -> dict[str, Any]:
    """Build alpha over stdio (`noisy`: writing protocol-looking stderr) and run a call of lookup;
    how the build and run ended, what the model was offered and given, and the calls alpha got."""
    tp.script(Call("alpha/lookup", '{"q": "quiet please"}'), Text(FINAL_TEXT))
    # The quiet build and run are steps the test needs; the noisy ones are what the check judges.
    config = tp.config({"alpha": tp.server("alpha", transport="stdio", stderr_noise=noisy)})
    built = tp.build(config, judged=noisy)
    outcome = tp.run("Look something up.", judged=noisy) if built.ok else built
    bodies = tp.model_bodies()
    return {
        "build ok": built.ok,
        "run ok": outcome.ok,
        "output": outcome.output,
        "offered": [offered_tools(body) for body in bodies],
        "tool texts": [tool_texts(body, tp.declared) for body in bodies],
        "lookup calls received": len(tp.tool_calls_received("alpha")),
    }


@pytest.mark.checks("mcp.stdio-stderr-not-protocol")
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_stderr_is_never_protocol(tp: Scenario) -> None:
    """One build and run over a quiet alpha, one over an alpha that writes to stderr, before each
    request reaches it, a JSON-RPC error answering that request and a line that is not JSON: the
    builds, the offered tools, the tool texts and the runs are the same, and both runs called it."""
    quiet = _listed_and_called(tp, noisy=False)
    tp.expect(
        "mcp.stdio-stderr-not-protocol",
        [quiet["output"], quiet["lookup calls received"]],
        [FINAL_TEXT, 1],
        what="the quiet server's run: its output, and the lookup calls the server got",
    )
    noisy = _listed_and_called(tp.sibling(), noisy=True)
    tp.expect(
        "mcp.stdio-stderr-not-protocol",
        noisy,
        quiet,
        what="the build, offered tools, tool texts and run over the noisy server (expected: the quiet one's)",
    )


@pytest.mark.checks("mcp.stdio-crash-tool-failure")
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_exiting_mid_call_goes_the_declared_way(tp: Scenario) -> None:
    expect_tool_failure_path(tp, "mcp.stdio-crash-tool-failure", "crash_close", transport="stdio")


@pytest.mark.checks("mcp.stdio-processes-gone-after-close")
@pytest.mark.capability("mcp.stdio")
@pytest.mark.capability("model.*")
def test_stdio_server_processes_are_gone_after_close(tp: Scenario) -> None:
    """balda ignores stdin EOF and runs under a wrapper that starts it as a child and forwards no
    signal (as npx and uvx do): only a kill of the whole tree ends both in time. (A runtime that
    never kills fails too: neither ends on its own.)"""
    if not processes.AVAILABLE:
        tp.not_testable(
            "mcp.stdio-processes-gone-after-close",
            "no Linux /proc here: the harness cannot tell a server process from a later one with its pid",
        )
        return
    entry = tp.server("balda", transport="stdio", linger=LINGER_S, command_prefix=COMMAND_PREFIX)
    _spawn_all(tp, tp.config({"balda": entry}), "mcp.stdio-processes-gone-after-close")
    outcome = tp.close()
    tp.expect_outcome(
        "mcp.stdio-processes-gone-after-close", outcome, {"ok": True}, what="the close of the build"
    )
    records = _by_route(tp, "balda")
    tracked = processes.reported(records, parents=True)
    tp.expect(
        "mcp.stdio-processes-gone-after-close",
        sorted({one.role for one in tracked}),
        ["parent", "server"],
        what="the processes the server reported: itself and its wrapper",
    )
    left = processes.survivors(tracked, GONE_BOUND_S)
    tp.expect(
        "mcp.stdio-processes-gone-after-close",
        [one.describe() for one in left],
        [],
        what=f"server and wrapper processes still running {GONE_BOUND_S:g} s after the close answer",
    )
