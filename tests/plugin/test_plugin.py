"""The pytest plugin end to end: small suites using the real `tp` fixture, run by pytester in a subprocess.

Each run writes a JSON report; every report is validated against
contracts/report.json, and each test pins the exact exit status
(toolproof/report/exitcodes.py) and report rows it expects.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import toolproof
from toolproof.errors import SIDES
from toolproof.judge.checks import STATUSES
from toolproof.judge.declared import ANY_WIRE, CAPABILITIES, OPENAI_WIRE
from toolproof.report import exitcodes

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
REPORT_SCHEMA = next(  # as shipped: the wheel's copy under toolproof/contracts, else the checkout's
    path
    for path in (
        Path(toolproof.__file__).resolve().parent / "contracts" / "report.json",
        Path(__file__).resolve().parents[2] / "contracts" / "report.json",
    )
    if path.is_file()
)
RUN_TIMEOUT = 120.0  # a run starts pytest, the fakes and a candidate: generous, never unbounded

# The plugin comes with -p (it is no entry point), and brings the suite's fixtures.
CONFTEST = """
# toolproof's plugin is loaded with -p toolproof.plugin
"""

# Two suite tests: the first passes against any adapter that answers an unknown id with kind
# internal; the second needs the model's reply relayed verbatim (strips_output trims it).
SUITE = r"""
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("proto.unknown-build-id")
def test_unknown_id(tp):
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="unbuilt")


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_text_reply(tp):
    tp.script(Text("  the answer\n"))
    tp.build(tp.config({}))
    outcome = tp.run("q", judged=True)
    tp.expect_outcome(
        "loop.completed-output",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "  the answer\n"},
        what="a text reply",
    )
"""
STRIPPED = {"ok": True, "stop_reason": "completed", "output": "the answer"}
TEXT_REPLY_FAILURE = (
    'a text reply:\n  $.output: expected "  the answer\\n" got "the answer"\n'
    '  observed: {"ok": true, "stop_reason": "completed", "output": "the answer"}'
)
NOT_CLAIMED = """
import pytest


@pytest.mark.checks("dedup.balda-scoped-only")
@pytest.mark.capability("toolsets.dedup_key")
def test_needs_dedup(tp):
    raise AssertionError("never reached: the capability is not claimed")
"""


def faux(name: str) -> str:
    """The --candidate spec of one fauxmplementation."""
    return f"cmd:{{python}} {FAUX / f'{name}.py'}"


def report_validator() -> Draft202012Validator:
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(report: Any) -> list[str]:
    errors = sorted(report_validator().iter_errors(report), key=lambda e: list(e.absolute_path))
    return [f"{list(e.absolute_path)}: {e.message}" for e in errors]


@dataclass
class Run:
    """One pytest run of a small suite: its outcome and its JSON report (None when none was written)."""

    result: pytest.RunResult
    report: dict[str, Any] | None

    @property
    def ret(self) -> int:
        return int(self.result.ret)

    @property
    def output(self) -> str:
        return "\n".join([*self.result.outlines, *self.result.errlines])

    @property
    def data(self) -> dict[str, Any]:
        assert self.report is not None, self.output
        return self.report

    @property
    def rows(self) -> dict[str, dict[str, Any]]:
        return {row["id"]: row for row in self.data["checks"]}

    def statuses(self, *checks: str) -> dict[str, str]:
        """Status of the given checks (harness-wide invariants, egress included, are recorded too)."""
        return {check: self.rows[check]["status"] for check in checks}

    def failing(self) -> list[str]:
        return sorted(check for check, row in self.rows.items() if row["status"] == "fail")

    def section(self) -> list[str]:
        """The console's `toolproof` section: the lines after its header, up to the next `=` rule."""
        lines = self.result.outlines
        start = next(i for i, line in enumerate(lines) if line.startswith("=") and " toolproof " in line)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("=")), len(lines))
        return lines[start + 1 : end]

    def outcomes(self) -> dict[str, int]:
        return {k: v for k, v in self.result.parseoutcomes().items() if k not in ("warnings", "warning")}


