"""`tp-proto-answer-when-idle`: a request is answered once the harness owes the candidate nothing.

A candidate that never returns from a run after an MCP server answered HTTP 500
or dropped the connection leaves nothing in flight on the harness's side: every
model and MCP request it made was answered, and it simply does not answer the
protocol request. That is its own defect, not a timeout the harness cannot
explain. The candidate declares how long it may go on with nothing owed
(`idle_answer_seconds`); the harness reads from the fakes' exchanges
(`toolproof.fakes.activity`) when it owed nothing while the request was
pending:

- a *quiet stretch* is a time, between the request being sent and its end
  (its answer, or the harness giving up), in which no exchange of the fakes
  was in flight: everything the candidate had asked was answered;
- the longest quiet stretch is longer than the bound: the check fails, with
  that evidence (a hang is the stretch that runs to the timeout; a runtime
  that sat idle that long and then went on breaks its declaration too);
- otherwise a timeout stays "timeout, no verdict", and says why (a request
  still in flight, or quiet too briefly).

Every exchange of every token counts: a candidate's request under another
build's token is the harness's to answer too.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from toolproof.fakes.activity import Exchange, Timing
from toolproof.fakes.records import NO_RESPONSE

CHECK_ID = "proto.answers-when-idle"
OPTION = "idle_answer_seconds"
JUDGED_OPS = ("build", "run", "close")
"""hello is left out: a fresh process's first answer includes its start-up, which has a grace of its own."""


@dataclass(frozen=True)
class Quiet:
    """What the fakes owed over one protocol request: its longest quiet stretch, and what ended it."""

    timing: Timing
    #: When the longest quiet stretch began (the request sent, or the answer that emptied the fakes).
    idle_since: float
    #: How long it lasted: up to the next arrival, or to the request's end.
    idle: float
    #: Exchanges the fakes still owed something on when the request ended.
    in_flight: tuple[Exchange, ...]
    #: The exchange whose end began the stretch (None: it began when the request was sent).
    last: Exchange | None
    #: Exchanges that arrived after the request was sent and ended before it did.
    answered: int


def quiet(timing: Timing, exchanges: Sequence[Exchange]) -> Quiet:
    """The fakes over `timing`'s request, read from their exchanges (of every token)."""
    start, end = timing.sent_at, timing.ended_at
    moments = {start, end}
    for e in exchanges:
        moments.update(t for t in (e.arrived_at, e.ended_at) if t is not None and start < t < end)
    points = sorted(moments)
    since, longest = start, 0.0
    for a, b in itertools.pairwise(points):
        middle = (a + b) / 2
        if b - a > longest and not any(e.in_flight_at(middle) for e in exchanges):
            since, longest = a, b - a
    ended_then = [e for e in exchanges if e.ended_at == since and since > start]
    return Quiet(
        timing=timing,
        idle_since=since,
        idle=longest,
        in_flight=tuple(e for e in exchanges if e.in_flight_at(end)),
        last=ended_then[-1] if ended_then else None,
        answered=sum(
            1 for e in exchanges if e.arrived_at >= start and e.ended_at is not None and e.ended_at <= end
        ),
    )


def violates(q: Quiet, bound: float) -> bool:
    """Whether the harness owed nothing for more than `bound` s at a stretch while the request was pending."""
    return q.idle > bound


def evidence(q: Quiet, build: str, bound: float) -> str:
    """Why `q` breaks the rule: the request, how long the fakes owed nothing, and the answer before."""
    t = q.timing
    waited = t.ended_at - t.sent_at
    subject = f"build {build}" if t.op == "build" else f"{t.op} of build {build}"
    ended = f"was answered after {waited:.1f} s" if t.answered else f"got no answer in {waited:.1f} s"
    lines = [
        f"{subject} {ended}; the harness owed nothing for {q.idle:.1f} s of it, from"
        f" {q.idle_since - t.sent_at:+.1f} s ({OPTION}: {bound:g} s)",
        "  every model and MCP request was answered then, none in flight;"
        f" answered while it ran: {q.answered}",
    ]
    if q.last is not None:
        lines.append(f"  the answer before: {_answered(q.last, t.sent_at)}")
    return "\n".join(lines)


def no_verdict(q: Quiet, bound: float, timeout: float) -> str:
    """Why a timeout stays "no verdict": what was in flight, or how briefly the fakes were quiet."""
    if bound >= timeout:
        return (
            f"the declared {OPTION} ({bound:g} s) is not below the request timeout ({timeout:g} s), so the"
            " harness cannot show a hang"
        )
    if q.in_flight:
        shown = "; ".join(_in_flight(e, q.timing.sent_at) for e in q.in_flight[:3])
        more = f" (+{len(q.in_flight) - 3} more)" if len(q.in_flight) > 3 else ""
        return f"the harness still owed the candidate an answer when it gave up: {shown}{more}"
    return f"the harness owed nothing for at most {q.idle:.1f} s at a stretch ({OPTION}: {bound:g} s)"


def _answered(exchange: Exchange, sent_at: float) -> str:
    status = f"HTTP {exchange.status}" if exchange.status != NO_RESPONSE else "no HTTP response"
    at = (exchange.ended_at or sent_at) - sent_at
    return f"{exchange.describe()}: {exchange.ending}, {status}, at {at:+.1f} s"


def _in_flight(exchange: Exchange, sent_at: float) -> str:
    return f"{exchange.describe()}, in flight since {exchange.arrived_at - sent_at:+.1f} s"
