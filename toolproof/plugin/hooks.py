"""What the plugin's hooks do, kept out of plugin/__init__.py so that it holds hooks only."""

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
from toolproof.judge.checks import PRECONDITION, Blocked, CheckFailed, CheckResult, Recorder
from toolproof.judge.expected import load_baseline, overdue
from toolproof.plugin import draws
from toolproof.plugin.dumps import DUMPS
from toolproof.plugin.session import (
    CHECKS,
    DECLARED_PROPERTY,
    HELLO_PROPERTY,
    RECORDER,
    STATE,
    USER_PROPERTY,
    SessionState,
)
from toolproof.report import exitcodes, seeds
from toolproof.report.markdown import render_summary
from toolproof.report.model import Report

FINAL = pytest.StashKey[tuple[dict[str, Any], list[str]]]()
HELLO = pytest.StashKey[dict[str, Any]]()
COLLECTED_KEY = "toolproof_collected"
PARTIAL_KEY = "toolproof_partial"
SUITE_SIZE = pytest.StashKey[int]()
PAIRS_KEY = "toolproof_declared_pairs"
DRIFT = pytest.StashKey[list[str]]()
DRAWS_LINE = pytest.StashKey[str]()
USAGE = pytest.StashKey[str]()
BAD_MARKER = pytest.StashKey[str]()
DRIFT_PROPERTY = "toolproof_wire_drift"
REQUIREMENT_PREFIX = "tp-"
"""Requirement IDs start so (`tp-<area>-<thing>`); check IDs never do (`<area>.<thing>`)."""


DEFAULT_PROFILE = "toolproof"
"""The Hypothesis profile loaded when no --hypothesis-profile is given (`ci` is the same settings)."""