class Suite:
    """A pytester directory holding the toolproof conftest; `run()` runs pytest on it.

    Runs are in-process by default: a subprocess costs ~3 s of CPU in imports alone, and the
    candidates these runs start are `cmd:` subprocesses anyway. The harness scrubs provider
    variables from `os.environ` (for py: candidates), so the environment is restored after each
    run; `toolproof.plugin.fixtures` is imported by this module so that pytester's sys.modules snapshot
    keeps it (and the fakes) loaded between runs. `isolated=True` runs pytest in a subprocess, with
    a timeout: for xdist, whose workers are processes anyway.
    """

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester = pytester
        pytester.makeconftest(CONFTEST)
        pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")

    def write(self, **files: str) -> None:
        self.pytester.makepyfile(**files)

    def run(self, *args: str, isolated: bool = False) -> Run:
        report_path = self.pytester.path / "report.json"
        if report_path.exists():
            report_path.unlink()
        argv = (
            "-p",
            "toolproof.plugin",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "--report-json",
            str(report_path),
            *args,
        )
        if isolated:
            result = self.pytester.runpytest_subprocess(*argv, timeout=RUN_TIMEOUT)
        else:
            saved = dict(os.environ)
            try:  # every candidate request is bounded by --toolproof-timeout
                # no_reraise_ctrlc: toolproof's usage exit code 2 is pytest's INTERRUPTED, which
                # pytester would otherwise take for a Ctrl-C.
                result = self.pytester.runpytest_inprocess(
                    *argv, "--toolproof-timeout", "20", no_reraise_ctrlc=True
                )
            finally:
                os.environ.clear()
                os.environ.update(saved)
        report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
        if report is not None:  # every report any of these runs writes must match contracts/report.json
            assert schema_errors(report) == []
        return Run(result=result, report=report)


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def test_a_test_recording_no_check_fails_as_vacuous(suite: Suite) -> None:
    suite.write(
        test_vacuous="""
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_nothing(tp):
    tp.run("hi", judged=True)  # talks to the candidate, but decides nothing
"""
    )
    run = suite.run("--candidate", faux("wellbehaved"))
    assert run.ret == exitcodes.HARNESS, run.output
    assert run.outcomes() == {"passed": 1, "errors": 1}
    assert run.failing() == ["proto.unknown-build-id"]
    assert run.rows["proto.unknown-build-id"]["side"] == "harness"
    assert run.rows["proto.unknown-build-id"]["message"] == (
        "not decided: HarnessError during teardown: "
        "vacuous test: test_vacuous.py::test_nothing recorded no check"
    )


def test_an_unclaimed_capability_is_not_claimed_and_the_run_is_empty(suite: Suite) -> None:
    suite.write(test_unclaimed=NOT_CLAIMED)
    run = suite.run("--candidate", faux("wellbehaved"))
    assert run.ret == exitcodes.EMPTY, run.output
    assert run.outcomes() == {"skipped": 1}
    row = run.rows["dedup.balda-scoped-only"]
    assert (row["status"], row["side"], row["message"]) == (
        "not_claimed",
        "candidate",
        "the candidate does not claim toolsets.dedup_key",
    )
    assert run.data["summary"]["pass"] == 0
    assert run.data["verdict_lines"] == [
        "EMPTY: no check was judged (nothing claimed?); pass --allow-empty if that is intended",
        "toolproof: exit 5: no check was judged (nothing claimed?)",
    ]


def test_allow_empty_accepts_a_run_where_nothing_was_claimed(suite: Suite) -> None:
    suite.write(test_unclaimed=NOT_CLAIMED)
    run = suite.run("--candidate", faux("wellbehaved"), "--allow-empty")
    assert run.ret == exitcodes.OK, run.output
    assert run.rows["dedup.balda-scoped-only"]["status"] == "not_claimed"


