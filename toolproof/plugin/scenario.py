"""The `tp` fixture's object: one build of the candidate, observed through the fakes.

A test reaches the candidate only through protocol v1 (`build`, `run`) and
observes it only through the harness's fakes (`model_requests`,
`mcp_requests`). It records verdicts only through `expect*`, which pin one
exact expected value and show a JSON-path diff when it differs.

A failed check does not stop the test: every check goes on to its own
observation, and the failed MUST checks are raised when the test (or one
Hypothesis example) ends. What does stop it is a step the rest needs: a
build or run the scenario expects to succeed that fails or times out fails
the precondition check `proto.valid-config-builds-and-runs` once, and the
checks not decided by then are `undecided`, blocked by it.

Two breaks of a step are findings of their own, whichever step it was (judged
or needed), and block the test the same way: a request left unanswered while
the fakes owed the candidate nothing for longer than its declared
`idle_answer_seconds` (`proto.answers-when-idle`, with the fakes' evidence:
`toolproof.judge.idle`), and a stdout line nobody asked for
(`proto.response-order`, side adapter-protocol).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, NoReturn

from hypothesis.control import cleanup, current_build_context, currently_in_test_context

from toolproof.connect.candidate import Candidate, Outcome
from toolproof.connect.conduct import Request, Transcript, record
from toolproof.connect.stdio import StdioConnection
from toolproof.errors import CandidateTimeout, HarnessError, Side, ToolproofError, UnsolicitedLine, side_of
from toolproof.fakes import McpRequest, McpServers, ModelEndpoint, ModelRequest, stdio_server
from toolproof.fakes.activity import Exchange, Timing
from toolproof.fakes.mcp_tools import SERVED_NAMES
from toolproof.fakes.model_server import DEFAULT_SAFETY_CAP
from toolproof.judge import idle, invariants
from toolproof.judge.catalog import Catalog
from toolproof.judge.checks import PRECONDITION, Blocked, CheckFailed, CheckResult, Recorder, Status
from toolproof.judge.declared import Declared
from toolproof.judge.findings import DEVIATIONS, Traffic, classify, offered_names, sent_values
from toolproof.judge.jsondiff import differences, render

ABSENT: Any = object()
#: `config(max_tool_turns=ROOMY)` (the default): room for the scenario's tool rounds, see `config`.
ROOMY: Any = object()
#: Tool rounds a scenario may script without setting its own cap (the suite's scripts stay below it).
ROOM = 8
DEFAULT_INPUT = "Please use the tools."
RESPONSE_ORDER = "proto.response-order"
STDOUT_PROTOCOL_ONLY = "proto.stdout-protocol-only"


def unsolicited_check(is_object: bool) -> str:
    """The check a stdout line nobody asked for breaks, whichever test's request met it (side
    adapter-protocol): a JSON object is a response nobody asked for, anything else a stray print."""
    return RESPONSE_ORDER if is_object else STDOUT_PROTOCOL_ONLY


class Scenario:
    """One build token: its CONFIG, its scripted model, its observations, its checks."""

    def __init__(
        self,
        *,
        candidate: Candidate,
        declared: Declared,
        model: ModelEndpoint,
        mcp: McpServers,
        recorder: Recorder,
        catalog: Catalog,
        declared_checks: frozenset[str],
        shows: dict[str, list[str]] | None = None,
        timings: list[tuple[str, Timing]] | None = None,
        safety_floor: int = DEFAULT_SAFETY_CAP,
        mcp_transport: str = "http",
    ) -> None:
        self.candidate = candidate
        self.declared = declared
        self.model = model
        self.mcp = mcp
        self.recorder = recorder
        self.catalog = catalog
        self.declared_checks = declared_checks
        self.token = secrets.token_hex(6)
        self.built = False
        self.siblings: list[Scenario] = []
        #: Invariant -> the tools (markers) this test is built to show it, shared with the siblings
        #: (`must_show`).
        self.shows: dict[str, list[str]] = {} if shows is None else shows
        self.ok_runs = 0  # runs answered ok: each must have reached the model (vacuity())
        self.needed_steps = 0  # builds and runs the test needed to succeed (the precondition)
        #: (build token, when it was sent and ended) of each build, run and close of the test (siblings
        #: share it).
        self.timings: list[tuple[str, Timing]] = [] if timings is None else timings
        self.safety_floor = safety_floor
        #: The transport `server()` gives an entry unless told otherwise (--toolproof-mcp-transport).
        self.mcp_transport = mcp_transport
        self.safety_cap = max(safety_floor, int(declared.option("default_max_tool_turns")) + 4)
        self.model.script(self.token, (), safety_cap=self.safety_cap)

    # -- CONFIG ------------------------------------------------------------
    def server(
        self,
        route: str,
        *,
        query: str = "",
        headers: Mapping[str, str] | None = None,
        dedup_key: Any = ABSENT,
        dedup_preferred: Any = ABSENT,
        transport: str | None = None,
        **stdio: Any,
    ) -> dict[str, Any]:
        """One `mcp_servers` entry serving a harness MCP route under this build's token.

        `transport` ("http", "sse" or "stdio"; default: the run's --toolproof-mcp-transport) picks
        the entry's `type`. An entry with `headers` stays on HTTP under a stdio run: headers are an
        HTTP thing, and the tests that send them judge what a server receives over HTTP. `stdio`
        keywords (report_env, env, cwd, extra_args, command_prefix) shape a stdio entry
        (`toolproof.fakes.stdio_server.config_entry`).
        """
        transport = transport or self.mcp_transport
        if transport == "stdio" and headers is not None:
            transport = "http"
        if stdio and transport != "stdio":
            raise HarnessError(f"server(): {sorted(stdio)} only shape a stdio entry, not {transport}")
        entry: dict[str, Any]
        if transport == "http":
            entry = {"type": "http", "url": self.mcp.url(self.token, route, query)}
        elif transport == "sse":
            entry = {"type": "sse", "url": self.mcp.sse_url(self.token, route, query)}
        elif transport == "stdio":
            entry = stdio_server.config_entry(self.mcp, self.token, route, query=query, **stdio)
        else:
            raise HarnessError(f"server(): unknown MCP transport {transport!r}")
        if headers is not None:
            entry["headers"] = dict(headers)
        if dedup_key is not ABSENT:
            entry["dedup_key"] = dedup_key
        if dedup_preferred is not ABSENT:
            entry["dedup_preferred"] = dedup_preferred
        return entry

    def config(
        self,
        servers: Mapping[str, dict[str, Any]],
        *,
        max_tool_turns: Any = ROOMY,
        instruction: str = "You are a conformance test agent. Use the tools you are given.",
    ) -> dict[str, Any]:
        """CONFIG as a user of the runtime would write it.

        `max_tool_turns`: a value to send; `ABSENT` to leave the key out (the declared default
        applies); `ROOMY` (the default): no test depends on the declared default cap unless it
        tests that default, so a candidate claiming loop.turn_cap whose default is below `ROOM`
        (1 is legitimate) gets `max_tool_turns: ROOM`, and the key is left out otherwise.
        """
        if max_tool_turns is ROOMY:
            capped = "loop.turn_cap" in self.declared.capabilities
            roomy = capped and int(self.declared.option("default_max_tool_turns")) < ROOM
            max_tool_turns = ROOM if roomy else ABSENT
        config: dict[str, Any] = {
            "model": {
                "base_url": self.model.wire_base_url(self.token, self.declared.wire),
                "api_key": "conformance-key",
                "name": "conformance-model",
            },
            "instruction": instruction,
            "mcp_servers": dict(servers),
        }
        if max_tool_turns is not ABSENT:
            config["max_tool_turns"] = max_tool_turns
        return config

    def script(self, *replies: Any) -> None:
        """Script the model's replies for this build, in order (before the first model request)."""
        if self.model.requests(self.token):
            raise HarnessError("script() must come before the candidate's first model request")
        self.model.forget(self.token)  # drop the empty tape registered at construction
        self.model.script(self.token, replies, safety_cap=self.safety_cap)

    # -- the candidate, through the protocol only ----------------------------
    def build(self, config: dict[str, Any], *, judged: bool = False) -> Outcome:
        """Send `build` with this token as the build id.

        Unless `judged` (a check of the test pins this outcome, e.g. an invalid CONFIG),
        the test needs the build to succeed: see `PRECONDITION`.
        """
        self.built = True
        return self._step("build", lambda: self.candidate.build(self.token, config), judged=judged)

    def run(
        self,
        user_input: str = DEFAULT_INPUT,
        *,
        judged: bool = False,
        may_fail_with: tuple[str, ...] = (),
        asks_model: bool = True,
    ) -> Outcome:
        """Send `run` for this build.

        Unless `judged` (a check of the test pins this outcome: a scripted error), the test
        needs the run to answer ok, or an error of a kind in `may_fail_with` (a declared
        `turn_cap_end: error`): see `PRECONDITION`. A run a harness safety net ended is
        left to the checks (they fail it on their own).

        `asks_model=False` (judged runs only): the declared behaviour is a run that answers ok
        without any model request (a cap that leaves none), and the test's check pins that the
        model endpoint saw none. Such a run is not counted by `vacuity()`, whose "answered ok with
        no model request" is then the observation itself, not its absence.
        """
        if not asks_model and not judged:
            raise HarnessError("run(asks_model=False) is for judged runs: a check must pin the silence")
        outcome = self._step(
            "run", lambda: self.candidate.run(self.token, user_input), judged=judged, allowed=may_fail_with
        )
        if asks_model:
            self.ok_runs += outcome.ok
        return outcome

    def _step(
        self, step: str, send: Callable[[], Outcome], *, judged: bool, allowed: tuple[str, ...] = ()
    ) -> Outcome:
        if not judged:
            self.needed_steps += 1
        try:
            outcome = self._sent(send, needed=not judged)
        except CandidateTimeout as exc:
            why = self._no_verdict(exc, needed=not judged)  # raises Blocked on a hang
            if judged:
                raise CandidateTimeout(
                    f"{exc}\nno verdict: {why}", op=exc.op, sent_at=exc.sent_at, at=exc.at
                ) from exc
            reason = f"{step} raised {type(exc).__name__}: {str(exc)[:1500]}\nno verdict: {why}"
            self._blocked(f"{step} timed out", reason, exc)
        except ToolproofError as exc:  # a crash, a broken protocol line
            if judged:
                raise
            reason = f"{step} raised {type(exc).__name__}: {str(exc)[:1500]}"
            self._blocked(f"{step} {'timed out' if exc.side == 'timeout' else 'broke off'}", reason, exc)
        if judged or outcome.ok or outcome.kind in allowed:
            return outcome
        if not (step == "run" and self.model.safety_nets(self.token)):
            said = f": {outcome.message[:1500]!r}" if outcome.message else ""
            self._blocked(
                f"{step} failed ({outcome.kind})",
                f"{step} answered ok false, kind {outcome.kind}{said}",
                None,
            )
        return outcome

    def _sent(self, send: Callable[[], Outcome], *, needed: bool) -> Outcome:
        """`send()`, keeping its timing; a stdout line nobody asked for fails `proto.response-order`
        (side adapter-protocol) and blocks the test: the process that wrote it was killed."""
        before = self.candidate.last
        try:
            return send()
        except UnsolicitedLine as exc:
            self._unsolicited(exc, needed=needed)
        finally:
            last = self.candidate.last
            if last is not None and last is not before and last.op in idle.JUDGED_OPS:
                self.timings.append((self.token, last))

    def _unsolicited(self, exc: UnsolicitedLine, *, needed: bool) -> NoReturn:
        """A stdout line nobody asked for: the check it breaks fails (side adapter-protocol), and the
        test stops, blocked by it: the process that wrote it was killed."""
        check = unsolicited_check(exc.is_object)
        self._charge(check, "adapter-protocol", str(exc), needed=needed)
        raise Blocked(check, f"build {self.token}: {exc}") from exc

    def _no_verdict(self, exc: CandidateTimeout, *, needed: bool) -> str:
        """A timed-out request: a hang when the fakes owed the candidate nothing for longer than its
        declared bound (recorded, then Blocked); otherwise why the timeout stays without a verdict."""
        timing = self.candidate.last
        if timing is None or timing.answered or timing.op not in idle.JUDGED_OPS:
            return "the request that timed out is not one the harness judges for hangs (hello)"
        bound = float(self.option(idle.OPTION))
        quiet = idle.quiet(timing, self._exchanges())
        if not idle.violates(quiet, bound):
            return idle.no_verdict(quiet, bound, self.candidate.timeout)
        message = f"{idle.evidence(quiet, self.token, bound)}\n{exc}"
        self._charge(idle.CHECK_ID, "candidate", message, needed=needed, invariant=True)
        raise Blocked(idle.CHECK_ID, message) from exc

    def _charge(
        self, check_id: str, side: Side, message: str, *, needed: bool, invariant: bool = False
    ) -> None:
        """Record `check_id` failed, once per test; a needed step's precondition is then undecided,
        blocked by it (one root cause, one failure)."""
        if check_id not in self.recorder.failed_ids():
            spec = self.catalog.check(check_id)
            self.recorder.add(
                spec.result(
                    status="fail",
                    side=side,
                    message=message,
                    test=self.recorder.test,
                    invariant=invariant,
                )
            )
        if needed and PRECONDITION not in {r.check for r in self.recorder.results}:
            self.recorder.add(
                self.catalog.check(PRECONDITION).result(
                    status="undecided",
                    side="candidate",
                    message=f"not decided: the step this test needed broke {check_id}",
                    test=self.recorder.test,
                    blocked_by=check_id,
                )
            )

    def _exchanges(self) -> list[Exchange]:
        """Every exchange the fakes hold (of every token): what the harness owed, and when."""
        return [*self.model.activity.exchanges(), *self.mcp.activity.exchanges()]

    def _blocked(self, blocked_by: str, reason: str, exc: ToolproofError | None) -> NoReturn:
        """Fail the precondition once, then stop the test: what the rest observes never happened."""
        spec = self.catalog.check(PRECONDITION)
        message = (
            f"build {self.token}: a step this test needs did not succeed, so its other checks are "
            f"undecided: {reason}"
        )
        self.recorder.add(
            spec.result(
                status="fail",
                side=side_of(exc) if exc is not None else spec.side,
                message=message,
                test=self.recorder.test,
            )
        )
        raise Blocked(blocked_by, message) from exc

    def close(self) -> Outcome:
        """Send `close` for this build (the fixture then does not close it again)."""
        self.built = False
        return self._step("close", lambda: self.candidate.close(self.token), judged=True)

    def close_at_end(self) -> None:
        """The fixture's close of a build the test left open. A hang or an unsolicited line is still
        recorded (the test's own finding); any other failure is the test's to show, on its own
        evidence, and is dropped here."""
        self.built = False
        try:
            self._step("close", lambda: self.candidate.close(self.token), judged=True)
        except (Blocked, ToolproofError):
            pass

    def record_answer_times(self) -> None:
        """This test's `proto.answers-when-idle` (once, for the whole test with its siblings): no build,
        run or close sat pending longer than the declared bound while the fakes owed nothing.

        Fails on one that did and was answered all the same; undecided when a request timed out
        without a verdict; nothing when the test sent none (there is nothing to judge).
        """
        if idle.CHECK_ID in {r.check for r in self.recorder.results} or not self.timings:
            return
        spec = self.catalog.check(idle.CHECK_ID)
        bound = float(self.option(idle.OPTION))
        exchanges = self._exchanges()
        answered = [(build, t) for build, t in self.timings if t.answered]
        status: Status
        blocked_by: str | None
        late = [(b, q) for b, t in answered if idle.violates(q := idle.quiet(t, exchanges), bound)]
        unanswered = [t for _build, t in self.timings if not t.answered]
        if late:
            status, blocked_by = "fail", None
            message = "\n".join(idle.evidence(q, build, bound) for build, q in late)
        elif unanswered:
            status, blocked_by = "undecided", f"{unanswered[0].op} timed out"
            message = (
                f"not decided: {unanswered[0].op} timed out, and the harness could not show it owed nothing"
                " for longer than the bound"
            )
        else:
            # No measured stretch in a pass: the same runtime gets the same report on every run.
            status, blocked_by = "pass", None
            message = (
                f"the {len(answered)} build, run and close request(s) of this test were answered, none"
                f" pending longer than {idle.OPTION} ({bound:g} s) at a stretch with nothing owed"
            )
        self.recorder.add(
            spec.result(
                status=status,
                side="candidate",
                message=message,
                test=self.recorder.test,
                invariant=True,
                blocked_by=blocked_by,
            )
        )

    @property
    def transport(self) -> str:
        """How the candidate is reached: "py" (in-process) or "cmd" (JSON Lines subprocess)."""
        return self.candidate.connection.transport

    def send_raw(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send any protocol line (adapter-conduct tests: unknown ops); the answer is schema-checked."""
        try:
            return self.candidate.raw(message)
        except UnsolicitedLine as exc:
            self._unsolicited(exc, needed=False)

    def converse(self, requests: list[Request]) -> Transcript:
        """Send `requests` to a fresh twin of a `cmd:` candidate; keep every stdout line it writes
        (a string is written as it is: a malformed line)."""
        connection = self.candidate.connection
        if not isinstance(connection, StdioConnection):
            raise HarnessError("converse() needs a cmd: candidate (check tp.transport first)")
        return record(connection, requests, timeout=self.candidate.timeout)

    def runtime_environment(self) -> dict[str, str]:
        """The environment the candidate runs in, as the harness gave it: a cmd: candidate's start
        environment, else this process's own (in-process candidates share it)."""
        connection = self.candidate.connection
        if isinstance(connection, StdioConnection):
            return connection.env
        return dict(os.environ)

    def process_generation(self) -> int:
        """Changes whenever the harness had to restart a cmd: candidate."""
        return self.candidate.connection.generation

    def sibling(self) -> Scenario:
        """A second, independent build in the same test (its own token)."""
        other = Scenario(
            candidate=self.candidate,
            declared=self.declared,
            model=self.model,
            mcp=self.mcp,
            recorder=self.recorder,
            catalog=self.catalog,
            declared_checks=self.declared_checks,
            shows=self.shows,
            timings=self.timings,
            safety_floor=self.safety_floor,
        )
        self.siblings.append(other)
        return other

    def must_show(self, check_id: str, *markers: str) -> None:
        """This test is built to show the whole-suite invariant `check_id` these tools (`<route>/<tool>`).

        Its occurrence of the invariant in this test is then `undecided`, never `pass`, unless a
        model request of the test (any build) offered every one of them (for the `parameters`
        invariants, with `parameters`: `invariants.shown_markers`): what the invariant passed on
        then was what other tools happened to show, not the observation this test exists for (a
        build that failed or hung, a tool never offered). A violation still fails it.
        """
        if check_id not in invariants.INVARIANTS:
            raise HarnessError(f"must_show names {check_id!r}, which is no invariant judging request bodies")
        if not markers:
            raise HarnessError(f"must_show({check_id!r}) names no tool")
        shown = self.shows.setdefault(check_id, [])
        shown += [marker for marker in markers if marker not in shown]

    def option(self, name: str) -> Any:
        """The candidate's declared value (or the contract default) of an option."""
        return self.declared.option(name)

    # -- observations (the fakes' records) ------------------------------------
    def model_requests(self) -> list[ModelRequest]:
        """Every request the model endpoint received for this build, in order."""
        return self.model.requests(self.token)

    def model_bodies(self) -> list[Any]:
        """The bodies of the model requests that were answered 200, as their chat view
        (`ModelRequest.view`: the parsed JSON body itself on the chat wire)."""
        return [r.view for r in self.model_requests() if r.status == 200]

    def mcp_requests(self, route: str | None = None) -> list[McpRequest]:
        """Every HTTP request the MCP servers received for this build (optionally one route)."""
        return [r for r in self.mcp.requests(self.token) if route is None or r.route == route]

    def tool_calls_received(self, route: str | None = None) -> list[McpRequest]:
        """The `tools/call` JSON-RPC requests the MCP servers received."""
        return [r for r in self.mcp_requests(route) if r.rpc_method == "tools/call"]

    def safety_nets(self) -> list[str]:
        """The harness's safety nets that fired for this build or its siblings ([] when none did).

        The model endpoint's safety cap and its "script exhausted" answer end what a
        runtime did not end itself (e.g. an unbounded retry loop): see `expect_outcome`.
        """
        return [
            f"build {token}: {note}" for token in self.all_tokens() for note in self.model.safety_nets(token)
        ]

    def vacuity(self) -> list[str]:
        """Why this build's observations cannot back a verdict ([] when they can).

        A run answered ok with no model request under this build's token, or a
        model request offering tools of the harness's MCP routes (`[tp:` markers)
        while those routes saw no request under this token: what the checks
        compared then came from somewhere else, or from nothing.
        """
        problems = []
        requests = self.model_requests()
        if self.ok_runs and not requests:
            problems.append(f"{self.ok_runs} run(s) answered ok, but the model endpoint saw no request")
        offered = any("[tp:" in str(r.json.get("tools")) for r in requests if isinstance(r.json, Mapping))
        if offered and not self.mcp_requests():
            problems.append("the model was offered harness MCP tools, but the MCP servers saw no request")
        return [f"vacuous scenario (build {self.token}): {p}" for p in problems]

    def all_tokens(self) -> list[str]:
        """This build's token and its siblings'."""
        return [self.token, *(t for s in self.siblings for t in s.all_tokens())]

    # -- verdicts ---------------------------------------------------------------
    def _result(self, check_id: str, ok: bool, message: str, observation: Any) -> CheckResult:
        if check_id not in self.declared_checks:
            raise HarnessError(
                f"check {check_id!r} recorded but not declared in this test's @pytest.mark.checks(...)"
            )
        spec = self.catalog.check(check_id)
        return spec.result(
            status="pass" if ok else "fail",
            side=spec.side,
            message=message,
            test=self.recorder.test,
            observation=observation if not ok else None,
        )

    def _decide(
        self, check_id: str, ok: bool, message: str, observation: Any, deviation: str | None = None
    ) -> None:
        result = replace(self._result(check_id, ok, message, observation), deviation=deviation)
        self.recorder.add(result)
        if not ok and result.level == "MUST" and currently_in_test_context():
            self._raise_at_example_end()

    def _raise_at_example_end(self) -> None:
        """In a Hypothesis example: raise its failed MUST checks when it ends, so Hypothesis
        reports (and CI prints) that example; the example's other checks are decided first."""
        context = current_build_context()
        if getattr(context, "toolproof_armed", False):
            return
        context.toolproof_armed = True  # type: ignore[attr-defined]
        since = len(self.recorder.results) - 1
        recorder = self.recorder

        def raise_failures() -> None:
            raise CheckFailed(recorder.must_failures(since))

        cleanup(raise_failures)

    def expect(self, check_id: str, observed: Any, expected: Any, *, what: str) -> None:
        """Pin `observed` to exactly `expected` (types included); record the check."""
        diff = differences(observed, expected)
        deviation = self._deviation(check_id, observed, expected) if diff else None
        if deviation is not None:  # the deviation's name first: what the differences below show
            diff.insert(0, f"deviation: {DEVIATIONS[deviation].text}")
        message = f"{what}: as expected" if not diff else f"{what}:\n  " + "\n  ".join(diff)
        if diff:
            message += f"\n  observed: {render(observed)[:4000]}"
        self._decide(check_id, not diff, message, observed, deviation)

    def expect_needed(self, check_id: str, observed: Any, expected: Any, *, what: str) -> None:
        """`expect`, for an observation the test's later checks stand on: when it fails, they are
        left undecided, blocked by `check_id` (one root cause, one failure), never judged on what
        did not happen."""
        self.expect(check_id, observed, expected, what=what)
        if differences(observed, expected):
            raise Blocked(check_id, f"{check_id} failed ({what}): the checks after it stand on it")

    def _deviation(self, check_id: str, observed: Any, expected: Any) -> str | None:
        """The one named deviation that explains this failed expectation (judge/findings.py), or None.

        Never a verdict: it only names the failure and merges it with others in the report."""
        if check_id not in self.declared_checks:
            return None  # _result refuses it
        sent = [
            call.get("function", {}).get("arguments")
            for token in self.all_tokens()
            for request in self.model.requests(token)
            for call in (request.message or {}).get("tool_calls") or []
            if isinstance(call, dict)
        ]
        received = [
            request.rpc_params.get("arguments", {})
            for token in self.all_tokens()
            for request in self.mcp.requests(token)
            if request.rpc_method == "tools/call" and isinstance(request.rpc_params, Mapping)
        ]
        views = [request.view for token in self.all_tokens() for request in self.model.requests(token)]
        traffic = Traffic(
            sent=sent_values(sent),
            received=tuple(received),
            texts=tuple(raw for raw in sent if isinstance(raw, str)),
            offered=offered_names(views),
            served=SERVED_NAMES,
        )
        return classify(self.catalog.check(check_id).group, check_id, observed, expected, traffic)

    def expect_outcome(
        self, check_id: str, outcome: Outcome, expected: Mapping[str, Any], *, what: str
    ) -> None:
        """Pin the listed fields of a build/run outcome (`ok`, `kind`, `stop_reason`, `output`).

        An outcome is how the runtime ended its run. When a harness safety net fired
        for this test's builds (the model endpoint's safety cap, or its script ran out),
        the harness ended the run, not the runtime: the check fails whatever the outcome
        reads, on the check's own side (`candidate`: a conformant runtime stops before
        the scripts and the cap run out; one that does not, e.g. an unbounded retry
        loop or a never-read turn cap, is to blame).
        """
        observed = {key: getattr(outcome, key) for key in expected}
        if outcome.message is not None:
            what = f"{what} (candidate said: {outcome.message[:300]!r})"
        nets = self.safety_nets()
        if nets:
            diff = differences(observed, dict(expected))
            message = (
                f"{what}: a harness safety net fired, so the harness, not the runtime, ended this run "
                "(such a run cannot pass a check about how the runtime ended it):\n  "
                + "\n  ".join(nets)
                + "".join(f"\n  {line}" for line in diff)
                + f"\n  observed: {render(observed)[:4000]}"
            )
            self._decide(check_id, False, message, {"outcome": observed, "safety nets fired": nets})
        else:
            self.expect(check_id, observed, dict(expected), what=what)
        if expected.get("ok") is True and not outcome.ok:
            # The build or run this check needed to succeed failed: what the test observes next
            # (requests, offered tools) never happened, so its later checks are undecided.
            raise Blocked(check_id, f"{check_id} failed: the build or run it pins ended ok false")

    def not_testable(self, check_id: str, reason: str) -> None:
        """Record that this check cannot be decided for this candidate, and why."""
        spec = self.catalog.check(check_id)
        self.recorder.add(
            spec.result(
                status="not_testable",
                side="candidate",
                message=reason,
                test=self.recorder.test,
            )
        )


def offered_tools(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The `tools` array of one request body ([] when absent)."""
    tools = body.get("tools")
    return list(tools) if isinstance(tools, list) else []


def wire_name_for(body: Mapping[str, Any], marker: str) -> list[str]:
    """Wire names of offered tools whose description carries `[tp:<marker>]` (0, 1 or more)."""
    tag = f"[tp:{marker}]"
    return [
        str(t.get("function", {}).get("name"))
        for t in offered_tools(body)
        if tag in str(t.get("function", {}).get("description") or "")
    ]


def _pointer(document: Any, pointer: str) -> Any:
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(document, list) and part.isdigit():
            document = document[int(part)]
        elif isinstance(document, dict):
            document = document[part]
        else:
            raise KeyError(pointer)
    return document


def tool_text(message: Mapping[str, Any], declared: Declared, pointer: str | None = None) -> Any:
    """The tool's text inside one role "tool" message, read at the declared place.

    Reads exactly where `tool_content` and `tool_result_pointer` say (or at
    `pointer` when given: `""` for the whole text of the message, or the declared
    `error_result_pointer` of an isError result); anything else comes back as a
    `<...>` description, so a comparison fails and shows it.
    """
    content = message.get("content", "<no content key>")
    if declared.option("tool_content") == "text_parts":
        if not (
            isinstance(content, list)
            and all(isinstance(p, dict) and p.get("type") == "text" for p in content)
        ):
            return f"<content is not text parts: {render(content)}>"
        content = "".join(str(p.get("text")) for p in content)
    if not isinstance(content, str):
        return f"<content is not a string: {render(content)}>"
    if pointer is None:
        pointer = declared.option("tool_result_pointer")
    if not pointer:
        return content
    try:
        return _pointer(json.loads(content), pointer)
    except (ValueError, KeyError, IndexError):
        return f"<nothing at {pointer} in {content!r}>"


def answers_in_call_order(body: Mapping[str, Any], declared: Declared) -> list[Any]:
    """Tool texts answering the last assistant message's calls, in the order of the calls.

    Matched by tool_call_id, so a runtime that answers in completion order (allowed:
    order is only a SHOULD) reads the same; an unanswered call reads `<no answer to ID>`.
    """
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    calling = [m for m in messages if m.get("role") == "assistant" and m.get("tool_calls")]
    if not calling:
        return []
    ids = [c.get("id") for c in calling[-1]["tool_calls"] if isinstance(c, dict)]
    answers = {m.get("tool_call_id"): tool_text(m, declared) for m in messages if m.get("role") == "tool"}
    return [answers.get(call_id, f"<no answer to {call_id}>") for call_id in ids]


def tool_texts(body: Mapping[str, Any], declared: Declared) -> list[Any]:
    """The tool texts of every role "tool" message of one request body, in order."""
    messages = body.get("messages") or []
    return [tool_text(m, declared) for m in messages if isinstance(m, dict) and m.get("role") == "tool"]
