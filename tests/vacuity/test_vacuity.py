"""Vacuity guards fail closed: a green that observed nothing is never a green.

Small suites run by pytester in a subprocess (`--import-mode=importlib`),
each pinning the exit status (toolproof/report/exitcodes.py) and the report rows:

- a test that records no check fails as vacuous;
- a scenario whose run answered ok with no model request, or whose model was
  offered the harness's MCP tools while no MCP request arrived, fails
  (side harness, "vacuous scenario"); a real run with the same test passes;
  a judged run the test declares silent (`asks_model=False`: its check pins
  the silence) is not counted, and an unjudged one is refused;
- a run where every check is not claimed, or whose candidate claims no
  capability at all, exits EMPTY unless --allow-empty;
- a report with fewer results than collected tests is an error (INCOMPLETE),
  never a partial green.
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass
from typing import Any

import pytest

from toolproof.controls.forkserver import run_python
from toolproof.report import exitcodes

RUN_TIMEOUT = 120.0
# The plugin comes with -p (it is no entry point), and brings the suite's fixtures.
CONFTEST = """
# toolproof's plugin is loaded with -p toolproof.plugin
"""

# In-process candidates written next to the tests (the subprocess runs with that directory as cwd).
CANDIDATES = '''
import json
import urllib.request

HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "vacuity", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


class Answers:
    """run answers ok with a fixed output and never asks the model: nothing it says was observed."""

    capabilities = ["openai.chat"]

    def __init__(self):
        self.configs = {}

    def hello(self):
        return {**HELLO, "capabilities": list(self.capabilities)}

    def build(self, id, config):
        self.configs[id] = config
        return {"ok": True}

    def run(self, id, input):
        if id not in self.configs:
            return {"ok": False, "error": {"kind": "internal", "message": "unknown id"}}
        return {"ok": True, "output": "done", "stop_reason": "completed"}

    def close(self, id):
        if self.configs.pop(id, None) is None:
            return {"ok": False, "error": {"kind": "internal", "message": "unknown id"}}
        return {"ok": True}


class OffersCachedTools(Answers):
    """Offers the model a harness tool from a stale cache, never listing the configured MCP server."""

    def run(self, id, input):
        if id not in self.configs:
            return {"ok": False, "error": {"kind": "internal", "message": "unknown id"}}
        model = self.configs[id]["model"]
        tool = {"name": "lookup", "description": "Up. [tp:alpha/lookup]", "parameters": {"type": "object"}}
        body = {
            "model": model["name"],
            "messages": [{"role": "user", "content": input}],
            "tools": [{"type": "function", "function": tool}],
        }
        request = urllib.request.Request(
            model["base_url"] + "/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + model["api_key"]},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            reply = json.loads(answer.read())
        return {"ok": True, "output": reply["choices"][0]["message"]["content"], "stop_reason": "completed"}


class ClaimsNothing(Answers):
    capabilities = []


def answers():
    return Answers()


def offers_cached_tools():
    return OffersCachedTools()


def claims_nothing():
    return ClaimsNothing()


class RejectsEmptyServers(Answers):
    """Rejects a valid CONFIG: one with no MCP server (a validator written for the common case)."""

    def build(self, id, config):
        if not config.get("mcp_servers"):
            return {"ok": False, "error": {"kind": "invalid_config", "message": "no MCP server given"}}
        return super().build(id, config)


class FailsRuns(Answers):
    """Builds, then fails every run of a live build with kind internal."""

    def run(self, id, input):
        return {"ok": False, "error": {"kind": "internal", "message": "run exploded"}}


def rejects_empty_servers():
    return RejectsEmptyServers()


def fails_runs():
    return FailsRuns()
'''

RUN_OK = """
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_run_ok(tp):
    tp.script(Text("done"))
    tp.build(tp.config({}))
    tp.expect_outcome("loop.completed-output", tp.run("q", judged=True), {"ok": True}, what="a run")
