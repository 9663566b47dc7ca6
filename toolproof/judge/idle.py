"""`tp-proto-answer-when-idle`: a request is answered once the harness owes the candidate nothing.

A candidate that never returns from a run after an MCP server answered HTTP 500
or dropped the connection leaves nothing in flight on the harness's side: every
model and MCP request it made was answered, and it simply does not answer the
protocol request. That is its own defect, not a timeout the harness cannot
explain. The candidate declares how long it may go on after the harness's last
answer (`idle_answer_seconds`); the harness shows from the fakes' exchanges
(`toolproof.fakes.activity`) how long it owed nothing:

- the request's *idle start* is the later of when it was sent and the last
  moment anything happened on the fakes before it ended (a request arriving, or
  the fakes' last answer);
- at its end (its answer, or the timeout), nothing may be in flight, or it was
  never idle;
- idle for longer than the bound: the check fails, with that evidence; a timeout
  without it (a request still in flight, or idle too briefly to tell) stays
  "timeout, no verdict".

Every exchange of every token counts: a candidate's request under another
build's token is the harness's to answer too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolproof.connect.candidate import Timing
from toolproof.fakes.activity import Exchange
from toolproof.fakes.records import NO_RESPONSE

CHECK_ID = "proto.answers-when-idle"
OPTION = "idle_answer_seconds"
JUDGED_OPS = ("build", "run", "close")
"""hello is left out: a fresh process's first answer includes its start-up, which has a grace of its own."""


@dataclass(frozen=True)
class Quiet:
    """What the fakes owed over one protocol request, up to its end."""

    timing: Timing
    #: When the harness last owed the candidate anything (or the request was sent, if later).
    idle_since: float
    #: Exchanges the fakes still owed something on when the request ended.
    in_flight: tuple[Exchange, ...]
    #: The exchange the fakes ended last before the request ended (None: none did while it ran).
    last: Exchange | None
    #: Exchanges that arrived after the request was sent and ended before it did.
    answered: int

    @property
    def idle(self) -> float:
        """Seconds the harness owed nothing before the request ended (0 with anything in flight)."""
        return 0.0 if self.in_flight else max(self.timing.ended_at - self.idle_since, 0.0)


def quiet(timing: Timing, exchanges: Sequence[Exchange]) -> Quiet:
    """The fakes over `timing`'s request, read from their exchanges (of every token)."""
    end = timing.ended_at
    events = [e.arrived_at for e in exchanges if e.arrived_at <= end]
    ended = [e for e in exchanges if e.ended_at is not None and e.ended_at <= end]
    events += [e.ended_at for e in ended if e.ended_at is not None]
    last = max(ended, key=lambda e: e.ended_at or 0.0, default=None)
    if last is not None and last.ended_at is not None and last.ended_at < timing.sent_at:
        last = None  # ended before this request: nothing of its own was answered
    return Quiet(
        timing=timing,
        idle_since=max([timing.sent_at, *events]),
        in_flight=tuple(e for e in exchanges if e.in_flight_at(end)),
        last=last,
        answered=sum(1 for e in ended if e.arrived_at >= timing.sent_at),
    )


def violates(q: Quiet, bound: float) -> bool:
    """Whether the request ended (answered or not) after more than `bound` s of the harness owing nothing."""
    return q.idle > bound


def evidence(q: Quiet, build: str, bound: float) -> str:
    """Why `q` breaks the rule: the request, how long the fakes owed nothing, and their last answer."""
    t = q.timing
    waited = t.ended_at - t.sent_at
    ended = f"was answered after {waited:.1f} s" if t.answered else f"got no answer in {waited:.1f} s"
    subject = f"build {build}" if t.op == "build" else f"{t.op} of build {build}"
    lines = [
        f"{subject} {ended}; the harness had owed nothing for its last {q.idle:.1f} s"
        f" ({OPTION}: {bound:g} s)",
        f"  every model and MCP request was answered, none in flight; answered while it ran: {q.answered}",
    ]
    if q.last is not None:
        lines.append(f"  the last: {_answered(q.last, t.sent_at)}")
    return "\n".join(lines)


def no_verdict(q: Quiet, bound: float, timeout: float) -> str:
    """Why a timeout stays "no verdict": what was in flight, or how briefly the fakes were idle."""
    if q.in_flight:
        shown = "; ".join(_in_flight(e, q.timing.sent_at) for e in q.in_flight[:3])
        more = f" (+{len(q.in_flight) - 3} more)" if len(q.in_flight) > 3 else ""
        return f"the harness still owed the candidate an answer when it gave up: {shown}{more}"
    if bound >= timeout:
        return (
            f"the declared {OPTION} ({bound:g} s) is not below the request timeout ({timeout:g} s), so the"
            " harness cannot show a hang"
        )
    return f"the harness had owed nothing for only {q.idle:.1f} s ({OPTION}: {bound:g} s)"


def _answered(exchange: Exchange, sent_at: float) -> str:
    status = f"HTTP {exchange.status}" if exchange.status != NO_RESPONSE else "no HTTP response"
    at = (exchange.ended_at or sent_at) - sent_at
    return f"{exchange.describe()}: {exchange.ending}, {status}, at {at:+.1f} s"


def _in_flight(exchange: Exchange, sent_at: float) -> str:
    return f"{exchange.describe()}, in flight since {exchange.arrived_at - sent_at:+.1f} s"
