"""One exception per lifecycle step, each attributed to a side.

The side says who is to blame, so a report never passes off a harness bug or
a broken adapter as a verdict about the runtime:

- ``candidate``: the runtime did something the contract forbids (a check failed).
- ``adapter-protocol``: the adapter broke protocol v1 (bad line, crash, wrong shape).
- ``timeout``: the candidate did not answer in time.
- ``harness``: toolproof itself failed.
- ``environment``: the machine could not provide what the run needs.
"""

from __future__ import annotations

from typing import Literal

Side = Literal["candidate", "adapter-protocol", "timeout", "harness", "environment"]
SIDES: tuple[Side, ...] = ("candidate", "adapter-protocol", "timeout", "harness", "environment")


class ToolproofError(Exception):
    """Base of every toolproof error; ``side`` attributes it."""

    side: Side = "harness"


class UsageError(ToolproofError):
    """A bad --candidate spec, option value or baseline file (exit code 2)."""

    side: Side = "environment"


class CandidateStartError(ToolproofError):
    """The candidate process or factory could not be started."""

    side: Side = "adapter-protocol"


class ProtocolViolation(ToolproofError):
    """The adapter broke protocol v1: a malformed or out-of-schema line, stray stdout, a crash."""

    side: Side = "adapter-protocol"


class CandidateTimeout(ToolproofError):
    """The candidate did not answer within its timeout.

    `op` is the request it left unanswered, `sent_at` when that request was written and `at` when the
    harness gave up (both `time.monotonic()`; None where unknown): the moments the fakes' records are
    read against (`toolproof.judge.idle`), taken before the candidate is killed.
    """

    side: Side = "timeout"

    def __init__(
        self, message: str, *, op: str | None = None, sent_at: float | None = None, at: float | None = None
    ) -> None:
        super().__init__(message)
        self.op, self.sent_at, self.at = op, sent_at, at


class SessionAborted(ToolproofError):
    """An in-process candidate timed out earlier: it cannot be interrupted, so the session stops."""

    side: Side = "timeout"


class HarnessError(ToolproofError):
    """toolproof itself failed (a bug in the harness, never a verdict)."""

    side: Side = "harness"


class EnvironmentProblem(ToolproofError):
    """The machine could not provide something the run needs (a port, a namespace)."""

    side: Side = "environment"


def side_of(exc: BaseException) -> Side:
    """Attribute an exception raised while exercising a candidate."""
    if isinstance(exc, ToolproofError):
        return exc.side
    return "harness"


class UnsolicitedLine(ProtocolViolation):
    """stdout carried a line no request asked for (protocol v1: exactly one line per request).

    Found with an answer (both in one write), before a request was written, or after the last
    answer when stdin was closed at the end of the session: whatever the timing, the adapter broke
    protocol v1. `is_object`: the line is a JSON object, a response nobody asked for
    (`tp-proto-response-order`); anything else is a stray print (`tp-proto-stdout-protocol-only`).
    """

    def __init__(self, message: str, *, is_object: bool) -> None:
        super().__init__(message)
        self.is_object = is_object
