"""The suite's fixtures: one harness per worker, one Scenario per test.

The suite's conftest.py re-exports these; keeping them here keeps the
plugin module to hooks only.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolproof.connect import egress
from toolproof.connect.candidate import Candidate
from toolproof.connect.connectables import ConnectSettings, connect, scrubbed_env
from toolproof.connect.stdio import default_trace, is_json_object, unsolicited_message
from toolproof.errors import HarnessError
from toolproof.fakes import McpServers, ModelEndpoint, stdio_server
from toolproof.fakes.mcp_tools import SERVED_NAMES
from toolproof.judge import findings, invariants, loopback, transcripts
from toolproof.judge.catalog import Catalog, load_catalog
from toolproof.judge.checks import PRECONDITION, Recorder, Status
from toolproof.judge.declared import TRANSPORT_CAPABILITIES
from toolproof.plugin import declare, draws, dumps, processes
from toolproof.plugin.hooks import DRIFT, HELLO, candidate_spec
from toolproof.plugin.scenario import RESPONSE_ORDER, STDOUT_PROTOCOL_ONLY, Scenario, unsolicited_check
from toolproof.plugin.session import CHECKS, RECORDER


@dataclass
class Harness:
    """Everything one pytest worker shares: the candidate and the fakes it is observed through."""

    candidate: Candidate
    model: ModelEndpoint
    mcp: McpServers
    egress: egress.EgressSession | None = None
    #: The recorder of the test running now: what the end of the session finds is charged there.
    recorder: Recorder | None = None


def _settings(config: pytest.Config) -> ConnectSettings:
    timeout = config.getoption("toolproof_timeout") or float(config.getini("toolproof_timeout"))
    grace = config.getoption("toolproof_startup_grace") or float(config.getini("toolproof_startup_grace"))
    env_lines = [*config.getini("toolproof_env"), *config.getoption("toolproof_env")]
    env = []
    for line in env_lines:
        key, sep, value = line.partition("=")
        if not sep or not key:
            raise pytest.UsageError(f"--toolproof-env expects KEY=VALUE, got {line!r}")
        env.append((key, value))
    return ConnectSettings(
        timeout=float(timeout),
        startup_grace=float(grace),
        cwd=config.getoption("toolproof_cwd") or config.getini("toolproof_cwd") or None,
        env=tuple(env),
        trace=default_trace() if config.getoption("trace_protocol") else None,
    )


@pytest.fixture(scope="session")
def toolproof_harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    """Start the fakes and connect to the candidate (once per worker)."""
    config = request.config
    settings = _settings(config)
    # In-process candidates share our environment: scrub provider credentials from it too.
    for key in set(os.environ) - set(scrubbed_env(os.environ)):
        del os.environ[key]
    # The runtime marks (stdio_server.RUNTIME_ENV), set before any candidate starts: in our own
    # environment for in-process candidates, in a cmd: candidate's (a --toolproof-env may override).
    os.environ.update(stdio_server.RUNTIME_ENV)
    settings = dataclasses.replace(settings, env=(*stdio_server.RUNTIME_ENV.items(), *settings.env))
    # Every wire is served: a request is judged against the wire the candidate claims, never refused.
    with ModelEndpoint(responses=True, anthropic=True) as model, McpServers() as mcp:
        guard, settings = egress.open_session(
            candidate_spec(config),
            settings,
            netns=bool(config.getoption("toolproof_netns", False)),
            urls=[model.base_url("egress"), mcp.url("egress", "alpha", "")],
        )
        try:
            candidate = Candidate(connect(candidate_spec(config), settings), timeout=settings.timeout)
            harness = Harness(candidate=candidate, model=model, mcp=mcp, egress=guard)
            try:
                yield harness
            finally:
                _record_leftover(harness, candidate.shutdown())
        finally:
            egress.close_session(guard)


def _record_leftover(harness: Harness, lines: list[str]) -> None:
    """Lines the candidate wrote after its last answer, read once stdin was closed at the end of the
    session: each is unsolicited (side adapter-protocol; `proto.response-order` for a JSON object,
    `proto.stdout-protocol-only` for anything else), charged to the test that ran last (its teardown
    is where the session ends)."""
    recorder = harness.recorder
    if recorder is None:
        return
    when = "after the last answer of the session, read once stdin was closed"
    for check in (RESPONSE_ORDER, STDOUT_PROTOCOL_ONLY):
        found = [line for line in lines if unsolicited_check(is_json_object(line)) == check]
        if not found:
            continue
        shown = "\n".join(unsolicited_message(line, when) for line in found[:5])
        more = f"\n(+{len(found) - 5} more lines)" if len(found) > 5 else ""
        recorder.add(
            load_catalog()
            .check(check)
            .result(status="fail", side="adapter-protocol", message=shown + more, test=recorder.test)
        )


def _record_invariants(
    scenario: Scenario, harness: Harness, recorder: Recorder, default_tokens: frozenset[str] | None = None
) -> None:
    """Judge every invariant over this test's model requests; one occurrence per invariant, under its ID.

    After an exploration phase (`default_tokens`: the builds of the default draws), a violation
    that the default draws' requests do not show is labelled `explore` (toolproof.plugin.draws).

    An invariant is `not_claimed` unless the candidate claims what its requirement needs
    (`invariants.unclaimed`: its wire, or a model wire and its capability; a runtime that does not
    claim toolsets.namespace promises nothing about duplicate function names), so a pass always
    means "judged and held".
    """
    tokens = scenario.all_tokens()
    requests = [request for token in tokens for request in harness.model.requests(token)]
    shows = scenario.shows
    # Without a request, only the invariants this test was built to show are recorded (undecided).
    judged = invariants.RECORDED if requests else tuple(c for c in invariants.RECORDED if c in shows)
    defaults = None
    if default_tokens is not None:
        defaults = [r for token in tokens if token in default_tokens for r in harness.model.requests(token)]
    catalog = load_catalog()
    for check_id in judged:
        spec = catalog.check(check_id)
        status: Status
        observation, drawn = None, None
        blocked_by = None
        deviation = None
        missing = invariants.unclaimed(spec.capability, scenario.declared)
        if missing:
            status, message = "not_claimed", invariants.unclaimed_message(missing)
        else:
            verdict = invariants.judge(check_id, requests, scenario.declared)
            message, observation = verdict.message(), verdict.observation()
            unshown = invariants.unshown(check_id, requests, shows.get(check_id, ()))
            if verdict.violations:
                status = "fail"
                if check_id in findings.INVARIANT_CLASSIFIERS:  # the ones a deviation may name
                    views = [request.view for request in requests]
                    deviation = findings.invariant_deviation(check_id, views, SERVED_NAMES)
                declared = scenario.declared
                if defaults is not None and not invariants.judge(check_id, defaults, declared).violations:
                    drawn = draws.EXPLORE  # only the exploration's requests violate it
            elif unshown:  # a pass on what other tools happened to show is not this test's pass
                status, blocked_by = "undecided", _blocker(recorder)
                message = _unshown_message(check_id, unshown, len(requests), blocked_by)
            elif verdict.judged:
                status = "pass"
            else:  # a pass resting on no judged request would be void
                status = "not_testable"
        recorder.add(
            spec.result(
                status=status,
                side="candidate",
                message=message,
                test=recorder.test,
                invariant=True,
                observation=observation,
                draws=drawn,
                blocked_by=blocked_by,
                deviation=deviation,
            )
        )


def _blocker(recorder: Recorder) -> str | None:
    """The precondition when a build or run this test needed failed (what kept the tools unshown)."""
    return PRECONDITION if PRECONDITION in recorder.failed_ids() else None


def _unshown_message(check_id: str, unshown: list[str], requests: int, blocked_by: str | None) -> str:
    """Why an invariant is undecided in a test built to show it tools that were never shown."""
    tools = ", ".join(f"[tp:{marker}]" for marker in unshown)
    them = "it" if len(unshown) == 1 else "them"
    offered = f"offered {them}" + (" with parameters" if check_id in invariants.SHOWN_WITH_PARAMETERS else "")
    why = f"{requests} request(s) judged" + (
        f"; a build or run the test needed did not succeed: {blocked_by} failed" if blocked_by else ""
    )
    return (
        f"not decided: this test is built to show {check_id} {tools}, and no model request of it "
        f"{offered} ({why}); a pass on other tools is not this observation"
    )


def _wire_transcript(item: pytest.Item, scenario: Scenario, harness: Harness) -> None:
    """Before the fakes forget this test: its golden transcript (--wire-record/--wire-compare) and
    its raw traffic for a --toolproof-dump (written only if the test fails, after its last report)."""
    # The node id's path part depends on the rootdir; module stem + test name does not.
    config, nodeid = item.config, f"{item.path.stem}::{item.name}"
    tokens = scenario.all_tokens()
    if dumps.wanted(config):
        item.stash[dumps.TRAFFIC] = transcripts.traffic(
            [r for t in tokens for r in harness.model.requests(t)],
            [r for t in tokens for r in harness.mcp.requests(t)],
            tokens,
        )
        item.stash[dumps.STDERR] = harness.candidate.connection.scope_stderr(item.nodeid)
    record_dir, compare_dir = config.getoption("wire_record"), config.getoption("wire_compare")
    if not record_dir and not compare_dir:
        return
    bodies = [(t, r.json) for t in tokens for r in harness.model.requests(t)]
    data = transcripts.transcript(bodies, tokens)
    if record_dir:
        transcripts.record(Path(record_dir), nodeid, data)
    if compare_dir:
        item.stash[DRIFT] = transcripts.compare(Path(compare_dir), nodeid, data)


def _record_vacuity(
    scenarios: list[Scenario], recorder: Recorder, declared_checks: frozenset[str], catalog: Catalog
) -> None:
    """Fail (side harness) every declared check that did not already fail, when a build observed nothing.

    A pass resting on no observation is void; a failure stands on its own evidence.
    """
    problems = [p for one in scenarios for p in one.vacuity()]
    if not problems:
        return
    for check_id in sorted(declared_checks - recorder.failed_ids()):
        spec = catalog.check(check_id)
        recorder.add(
            spec.result(
                status="fail",
                side="harness",
                message="\n".join(problems),
                test=recorder.test,
            )
        )


def mcp_transport(config: pytest.Config) -> str:
    """The run's MCP transport: --toolproof-mcp-transport, else ini toolproof_mcp_transport (http)."""
    value = config.getoption("toolproof_mcp_transport", None) or config.getini("toolproof_mcp_transport")
    if value not in TRANSPORT_CAPABILITIES:
        raise pytest.UsageError(
            f"toolproof_mcp_transport = {value!r}: one of {', '.join(TRANSPORT_CAPABILITIES)}"
        )
    return str(value)