def test_a_failing_must_check_fails_the_run_and_the_summary_shows_how_to_reproduce(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    summary = suite.pytester.path / "out" / "summary.md"
    spec = faux("strips_output")
    run = suite.run("--candidate", spec, "--summary-md", str(summary))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert run.outcomes() == {"passed": 1, "failed": 1}
    row = run.rows["loop.completed-output"]
    assert {
        k: row[k] for k in ("status", "side", "level", "expected_failure", "baseline_stale", "message")
    } == {
        "status": "fail",
        "side": "candidate",
        "level": "MUST",
        "expected_failure": False,
        "baseline_stale": False,
        "message": TEXT_REPLY_FAILURE,
    }
    assert row["tests"] == ["test_small.py::test_text_reply"]
    assert run.failing() == ["loop.completed-output"]
    assert run.statuses("proto.unknown-build-id") == {"proto.unknown-build-id": "pass"}
    assert run.data["verdict_lines"] == [
        "FAIL loop.completed-output [MUST (spec), candidate]: a text reply:",
        '    $.output: expected "  the answer\\n" got "the answer"',
        '    observed: {"ok": true, "stop_reason": "completed", "output": "the answer"}',
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate)",
    ]
    assert run.data["exit_reason"] == "1 MUST finding (1 failing MUST check) (candidate)"
    assert (row["observation"], row["deviation"], row["finding"], row["same_finding_as"]) == (
        "run-output",
        None,
        "loop.completed-output",
        None,
    )
    assert (run.data["summary"]["findings"], run.data["summary"]["failing_observations"]) == (1, 1)
    assert run.data["findings"] == [
        {
            "id": "loop.completed-output",
            "deviation": None,
            "text": None,
            "checks": ["loop.completed-output"],
            "level": "MUST",
            "expected_failure": False,
        }
    ]
    draws = (
        "hypothesis draws: seed 0 (the default; --toolproof-seed N varies them), in 0 tests;"
        " the same seed repeats every draw"
    )
    assert run.section() == [draws, json.dumps(run.data["summary"]), *run.data["verdict_lines"]]
    counts = run.data["summary"]
    assert counts["fail"] == 1
    repro = (
        f"toolproof run --candidate {shlex.quote(spec)} -- --toolproof-checks loop.completed-output"
        " -k test_text_reply"
    )
    assert summary.read_text(encoding="utf-8") == (
        "# toolproof: faux 0\n"
        "\n"
        f"Candidate `{spec}`, contract v8, toolproof {toolproof.__version__}.\n"
        "\n"
        f"**{counts['pass']} pass, 1 fail, 0 undecided, {counts['not_claimed']} not claimed, "
        f"{counts['not_testable']} not testable** (0 expected failures).\n"
        "\n"
        "**Exit 1**: 1 MUST finding (1 failing MUST check) (candidate)\n"
        "\n"
        "**Findings: 1** (one observed deviation each, however many checks it fails;"
        " expected failures apart)\n"
        "\n"
        "- `loop.completed-output`\n"
        "\n"
        "| finding | check | requirement | level | side | reason | reproduce |\n"
        "|---|---|---|---|---|---|---|\n"
        "| `loop.completed-output` | `loop.completed-output` | `tp-loop-completed` | MUST (spec) | candidate"
        " | a text reply:"
        '<br>`$.output: expected "  the answer\\n" got "the answer"`'
        '<br>`observed: {"ok": true, "stop_reason": "completed", "output": "the answer"}`'
        f" | `{repro}` |\n"
        "\n"
        "Reasons are shortened; the JSON report (`--report-json`) has every message in full.\n"
        "\n"
        f"{draws}\n"
    )


def test_a_baseline_listing_a_passing_check_is_stale(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "expected_failures:\n"
        "  - {check: loop.completed-output, reason: the faux trims the output}\n"
        "  - {check: proto.unknown-build-id, reason: fixed since}\n",
        encoding="utf-8",
    )
    run = suite.run("--candidate", faux("strips_output"), "--expected-failures", str(baseline))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    row = run.rows["proto.unknown-build-id"]
    assert (row["status"], row["expected_failure"], row["baseline_stale"]) == ("pass", True, True)
    assert run.data["summary"]["stale_baseline_entries"] == 1
    assert run.data["verdict_lines"] == [
        "STALE baseline entry proto.unknown-build-id: the check passes now; remove it from the baseline",
        "toolproof: exit 1: 1 stale baseline entry: proto.unknown-build-id",
    ]


def test_a_partial_run_judges_no_baseline_entry_stale(suite: Suite) -> None:
    """-k (or -m, --toolproof-checks) runs part of the suite: the tests that fail a baseline entry may
    not have run (an invariant passes on the tests that did), so an entry that passes is a note, never
    a stale entry failing the run."""
    suite.write(test_small=SUITE)
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "expected_failures:\n"
        "  - {check: loop.completed-output, reason: the faux trims the output}\n"
        "  - {check: proto.unknown-build-id, reason: fails in a test not selected here}\n",
        encoding="utf-8",
    )
    run = suite.run(
        "--candidate", faux("strips_output"), "--expected-failures", str(baseline), "-k", "unknown_id"
    )
    assert run.ret == exitcodes.OK, run.output
    row = run.rows["proto.unknown-build-id"]
    assert (row["status"], row["expected_failure"], row["baseline_stale"]) == ("pass", True, False)
    note = (
        "partial run (-k, -m or --toolproof-checks): baseline entries that pass here are not judged"
        " stale, since the tests that fail them may not have run: proto.unknown-build-id"
    )
    assert run.data["notes"] == [note]
    assert run.data["verdict_lines"][:-1] == [f"note: {note}"]