"""

CACHED_TOOLS = """
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_tools(tp):
    tp.script(Text("from the model"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("q", judged=True)
    tp.expect_outcome("loop.completed-output", outcome, {"ok": True, "output": "from the model"}, what="run")
"""

SILENT_RUN = """
import pytest


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_silent_run(tp):
    tp.build(tp.config({}))
    outcome = tp.run("q", judged=True, asks_model=False)
    tp.expect_outcome("loop.completed-output", outcome, {"ok": True}, what="a run declared silent")
    tp.expect("loop.completed-output", len(tp.model_requests()), 0, what="model requests")
"""

SILENT_UNJUDGED = """
import pytest


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_silent_unjudged(tp):
    tp.build(tp.config({}))
    tp.run("q", asks_model=False)
    tp.expect("loop.completed-output", len(tp.model_requests()), 0, what="model requests")
"""

PROTOCOL_ONLY = """
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_unknown_id(tp):
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="new")


@pytest.mark.checks("proto.unknown-build-id")
def test_unknown_id_again(tp):
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="again")
"""

STOP_AFTER_FIRST = """

def pytest_runtest_logfinish(nodeid, location):
    import pytest

    session = _SESSION[0]
    session.shouldstop = "stopped by the vacuity self-test after one test"


_SESSION = []


def pytest_sessionstart(session):
    _SESSION.append(session)
"""

NOT_CLAIMED = """
import pytest


@pytest.mark.checks("dedup.balda-scoped-only")
@pytest.mark.capability("toolsets.dedup_key")
def test_needs_dedup(tp):
    raise AssertionError("never reached: the capability is not claimed")
"""

RECORDS_NOTHING = """
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_nothing(tp):
    tp.run("hi", judged=True)  # talks to the candidate, decides nothing
