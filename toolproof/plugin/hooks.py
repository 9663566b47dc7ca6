"""What the plugin's hooks do, kept out of plugin.py so that it holds hooks only."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any, NoReturn

import pytest

from toolproof.connect.connectables import resolve
from toolproof.errors import (
    CandidateStartError,
    HarnessError,
    SessionAborted,
    ToolproofError,
    UsageError,
    side_of,
)
from toolproof.judge.catalog import Catalog, load_catalog
from toolproof.judge.checks import CheckFailed, CheckResult, Recorder
from toolproof.judge.expected import load_baseline, overdue
from toolproof.plugin.dumps import DUMPS
from toolproof.plugin.session import CHECKS, HELLO_PROPERTY, RECORDER, STATE, USER_PROPERTY, SessionState
from toolproof.report import exitcodes
from toolproof.report.markdown import render_summary
from toolproof.report.model import Report

FINAL = pytest.StashKey[tuple[dict[str, Any], list[str]]]()
HELLO = pytest.StashKey[dict[str, Any]]()
COLLECTED_KEY = "toolproof_collected"
DRIFT = pytest.StashKey[list[str]]()
BAD_MARKER = pytest.StashKey[str]()
DRIFT_PROPERTY = "toolproof_wire_drift"
REQUIREMENT_PREFIX = "tp-"
"""Requirement IDs start so (`tp-<area>-<thing>`); check IDs never do (`<area>.<thing>`)."""


def register_hypothesis_profiles() -> None:
    """`ci`: derandomized, no example database, blobs printed to reproduce; `dev`: random, more examples."""
    from hypothesis import HealthCheck, Phase, settings

    settings.register_profile(
        "ci",
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        max_examples=25,
        # No shrinking in CI: each shrink step is a full build and run of the candidate (minutes
        # for one failure). The failing example is still printed, with the blob to reproduce it.
        phases=(Phase.explicit, Phase.reuse, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    settings.register_profile(
        "dev",
        deadline=None,
        print_blob=True,
        max_examples=50,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def candidate_spec(config: pytest.Config) -> str:
    """--candidate, else the ini setting, else `reference`."""
    return str(config.getoption("candidate") or config.getini("toolproof_candidate") or "reference")


def usage_error(message: str) -> NoReturn:
    """Stop with toolproof's usage exit code (2): pytest.UsageError would exit 4, which means HARNESS."""
    pytest.exit(f"toolproof: {message}", returncode=exitcodes.USAGE)