def register_hypothesis_profiles() -> None:
    """`toolproof` (loaded by default) and its old name `ci`: derandomized, no example database, no
    shrinking, blobs printed. The draws themselves are seeded per test by toolproof.plugin.draws,
    under any profile."""
    from hypothesis import HealthCheck, Phase, settings

    settings.register_profile(
        DEFAULT_PROFILE,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        max_examples=25,
        # No shrinking: each shrink step is a full build and run of the candidate (minutes for
        # one failure). The failing example is still printed, with the blob to reproduce it.
        phases=(Phase.explicit, Phase.reuse, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    settings.register_profile("ci", settings.get_profile(DEFAULT_PROFILE))


def load_default_profile(config: pytest.Config) -> None:
    """Without --hypothesis-profile, load `toolproof` (restored at the end: pytester runs share the
    process). Hypothesis's own --hypothesis-profile, when given, wins."""
    from hypothesis import settings

    if config.getoption("hypothesis_profile", None) is not None:
        return
    previous = settings.get_current_profile_name()
    settings.load_profile(DEFAULT_PROFILE)
    config.add_cleanup(lambda: settings.load_profile(previous))


def candidate_spec(config: pytest.Config) -> str:
    """--candidate, else the ini setting, else `reference`."""
    return str(config.getoption("candidate") or config.getini("toolproof_candidate") or "reference")


def usage_error(message: str, config: pytest.Config | None = None) -> NoReturn:
    """Stop with toolproof's usage exit code (2): pytest.UsageError would exit 4, which means HARNESS.
    `config` keeps the message (USAGE), so `toolproof run` can tell it from pytest's 2 (interrupted)."""
    if config is not None:
        config.stash[USAGE] = message
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
        if config.getoption("hypothesis_seed", None) is not None:
            raise UsageError(
                "--hypothesis-seed does not reach the suite's draws (each test is seeded from the "
                "run's seed): use --toolproof-seed N"
            )
        config.stash[draws.DRAWS] = draws.from_config(config)
        resolve(state.spec)
        if baseline:
            state.baseline = load_baseline(baseline)
        if wanted_raw:
            wanted_checks(wanted_raw, load_catalog())
    except UsageError as exc:
        usage_error(str(exc), config)
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
    # Checks any test may decide (`wanted`: checked in configure): the invariants and the precondition.
    invariant_ids = {c.id for c in catalog.checks.values() if c.invariant} | {PRECONDITION}
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


def count_suite(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Before any deselection: how many suite tests (tests declaring checks) were collected."""
    config.stash[SUITE_SIZE] = sum(1 for item in items if _declared(item))


def count_collected(session: pytest.Session) -> None:
    """After every deselection (-k, -m, --toolproof-checks): the tests that must report, and whether
    the run selected only part of the suite (then a baseline entry that passes is not proven stale)."""
    state = session.config.stash.get(STATE, None)
    count = sum(1 for i in session.items if i.stash.get(CHECKS, frozenset()) or BAD_MARKER in i.stash)
    pairs = sum(len(i.stash.get(CHECKS, frozenset())) for i in session.items)
    partial = count < session.config.stash.get(SUITE_SIZE, count)
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[COLLECTED_KEY] = count  # the xdist controller never collects: it is told
        workeroutput[PAIRS_KEY] = pairs
        workeroutput[PARTIAL_KEY] = partial
    elif state is not None:
        state.collected, state.declared_pairs, state.partial = count, pairs, partial


def worker_done(workeroutput: dict[str, Any]) -> None:
    """On the controller: every worker collected the same suite tests; keep their count."""
    state = _STATE_FOR_REPORTS.get("state")
    if state is not None:
        state.collected = max(state.collected, int(workeroutput.get(COLLECTED_KEY, 0)))
        state.declared_pairs = max(state.declared_pairs, int(workeroutput.get(PAIRS_KEY, 0)))
        state.partial = state.partial or bool(workeroutput.get(PARTIAL_KEY, False))


def prepare(item: pytest.Item) -> None:
    """A fresh recorder per test; a test whose checks marker names an unknown check errors here."""
    item.stash[RECORDER] = Recorder(test=item.nodeid)
    bad = item.stash.get(BAD_MARKER, None)
    if bad is not None:
        raise HarnessError(bad)


def attach(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """Decide every declared check the test left open; carry the results on the teardown report.

    - the test stopped because a step it needed failed (`Blocked`), or failed checks were raised
      at its end (`CheckFailed`): every declared check not failed is `undecided`, blocked by it;
    - any other exception after a check of this test had failed: the same, blocked by that check
      (a later step read an observation the failure left missing);
    - any other exception: a fault of its side (a harness bug, a timeout, a crash) that decided
      nothing, so every declared check not failed fails on that side.
    """
    recorder = item.stash.get(RECORDER, None)
    declared = item.stash.get(CHECKS, frozenset())
    if recorder is None or not declared:
        return
    if call.when == "call" and report.failed:
        note = draws.failure_note(item)
        if note is not None:
            report.sections.append(("toolproof draws", note))
    excinfo = call.excinfo
    if excinfo is not None and not excinfo.errisinstance(pytest.skip.Exception):
        exc = excinfo.value
        root = exc.__cause__ if isinstance(exc, Blocked) and exc.__cause__ is not None else exc
        earlier = recorder.must_failures()
        if isinstance(exc, Blocked):
            _record_undecided(item, recorder, declared - recorder.failed_ids(), exc.blocked_by, exc.message)
        elif isinstance(exc, CheckFailed):
            # Raised when the test or a Hypothesis example ended: every check had its own observation,
            # so only one the test never reached (later examples) is undecided.
            _record_undecided(
                item,
                recorder,
                declared - recorder.recorded_ids(),
                exc.result.check,
                f"the test ended when {exc.result.check} failed, before this check's own observation",
            )
        elif call.when == "call" and earlier:
            first = earlier[0]
            _record_undecided(
                item,
                recorder,
                declared - recorder.failed_ids(),
                first.check,
                f"the test could not reach this check's own observation after {first.check} failed "
                f"({type(exc).__name__}: {str(exc)[:500]})",
            )
        else:
            _record_fault(item, recorder, declared, exc, call.when)
        if isinstance(root, SessionAborted) or (
            isinstance(root, ToolproofError) and root.side == "timeout" and _in_process(item)
        ):
            item.session.shouldstop = f"toolproof: {root}"
            item.config.stash[STATE].aborted = str(root)
        if isinstance(root, CandidateStartError):
            item.config.stash[STATE].aborted = f"candidate could not be started: {root}"
    if excinfo is not None and excinfo.errisinstance((CheckFailed, Blocked)) and report.failed:
        failed = [r for r in recorder.results if r.status == "fail"]
        baseline = item.config.stash[STATE].baseline
        # A failure of the exploration phase is never an expected one (toolproof.plugin.draws).
        strict = bool(item.config.getoption("toolproof_strict"))
        if failed and all(result.check in baseline for result in failed) and not draws.explored(item):
            # Every failure is listed in the baseline: pytest shows it as xfailed; the report keeps it.
            report.outcome = "skipped"
            report.wasxfail = "expected failure (baseline): " + ", ".join(r.check for r in failed)
        elif (
            excinfo.errisinstance(Blocked)
            and failed
            and not strict
            and all(result.level == "SHOULD" and result.side == "candidate" for result in failed)
        ):
            # A SHOULD check stopped the test (its build or run ended ok false): as with any failed
            # SHOULD, the test stays green without --toolproof-strict; the toolproof section reports it.
            report.outcome = "passed"
            report.longrepr = None
    if call.when == "call":
        draws.close_exploration(item)  # what it recorded for an exploration's failure belongs to it
    if call.when == "teardown":
        draws.label(item)
        report.user_properties.append(
            (
                USER_PROPERTY,
                json.dumps([r.serializable() for r in recorder.results], ensure_ascii=False, default=repr),
            )
        )
        report.user_properties.append((DECLARED_PROPERTY, json.dumps(sorted(declared))))
        hello = item.config.stash.get(HELLO, None)
        if hello is not None:
            report.user_properties.append((HELLO_PROPERTY, json.dumps(hello)))
        drift = item.stash.get(DRIFT, None)
        if drift:
            report.user_properties.append((DRIFT_PROPERTY, json.dumps(drift, ensure_ascii=False)))


def raise_failed_checks(item: pytest.Item) -> None:
    """After a test body returned: raise the MUST checks it failed, so pytest shows it red."""
    __tracebackhide__ = True  # the failure is the checks' messages, not this frame
    recorder = item.stash.get(RECORDER, None)
    failures = recorder.must_failures() if recorder is not None else []
    if failures:
        raise CheckFailed(failures)


def _record_fault(
    item: pytest.Item, recorder: Recorder, declared: frozenset[str], exc: BaseException, when: str
) -> None:
    side = side_of(exc)
    if isinstance(exc, AssertionError):
        side = "harness"
    catalog = load_catalog()
    # Every declared check not already failed: a pass recorded before the fault is only part
    # of the test's verdict on that check, so it cannot stand alone.
    for check_id in sorted(declared - recorder.failed_ids()):
        recorder.add(
            catalog.check(check_id).result(
                status="fail",
                side=side,
                message=f"not decided: {type(exc).__name__} during {when}: {str(exc)[:1500]}",
                test=item.nodeid,
            )
        )


def _record_undecided(
    item: pytest.Item, recorder: Recorder, checks: frozenset[str], blocked_by: str, why: str
) -> None:
    """`checks` are `undecided`, blocked by `blocked_by`: never missing from the report, never a pass
    (after a Blocked stop, a pass recorded before it is only part of the check's verdict)."""
    catalog = load_catalog()
    for check_id in sorted(checks):
        spec = catalog.check(check_id)
        recorder.add(
            spec.result(
                status="undecided",
                side=spec.side,
                message=f"not decided: {why}",
                test=item.nodeid,
                blocked_by=blocked_by,
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
    decided: set[str] = set()
    declared: set[str] = set()
    for name, value in report.user_properties:
        if name == USER_PROPERTY:
            found = True
            results = [CheckResult.from_serialized(d) for d in json.loads(str(value))]
            state.results.extend(results)
            decided = {r.check for r in results}
        elif name == DECLARED_PROPERTY:
            declared = set(json.loads(str(value)))
        elif name == DRIFT_PROPERTY:
            state.drift.extend(json.loads(str(value)))
        elif name == HELLO_PROPERTY and state.hello is None:
            carried = json.loads(str(value))
            state.hello, state.origin = carried["hello"], carried["origin"]
    if found:
        state.reported += 1
        state.decided_pairs += len(declared & decided)


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
        declared_pairs=state.declared_pairs,
        decided_pairs=state.decided_pairs,
        notes=state.notes,
        dumps=dict(dumps.written) if dumps is not None else {},
        partial=state.partial,
    )
    data = report.serializable(state.baseline)
    drawn_tests = len({r.test for r in state.results if r.draws is not None})
    data["draws"] = config.stash[draws.DRAWS].serializable(drawn_tests)
    decision = exitcodes.decide(
        data,
        strict=bool(config.getoption("toolproof_strict")),
        allow_empty=bool(config.getoption("allow_empty")),
        aborted=state.aborted,
        pytest_status=int(session.exitstatus),
    )
    lines = list(decision.lines)
    lines += [f"note: {note}" for note in report.unproven_stale(data["checks"])]
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
    config.stash[DRAWS_LINE] = seeds.describe(data["draws"])
    config.stash[FINAL] = (data["summary"], lines)
    session.exitstatus = decision.status