"""


def forked_pytest(pytester: pytest.Pytester, *args: str) -> tuple[int, str]:
    """`pytester.runpytest_subprocess(*args)`'s exit status and output (stdout lines, then stderr's),
    its `python -m pytest` forked from a preloaded interpreter (toolproof.controls.forkserver):
    a process of its own, without the 3 s of imports."""
    basetemp = pytester.path / f"basetemp-{next(_RUNS)}"
    done = run_python(
        "import sys, pytest; sys.exit(pytest.console_main())",
        [f"--basetemp={basetemp}", *args],
        cwd=pytester.path,
        env=dict(os.environ),
        timeout=RUN_TIMEOUT,
    )
    return done.returncode, "\n".join([*done.stdout.splitlines(), *done.stderr.splitlines()])


_RUNS = itertools.count(1)


@dataclass
class Run:
    """Exit status, output and JSON report of one subprocess run."""

    ret: int
    output: str
    report: dict[str, Any]

    @property
    def rows(self) -> dict[str, dict[str, Any]]:
        return {row["id"]: row for row in self.report["checks"]}


class Suite:
    """A pytester directory with the toolproof conftest and the candidates above."""

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester = pytester
        pytester.makeconftest(CONFTEST)
        pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
        (pytester.path / "vacuity_candidates.py").write_text(CANDIDATES, encoding="utf-8")

    def run(self, tests: str, *args: str, conftest: str | None = None) -> Run:
        self.pytester.makepyfile(test_suite=tests)
        if conftest is not None:
            self.pytester.makeconftest(conftest)
        report = self.pytester.path / "report.json"
        ret, output = forked_pytest(
            self.pytester,
            "-p",
            "toolproof.plugin",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "--report-json",
            str(report),
            *args,
        )
        assert report.is_file(), output
        return Run(ret, output, json.loads(report.read_text(encoding="utf-8")))


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def candidate(factory: str) -> str:
    return f"--candidate=py:vacuity_candidates:{factory}"


def test_a_test_recording_no_check_is_vacuous(suite: Suite) -> None:
    run = suite.run(RECORDS_NOTHING, candidate("answers"))
    assert run.ret == exitcodes.HARNESS, run.output
    row = run.rows["proto.unknown-build-id"]
    assert (row["status"], row["side"]) == ("fail", "harness")
    assert row["message"] == (
        "not decided: HarnessError during teardown: "
        "vacuous test: test_suite.py::test_nothing recorded no check"
    )


def test_an_ok_run_without_model_requests_is_a_vacuous_scenario(suite: Suite) -> None:
    run = suite.run(RUN_OK, candidate("answers"))
    assert run.ret == exitcodes.HARNESS, run.output
    row = run.rows["loop.completed-output"]
    assert (row["status"], row["side"]) == ("fail", "harness")
    first_line = row["message"].splitlines()[0]
    assert first_line.startswith("vacuous scenario (build ")
    assert first_line.endswith("): 1 run(s) answered ok, but the model endpoint saw no request")


def test_a_judged_run_declared_silent_is_not_vacuous(suite: Suite) -> None:
    """The silence a check pins (a cap that leaves no model request) is an observation."""
    run = suite.run(SILENT_RUN, candidate("answers"))
    assert run.ret == exitcodes.OK, run.output
    assert run.rows["loop.completed-output"]["status"] == "pass"


def test_an_unjudged_run_declared_silent_is_a_harness_error(suite: Suite) -> None:
    run = suite.run(SILENT_UNJUDGED, candidate("answers"))
    assert run.ret == exitcodes.HARNESS, run.output
    row = run.rows["loop.completed-output"]
    assert (row["status"], row["side"]) == ("fail", "harness")
    assert row["message"] == (
        "not decided: HarnessError during call: "
        "run(asks_model=False) is for judged runs: a check must pin the silence"
    )


def test_harness_tools_offered_without_mcp_traffic_is_a_vacuous_scenario(suite: Suite) -> None:
    run = suite.run(CACHED_TOOLS, candidate("offers_cached_tools"))
    assert run.ret == exitcodes.HARNESS, run.output
    row = run.rows["loop.completed-output"]
    assert (row["status"], row["side"]) == ("fail", "harness")
    assert row["message"].endswith(
        "): the model was offered harness MCP tools, but the MCP servers saw no request"
    )
    # the pass the test itself recorded is still there: the guard voids it, it does not hide it
    statuses = sorted(r["status"] for r in run.report["results"] if r["check"] == "loop.completed-output")
    assert statuses == ["fail", "pass"]


def test_the_same_tests_against_a_real_runtime_pass(suite: Suite) -> None:
    """Positive control: with real traffic the guard stays silent."""
    both = RUN_OK + CACHED_TOOLS.split("from toolproof.fakes import Text\n", 1)[1]
    run = suite.run(both, "--candidate=reference")
    assert run.ret == exitcodes.OK, run.output
    assert run.rows["loop.completed-output"]["status"] == "pass"


def test_every_check_not_claimed_is_empty_unless_allowed(suite: Suite) -> None:
    run = suite.run(NOT_CLAIMED, candidate("answers"))
    assert run.ret == exitcodes.EMPTY, run.output
    assert run.report["verdict_lines"] == [
        "EMPTY: no check was judged (nothing claimed?); pass --allow-empty if that is intended",
        "toolproof: exit 5: no check was judged (nothing claimed?)",
    ]
    assert suite.run(NOT_CLAIMED, candidate("answers"), "--allow-empty").ret == exitcodes.OK


def test_a_candidate_claiming_no_capability_is_empty_unless_allowed(suite: Suite) -> None:
    run = suite.run(PROTOCOL_ONLY, candidate("claims_nothing"))
    assert run.ret == exitcodes.EMPTY, run.output
    assert run.rows["proto.unknown-build-id"]["status"] == "pass"
    assert run.report["verdict_lines"] == [
        "EMPTY: the candidate claims no capability; pass --allow-empty if that is intended",
        "toolproof: exit 5: the candidate claims no capability",
    ]
    allowed = suite.run(PROTOCOL_ONLY, candidate("claims_nothing"), "--allow-empty")
    assert allowed.ret == exitcodes.OK, allowed.output


def test_fewer_results_than_collected_tests_is_an_error_not_a_partial_green(suite: Suite) -> None:
    run = suite.run(PROTOCOL_ONLY, candidate("answers"), conftest=STOP_AFTER_FIRST)
    assert run.ret == exitcodes.HARNESS, run.output
    summary = run.report["summary"]
    assert (summary["collected_tests"], summary["reported_tests"], summary["fail"]) == (2, 1, 0)
    assert run.report["verdict_lines"] == [
        "INCOMPLETE: 1 of 2 tests reported results; 1 of 2 declared check x test pairs have a result",
        "toolproof: exit 4: incomplete: 1 of 2 tests reported results; "
        "1 of 2 declared check x test pairs have a result",
    ]