def test_a_typo_in_the_baseline_is_a_usage_error(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "expected_failures:\n  - {check: loop.completed-outptu, reason: r}\n", encoding="utf-8"
    )
    run = suite.run("--candidate", faux("wellbehaved"), "--expected-failures", str(baseline))
    assert run.ret == exitcodes.USAGE, run.output
    assert run.report is None
    assert run.result.errlines[-1] == (
        "Exit: toolproof: unknown check id 'loop.completed-outptu' (did you mean 'loop.completed-output'?)"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            ("--candidate", "bogus"),
            "--candidate 'bogus': expected 'reference', 'reference-continuation', 'reference-prefix', "
            "'reference-stream', 'reference-responses', "
            "'reference-responses-stream', "
            "'reference-responses-chained', 'reference-responses-chained-stream', "
            "'reference-responses-refs', "
            "'reference-anthropic', 'reference-anthropic-stream', "
            "'py:package.module:factory' or 'cmd:<shell command>'",
        ),
        (("--toolproof-checks", "proto.unknown-build-id,zzzz"), "unknown check id 'zzzz'"),
    ],
)
def test_a_bad_option_is_a_usage_error(suite: Suite, option: tuple[str, str], message: str) -> None:
    suite.write(test_small=SUITE)
    run = suite.run(*option)
    assert run.ret == exitcodes.USAGE, run.output
    assert run.report is None
    assert run.result.errlines[-1] == f"Exit: toolproof: {message}"


def test_a_crashing_candidate_is_blamed_on_the_adapter(suite: Suite) -> None:
    """The crash fails the precondition once, on the adapter's side; the check it kept from its own
    observation is undecided, blocked by the crash (one root cause, one failure)."""
    suite.write(test_small=SUITE)
    run = suite.run("--candidate", faux("crash_on_build"))
    assert run.ret == exitcodes.CANDIDATE_BROKEN, run.output
    assert run.outcomes() == {"passed": 1, "failed": 1}
    crash = (
        "build raised ProtocolViolation: candidate exited (code 3) before answering 'build'\n"
        "--- candidate stderr during this test's requests ---\ncrash_on_build: cannot build, giving up\n"
    )
    row = run.rows["proto.valid-config-builds-and-runs"]
    assert (row["status"], row["side"]) == ("fail", "adapter-protocol")
    assert row["message"].endswith(
        "a step this test needs did not succeed, so its other checks are undecided: " + crash
    )
    assert run.rows["loop.completed-output"]["status"] == "undecided"
    assert [r["blocked_by"] for r in run.data["results"] if r["check"] == "loop.completed-output"] == [
        "build broke off"
    ]
    assert (
        run.data["verdict_lines"][-1]
        == "toolproof: exit 3: 1 protocol break: proto.valid-config-builds-and-runs"
    )