def wanted_checks(raw: str, catalog: Catalog) -> frozenset[str]:
    """The check IDs a --toolproof-checks value selects: each comma-separated ID is a check ID, or a
    requirement ID (`tp-...`) standing for every check nested under it.

    An unknown ID is a UsageError naming the likely typo among the IDs of its kind.
    """
    selected: set[str] = set()
    for one in (part.strip() for part in raw.split(",")):
        if not one:
            continue
        if one in catalog.requirements:
            selected.update(catalog.requirements[one].checks)
        elif one.startswith(REQUIREMENT_PREFIX):
            close = difflib.get_close_matches(one, catalog.requirements, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(f"unknown requirement id {one!r}{hint}")
        else:
            selected.add(catalog.check(one).id)  # names the likely typo when unknown
    return frozenset(selected)


def configure(config: pytest.Config) -> None:
    """Create the session state; check the spec, the baseline and --toolproof-checks early (typos fail fast,
    before any xdist worker starts)."""
    state = SessionState(spec=candidate_spec(config))
    baseline = config.getoption("expected_failures")
    wanted_raw = config.getoption("toolproof_checks")
    try:
        resolve(state.spec)
        if baseline:
            state.baseline = load_baseline(baseline)
        if wanted_raw:
            wanted_checks(wanted_raw, load_catalog())
    except UsageError as exc:
        usage_error(str(exc))
    config.stash[STATE] = state
    register_for_reports(config)


def _declared(item: pytest.Item) -> frozenset[str]:
    ids: set[str] = set()
    for marker in item.iter_markers("checks"):
        ids.update(marker.args)
    return frozenset(ids)


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Validate every `checks` marker against the catalog; apply --toolproof-checks (check and requirement
    IDs)."""
    wanted_raw = config.getoption("toolproof_checks")
    if not wanted_raw and not any(_declared(item) for item in items):
        return  # not the toolproof suite: stay inert (never read the contract files)
    catalog = load_catalog()
    wanted = wanted_checks(wanted_raw, catalog) if wanted_raw else None
    invariant_ids = {c.id for c in catalog.checks.values() if c.invariant}  # `wanted`: checked in configure
    keep, drop = [], []
    for item in items:
        declared = _declared(item)
        unknown = []
        for check_id in sorted(declared):
            try:
                catalog.check(check_id)
            except UsageError as exc:
                unknown.append(str(exc))
        if unknown:
            # A suite bug: the test errors in setup (side harness, exit 4). Raising here would
            # crash an xdist worker, which pytest-xdist reports as an internal error.
            item.stash[BAD_MARKER] = f"{item.nodeid}: " + "; ".join(unknown)
            declared = frozenset(c for c in declared if c in catalog.checks)
        item.stash[CHECKS] = declared
        # Invariants are judged on every test's traffic: when other checks are wanted too, their
        # hosts' traffic judges the invariants; only an all-invariant selection needs every test.
        hosts_invariants = bool(wanted and not (wanted - invariant_ids) and declared)
        if wanted is None or (declared & wanted) or hosts_invariants:
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def count_collected(session: pytest.Session) -> None:
    """After every deselection (-k, -m, --toolproof-checks): the tests that must report."""
    state = session.config.stash.get(STATE, None)
    count = sum(1 for i in session.items if i.stash.get(CHECKS, frozenset()) or BAD_MARKER in i.stash)
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[COLLECTED_KEY] = count  # the xdist controller never collects: it is told
    elif state is not None:
        state.collected = count


def worker_done(workeroutput: dict[str, Any]) -> None:
    """On the controller: every worker collected the same suite tests; keep their count."""
    state = _STATE_FOR_REPORTS.get("state")
    if state is not None:
        state.collected = max(state.collected, int(workeroutput.get(COLLECTED_KEY, 0)))


def prepare(item: pytest.Item) -> None:
    """A fresh recorder per test; a test whose checks marker names an unknown check errors here."""
    item.stash[RECORDER] = Recorder(test=item.nodeid)
    bad = item.stash.get(BAD_MARKER, None)
    if bad is not None:
        raise HarnessError(bad)


def attach(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """Turn an unexpected exception into failures of the declared checks that had not failed yet."""
    recorder = item.stash.get(RECORDER, None)
    declared = item.stash.get(CHECKS, frozenset())
    if recorder is None or not declared:
        return
    excinfo = call.excinfo
    if excinfo is not None and not excinfo.errisinstance((CheckFailed, pytest.skip.Exception)):
        exc = excinfo.value
        side = side_of(exc)
        if isinstance(exc, AssertionError):
            side = "harness"
        catalog = load_catalog()
        # Every declared check not already failed: a pass recorded before the crash is only part
        # of the test's verdict on that check, so it cannot stand alone.
        for check_id in sorted(declared - recorder.failed_ids()):
            spec = catalog.check(check_id)
            recorder.add(
                spec.result(
                    status="fail",
                    side=side,
                    message=f"not decided: {type(exc).__name__} during {call.when}: {str(exc)[:1500]}",
                    test=item.nodeid,
                )
            )
        if isinstance(exc, SessionAborted) or (
            isinstance(exc, ToolproofError) and exc.side == "timeout" and _in_process(item)
        ):
            item.session.shouldstop = f"toolproof: {exc}"
            item.config.stash[STATE].aborted = str(exc)
        if isinstance(exc, CandidateStartError):
            item.config.stash[STATE].aborted = f"candidate could not be started: {exc}"
    if excinfo is not None and excinfo.errisinstance(CheckFailed) and call.when == "call":
        _record_undecided(item, recorder, declared, excinfo.value)
    if excinfo is not None and excinfo.errisinstance(CheckFailed) and report.failed:
        failed = excinfo.value
        assert isinstance(failed, CheckFailed)
        if failed.result.check in item.config.stash[STATE].baseline:
            # Listed in the baseline: pytest shows it as xfailed; the report keeps the failure.
            report.outcome = "skipped"
            report.wasxfail = f"expected failure (baseline): {failed.result.check}"
    if call.when == "teardown":
        report.user_properties.append(
            (
                USER_PROPERTY,
                json.dumps([r.serializable() for r in recorder.results], ensure_ascii=False, default=repr),
            )
        )
        hello = item.config.stash.get(HELLO, None)
        if hello is not None:
            report.user_properties.append((HELLO_PROPERTY, json.dumps(hello)))
        drift = item.stash.get(DRIFT, None)
        if drift:
            report.user_properties.append((DRIFT_PROPERTY, json.dumps(drift, ensure_ascii=False)))


def _record_undecided(
    item: pytest.Item, recorder: Recorder, declared: frozenset[str], failed: object
) -> None:
    """A MUST failure stopped the test: every declared check it had not recorded yet is `undecided`,
    blocked by that failure (never missing from the report, never a pass)."""
    assert isinstance(failed, CheckFailed)
    catalog = load_catalog()
    for check_id in sorted(declared - recorder.recorded_ids()):
        spec = catalog.check(check_id)
        recorder.add(
            spec.result(
                status="undecided",
                side=spec.side,
                message=f"not decided: the test stopped when {failed.result.check} failed before this "
                "check's own observation",
                test=item.nodeid,
                blocked_by=failed.result.check,
            )
        )


def _in_process(item: pytest.Item) -> bool:
    return not candidate_spec(item.config).startswith("cmd:")


def collect(report: pytest.TestReport) -> None:
    """Gather results from teardown reports (controller side under xdist)."""
    if report.when != "teardown":
        return
    state = _STATE_FOR_REPORTS.get("state")
    if state is None:
        return
    found = False
    for name, value in report.user_properties:
        if name == USER_PROPERTY:
            found = True
            state.results.extend(CheckResult.from_serialized(d) for d in json.loads(str(value)))
        elif name == DRIFT_PROPERTY:
            state.drift.extend(json.loads(str(value)))
        elif name == HELLO_PROPERTY and state.hello is None:
            carried = json.loads(str(value))
            state.hello, state.origin = carried["hello"], carried["origin"]
    if found:
        state.reported += 1


# pytest_runtest_logreport gets no config; the controller's state is registered here at configure time.
_STATE_FOR_REPORTS: dict[str, SessionState] = {}


def register_for_reports(config: pytest.Config) -> None:
    """Make the controller's state reachable from logreport."""
    if not hasattr(config, "workerinput"):
        _STATE_FOR_REPORTS["state"] = config.stash[STATE]


def finish(session: pytest.Session) -> None:
    """Aggregate, apply the baseline, decide the exit status, write reports, and set the status.

    The console's `toolproof` section prints `verdict_lines`; its last line is the exit status and why.
    """
    config = session.config
    state = config.stash.get(STATE, None)
    if state is None or hasattr(config, "workerinput") or not state.collected:
        return
    if config.option.collectonly:  # nothing ran, nothing to judge (mutmut lists tests this way)
        return
    dumps = config.stash.get(DUMPS, None)
    report = Report(
        candidate_spec=state.spec,
        hello=state.hello,
        origin=state.origin,
        results=state.results,
        collected_tests=state.collected,
        reported_tests=state.reported,
        notes=state.notes,
        dumps=dict(dumps.written) if dumps is not None else {},
    )
    data = report.serializable(state.baseline)
    decision = exitcodes.decide(
        data,
        strict=bool(config.getoption("toolproof_strict")),
        allow_empty=bool(config.getoption("allow_empty")),
        aborted=state.aborted,
        pytest_status=int(session.exitstatus),
    )
    lines = list(decision.lines)
    for drift in state.drift[:50]:
        lines.append(f"wire drift (not a failure): {drift}")
    for entry in overdue(state.baseline):
        lines.append(f"warning: baseline entry {entry.check} was due for review on {entry.review_by}")
    for error in dumps.errors if dumps is not None else []:
        lines.append(f"warning: --toolproof-dump could not write {error}")
    lines.append(decision.exit_line())  # last: the one line a maintainer reads first
    data["exit_status"] = decision.status
    data["exit_reason"] = decision.reason
    data["wire_drift"] = list(state.drift)
    data["verdict_lines"] = lines
    if config.getoption("report_json"):
        path = Path(config.getoption("report_json"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if config.getoption("summary_md"):
        path = Path(config.getoption("summary_md"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_summary(data), encoding="utf-8")
    config.stash[FINAL] = (data["summary"], lines)
    session.exitstatus = decision.status
