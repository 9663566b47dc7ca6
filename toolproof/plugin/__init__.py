"""toolproof's pytest plugin: options, markers and reporting hooks only.

Not an entry point: `toolproof run` (and every toolproof command that runs the
suite) loads it with `-p toolproof.plugin`, so a runtime's own pytest sessions
never see it. The suite's fixtures (`tp`) come with it (`pytest_plugins`).
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import pytest

from toolproof.judge.declared import TRANSPORT_CAPABILITIES
from toolproof.plugin import declare, draws, dumps, hooks
from toolproof.plugin.session import STATE

GROUP = "toolproof"
MCP_TRANSPORTS = tuple(TRANSPORT_CAPABILITIES)

pytest_plugins = ["toolproof.plugin.fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the --candidate / --toolproof-* options and their ini twins."""
    hooks.register_hypothesis_profiles()  # before hypothesis reads --hypothesis-profile
    group = parser.getgroup(GROUP, "toolproof conformance suite")
    group.addoption(
        "--candidate",
        default=None,
        metavar="SPEC",
        help="candidate to judge: reference | py:pkg.mod:factory | cmd:<command> (default: reference)",
    )
    group.addoption(
        "--toolproof-timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds a candidate may take per request (default 60)",
    )
    group.addoption(
        "--toolproof-startup-grace",
        type=float,
        default=None,
        metavar="S",
        help="extra seconds for a cmd: candidate's first answer (default 20)",
    )
    group.addoption(
        "--toolproof-cwd", default=None, metavar="DIR", help="working directory of a cmd: candidate"
    )
    group.addoption(
        "--toolproof-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra environment for a cmd: candidate (repeatable)",
    )
    group.addoption("--toolproof-strict", action="store_true", help="SHOULD failures fail the run too")
    group.addoption(
        "--toolproof-netns",
        action="store_true",
        help="run a cmd: candidate in a network namespace whose only interface is loopback (Linux)",
    )
    group.addoption(
        "--toolproof-checks",
        default=None,
        metavar="IDS",
        help="run only the tests hosting these comma-separated check IDs (a requirement ID: all its checks)",
    )
    group.addoption(
        "--toolproof-seed",
        default=None,
        metavar="N",
        help="seed of the Hypothesis draws (default 0): each Hypothesis test draws from a seed derived from"
        " N and its own name, so the same N repeats a run's draws and another N varies them",
    )
    group.addoption(
        "--toolproof-explore",
        action="store_true",
        help="after each Hypothesis test's default draws pass, explore: draw again from a fresh random seed"
        " (printed) with more examples; a failure only that finds is labelled explore-only, and no"
        " baseline covers it",
    )
    group.addoption(
        "--toolproof-explore-seed",
        default=None,
        metavar="S",
        help="the exploration's seed (implies --toolproof-explore): repeats a printed exploration",
    )
    group.addoption(
        "--toolproof-explore-factor",
        default=None,
        metavar="K",
        help="the exploration draws K times each test's own number of examples"
        f" (default {draws.EXPLORE_FACTOR}; implies --toolproof-explore)",
    )
    group.addoption("--report-json", default=None, metavar="PATH", help="write the JSON report here")
    group.addoption(
        "--summary-md", default=None, metavar="PATH", help="write a Markdown summary (CI step summary)"
    )
    group.addoption(
        "--expected-failures", default=None, metavar="PATH", help="strict baseline of failing check IDs"
    )
    group.addoption(
        "--trace-protocol",
        action="store_true",
        help="print every protocol line exchanged, and a cmd: candidate's stderr, to stderr (pytest shows"
        " it for failing tests; add -s to see every test's lines)",
    )
    group.addoption(
        "--allow-empty",
        action="store_true",
        help="do not fail a run where nothing was claimed or no check ran",
    )
    group.addoption(
        "--toolproof-dump",
        default=None,
        metavar="DIR",
        help="write the full traffic of each failing test to DIR/<test>.json: model requests and answers,"
        " MCP requests, a cmd: candidate's protocol lines",
    )
    group.addoption(
        "--wire-record",
        default=None,
        metavar="DIR",
        help="golden transcripts: write every test's model requests (tokens and ports normalised) to DIR,"
        " one JSON file per test",
    )
    group.addoption(
        "--wire-compare",
        default=None,
        metavar="DIR",
        help="golden transcripts: report drift from a --wire-record directory (never fails the run)",
    )
    group.addoption(
        "--toolproof-declare",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="judge as if the candidate declared option NAME as the JSON value (repeatable; what"
        " `toolproof probe` uses; the report still shows the candidate's own hello)",
    )
    group.addoption(
        "--toolproof-variants",
        default=None,
        metavar="FILE",
        help="run only the tests FILE lists, once per variant of declared options (`toolproof probe`)",
    )
    group.addoption(
        "--toolproof-safety-cap",
        type=int,
        default=None,
        metavar="N",
        help="model requests a test's build may make before the harness ends its run (default 64;"
        " never below the declared default_max_tool_turns + 4; `toolproof probe` lowers it: a trial"
        " under a wrong cap value need not run to 64)",
    )
    group.addoption(
        "--toolproof-mcp-transport",
        default=None,
        choices=MCP_TRANSPORTS,
        help="the MCP transport of the servers the tests configure (default http, streamable HTTP);"
        " stdio or sse judge the same checks over that transport, and need the candidate to claim"
        " mcp.stdio or mcp.sse (checks of a transport not claimed are not_claimed)",
    )
    parser.addini("toolproof_mcp_transport", "default --toolproof-mcp-transport", default="http")
    parser.addini("toolproof_candidate", "default --candidate", default="reference")
    parser.addini("toolproof_timeout", "default --toolproof-timeout", default="60")
    parser.addini("toolproof_startup_grace", "default --toolproof-startup-grace", default="20")
    parser.addini("toolproof_cwd", "default --toolproof-cwd", default="")
    parser.addini("toolproof_env", "KEY=VALUE lines for a cmd: candidate", type="linelist", default=[])
    parser.addini("toolproof_seed", "default --toolproof-seed (0 when unset)", default="")


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's own: its --hypothesis-verbosity builds on the profile
def pytest_configure(config: pytest.Config) -> None:
    """Register markers and the session state; the deterministic Hypothesis profile and the seeds."""
    config.addinivalue_line(
        "markers", "checks(*ids): the check IDs this test records (contracts/requirements*)"
    )
    config.addinivalue_line("markers", "capability(name): the candidate capability this test needs")
    config.addinivalue_line(
        "markers",
        "mcp_transport: judges an MCP transport's own requirements (CONTRACT.md §5b), whatever the model"
        " wire: a run of another wire profile of the same runtime may leave it out (-m 'not mcp_transport')",
    )
    hooks.load_default_profile(config)
    hooks.configure(config)
    declare.configure(config)
    dumps.configure(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist: every worker explores from the controller's exploration seed (a fresh one is drawn once)."""
    seeds = node.config.stash.get(draws.DRAWS, None)
    if seeds is not None and seeds.explore_seed is not None:
        node.workerinput[draws.WORKER_KEY] = seeds.explore_seed


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Count the suite tests before any deselection (-k, -m, --toolproof-checks), then validate check
    markers and select tests by --toolproof-checks."""
    hooks.count_suite(config, items)
    hooks.select(config, items)
    declare.deselect(config, items)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """--toolproof-variants: run the tests it lists once per variant of declared options."""
    declare.generate(metafunc)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Count the suite tests that must report results."""
    hooks.count_collected(session)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist: a worker finished; take its count of suite tests."""
    hooks.worker_done(getattr(node, "workeroutput", {}) or {})


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Give each suite test its recorder before any fixture runs."""
    hooks.prepare(item)


@pytest.hookimpl(wrapper=True, trylast=True)  # innermost: Hypothesis's own wrapper reports both phases
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Seed the test's draws (and explore, when asked); a test body that returned still fails when it
    recorded a failed MUST check."""
    __tracebackhide__ = True
    with draws.running(item):
        yield
        draws.explore(item)
    hooks.raise_failed_checks(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attribute crashes to declared checks; ship results on the teardown report; dump a failing test."""
    report = yield
    hooks.attach(item, call, report)
    dumps.after_report(item, report)  # after attach: the test's recorder is complete
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collect results (on the xdist controller, or the only process)."""
    hooks.collect(report)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Judge the run, write reports, set the exit status."""
    hooks.finish(session)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the check summary: the counts, the failing checks, and last the exit status and why."""
    state = terminalreporter.config.stash.get(STATE, None)
    if state is None or not state.collected or hasattr(terminalreporter.config, "workerinput"):
        return
    path = terminalreporter.config.stash.get(hooks.FINAL, None)
    if path is None:
        return
    summary, lines = path
    terminalreporter.section("toolproof")
    terminalreporter.write_line(terminalreporter.config.stash[hooks.DRAWS_LINE])
    terminalreporter.write_line(json.dumps(summary))
    for line in lines:
        terminalreporter.write_line(line)