def test_toolproof_checks_selects_only_the_hosting_tests(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    run = suite.run("--candidate", faux("wellbehaved"), "--toolproof-checks", "proto.unknown-build-id")
    assert run.ret == exitcodes.OK, run.output
    assert run.outcomes() == {"passed": 1, "deselected": 1}
    assert sorted(check for check, row in run.rows.items() if not row["invariant"]) == [
        "proto.unknown-build-id"
    ]
    assert (run.data["summary"]["collected_tests"], run.data["summary"]["reported_tests"]) == (1, 1)


def test_xdist_workers_results_are_merged(suite: Suite) -> None:
    suite.write(
        test_small=SUITE,
        test_more="""
import pytest


@pytest.mark.checks("proto.unknown-build-id")
@pytest.mark.parametrize("text", ["a", "b"])
def test_unknown_id_again(tp, text):
    outcome = tp.run(text, judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="again")


def test_not_a_suite_test():
    pass
""",
    )
    run = suite.run("--candidate", "reference", "-n", "2", isolated=True)
    assert run.ret == exitcodes.OK, run.output
    assert run.outcomes() == {"passed": 5}
    assert run.statuses("loop.completed-output", "proto.unknown-build-id") == {
        "loop.completed-output": "pass",
        "proto.unknown-build-id": "pass",
    }
    assert run.failing() == []
    summary = run.data["summary"]
    assert (summary["collected_tests"], summary["reported_tests"]) == (4, 4)
    row = run.rows["proto.unknown-build-id"]
    assert (row["status"], row["occurrences"]) == ("pass", 3)
    assert row["tests"] == [
        "test_more.py::test_unknown_id_again[a]",
        "test_more.py::test_unknown_id_again[b]",
        "test_small.py::test_unknown_id",
    ]
    assert run.data["candidate"]["hello"]["implementation"]["name"] == "toolproof-reference"


def test_the_report_schema_pins_the_enums_of_the_code() -> None:
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    defs = schema["$defs"]
    assert defs["status"]["enum"] == list(STATUSES)
    assert defs["side"]["enum"] == list(SIDES)
    # openai.* stays: it is a family of version 7, and reports of older versions name it
    assert defs["capability"]["enum"] == [None, *CAPABILITIES, ANY_WIRE, OPENAI_WIRE]
    assert defs["hello"]["properties"]["capabilities"]["items"]["enum"] == list(CAPABILITIES)


def test_an_expected_failure_passes_the_run_and_the_real_report_matches_the_strict_schema(
    suite: Suite,
) -> None:
    suite.write(test_small=SUITE, test_unclaimed=NOT_CLAIMED)
    baseline = suite.pytester.path / "baseline.yaml"
    baseline.write_text(
        "expected_failures:\n  - check: loop.completed-output\n    reason: the faux trims the output\n",
        encoding="utf-8",
    )
    run = suite.run("--candidate", faux("strips_output"), "--expected-failures", str(baseline))
    assert run.ret == exitcodes.OK, run.output
    assert run.outcomes() == {"passed": 1, "skipped": 1, "xfailed": 1}
    row = run.rows["loop.completed-output"]
    assert (row["status"], row["expected_failure"], row["baseline_stale"]) == ("fail", True, False)
    assert run.data["summary"]["expected_failures"] == 1
    assert run.data["summary"]["findings"] == 0  # an expected failure is no finding of the run's
    assert run.data["findings"][0]["expected_failure"] is True
    assert run.data["verdict_lines"] == [
        f"toolproof: exit 0: every MUST check passed ({run.data['summary']['pass']} passing checks);"
        " also 1 expected failure (baseline)"
    ]
    report = run.data
    assert schema_errors(report) == []
    # Pass, expected failure and not_claimed rows, a hello and a failure observation: a rich sample.
    assert run.statuses("dedup.balda-scoped-only", "loop.completed-output", "proto.unknown-build-id") == {
        "dedup.balda-scoped-only": "not_claimed",
        "loop.completed-output": "fail",
        "proto.unknown-build-id": "pass",
    }
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert [(r["check"], r["side"], r["observation"]) for r in failed] == [
        ("loop.completed-output", "candidate", STRIPPED)
    ]
    # Strict: an unknown key anywhere the shape is known is rejected.
    for where in (report, report["candidate"], report["summary"], report["checks"][0], report["results"][0]):
        where["surprise"] = 1
    assert [e.split(":")[0] for e in schema_errors(report)] == [
        "[]",
        "['candidate']",
        "['checks', 0]",
        "['results', 0]",
        "['summary']",
    ]


def test_a_typo_in_a_checks_marker_is_a_suite_bug(suite: Suite) -> None:
    suite.write(
        test_typo=(
            "import pytest\n\n\n"
            '@pytest.mark.checks("proto.unknown-bild-id")\n'
            "def test_typo(tp):\n"
            '    tp.not_testable("proto.unknown-bild-id", "never reached")\n'
        )
    )
    run = suite.run("--candidate", faux("wellbehaved"))
    assert run.ret == exitcodes.HARNESS, run.output
    assert run.outcomes() == {"errors": 1}
    assert run.data["verdict_lines"] == [
        "INCOMPLETE: 0 of 1 tests reported results",
        "toolproof: exit 4: incomplete: 0 of 1 tests reported results",
    ]
    assert (
        "HarnessError: test_typo.py::test_typo: unknown check id 'proto.unknown-bild-id'"
        " (did you mean 'proto.unknown-build-id'?)"
    ) in run.output


def test_a_crash_after_a_pass_leaves_the_check_undecided_and_fails_the_precondition(suite: Suite) -> None:
    suite.write(
        test_late_crash=(
            "import pytest\n\n\n"
            '@pytest.mark.checks("proto.unknown-build-id")\n'
            "def test_late_crash(tp):\n"
            '    outcome = tp.run("hi", judged=True)\n'
            '    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"},'
            ' what="unbuilt")\n'
            "    tp.build(tp.config({}))  # crash_on_build exits here\n"
        )
    )
    run = suite.run("--candidate", faux("crash_on_build"))
    assert run.ret == exitcodes.CANDIDATE_BROKEN, run.output
    # The pass recorded before the crash is only part of the check's verdict: undecided, not pass.
    assert run.rows["proto.unknown-build-id"]["status"] == "undecided"
    assert [
        (r["status"], r["blocked_by"]) for r in run.data["results"] if r["check"] == "proto.unknown-build-id"
    ] == [
        ("pass", None),
        ("undecided", "build broke off"),
    ]
    row = run.rows["proto.valid-config-builds-and-runs"]
    assert (row["status"], row["side"]) == ("fail", "adapter-protocol")