@pytest.fixture
def tp(request: pytest.FixtureRequest, toolproof_harness: Harness) -> Iterator[Scenario]:
    """One build of the candidate, its fakes' records, and the check recorder."""
    item = request.node
    recorder = item.stash[RECORDER]
    declared_checks = item.stash.get(CHECKS, frozenset())
    if not declared_checks:
        raise HarnessError(f"{item.nodeid} uses tp but declares no @pytest.mark.checks(...)")
    harness = toolproof_harness
    harness.recorder = recorder
    harness.candidate.connection.begin_scope(item.nodeid)  # the stderr an error shows is this test's
    declared = harness.candidate.hello()  # validated as the candidate sent it
    if harness.candidate.hello_raw is not None:
        request.config.stash[HELLO] = {
            "hello": harness.candidate.hello_raw,
            "origin": harness.candidate.connection.origin,
        }
    declared = declare.apply(declared, item)  # --toolproof-declare / -variants (toolproof probe)
    catalog = load_catalog()
    transport = mcp_transport(request.config)
    needed = [str(marker.args[0]) for marker in item.iter_markers("capability")]
    needed += [c for c in (TRANSPORT_CAPABILITIES[transport],) if c is not None]
    for capability in needed:
        if not declared.claims(capability):
            for check_id in sorted(declared_checks):
                spec = catalog.check(check_id)
                recorder.add(
                    spec.result(
                        status="not_claimed",
                        side="candidate",
                        message=invariants.unclaimed_message([capability]),
                        test=item.nodeid,
                    )
                )
            pytest.skip(f"not claimed: {capability}")
    scenario = Scenario(
        candidate=harness.candidate,
        declared=declared,
        model=harness.model,
        mcp=harness.mcp,
        recorder=recorder,
        catalog=catalog,
        declared_checks=declared_checks,
        safety_floor=declare.safety_floor(item.config),
        mcp_transport=transport,
    )
    try:
        yield scenario
    finally:
        everyone = [scenario, *scenario.siblings]
        for one in everyone:
            if one.built:
                one.close_at_end()
        scenario.record_answer_times()
        _record_invariants(scenario, harness, recorder, draws.default_tokens(item))
        _record_vacuity(everyone, recorder, declared_checks, catalog)
        if harness.egress is not None:
            loopback.record(recorder, recorder.test, harness.egress.attempts())
        _wire_transcript(item, scenario, harness)
        for token in scenario.all_tokens():
            # Fail closed: no stdio server process a build of this test started outlives the test.
            processes.kill_survivors(harness.mcp.requests(token))
            harness.model.forget(token)
            harness.mcp.forget(token)
    if not recorder.recorded_ids():
        raise HarnessError(f"vacuous test: {item.nodeid} recorded no check")
    _record_precondition(everyone, recorder)
    unrecorded = sorted(declared_checks - recorder.recorded_ids())
    if unrecorded:
        # Every declared check of every test ends decided (pass, fail, undecided with its cause,
        # not claimed, not testable): a marker naming a check the test never decides lies, and
        # a control would "kill" nothing for it.
        raise HarnessError(f"{item.nodeid} declares {unrecorded} but never recorded a verdict for them")


def _record_precondition(scenarios: list[Scenario], recorder: Recorder) -> None:
    """One pass of the precondition for a test whose needed builds and runs all succeeded."""
    if not any(one.needed_steps for one in scenarios) or PRECONDITION in recorder.recorded_ids():
        return
    steps = sum(one.needed_steps for one in scenarios)
    recorder.add(
        load_catalog()
        .check(PRECONDITION)
        .result(
            status="pass",
            side="candidate",
            message=f"the {steps} build(s) and run(s) this test needed answered ok",
            test=recorder.test,
        )
    )
