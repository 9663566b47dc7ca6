"""`proto.egress-loopback-only`: one test's attempts to leave loopback, judged.

The egress guard and the namespace observer (`toolproof.connect.egress`) only
observe: they refuse each attempt and log it. This turns what one test's
attempts were, and whether anything was in place to see them, into the check's
result: a fail naming each destination, a pass, or not testable with the reason
(neither the guard nor the observer runs in the candidate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import Recorder

CHECK_ID = "proto.egress-loopback-only"
Verdict = Literal["pass", "fail", "not_testable"]


class Attempts(Protocol):
    """What one test left in the egress log (`toolproof.connect.egress.Attempts` is one)."""

    @property
    def refused(self) -> Sequence[Mapping[str, Any]]: ...
    @property
    def observed(self) -> bool: ...
    @property
    def netns(self) -> bool: ...
    @property
    def unobserved(self) -> str | None: ...


def verdict(
    refused: Sequence[Mapping[str, Any]], observed: bool, netns: bool, unobserved: str | None = None
) -> tuple[Verdict, str]:
    """(status, message) of `proto.egress-loopback-only` for one test's refused attempts.

    `observed`: the guard or the namespace observer was in place; `unobserved`: why the
    namespace observer could not be set up, when it could not.
    """
    if refused:
        seen: list[str] = []
        for event in refused:
            pid = f", pid {event['pid']}" if "pid" in event else ""  # the namespace observer sees no pid
            line = f"{event.get('kind')} {event.get('destination')} ({event.get('api')}{pid})"
            if line not in seen:
                seen.append(line)
        return "fail", "refused attempts to leave loopback: " + "; ".join(seen[:20])
    if not observed:
        where = (
            "its traffic was confined to loopback by --toolproof-netns, but attempts cannot be recorded: "
            + (unobserved or "the namespace observer never started")
            if netns
            else "run it with --toolproof-netns (Linux) to record its attempts whatever its language"
        )
        return "not_testable", f"the egress guard is not loaded in this candidate (not Python?): {where}"
    return "pass", "no connection or DNS lookup outside loopback"


def record(recorder: Recorder, test: str, attempts: Attempts) -> None:
    """Add this test's `proto.egress-loopback-only` result to `recorder` (next to the invariants)."""
    status, message = verdict(attempts.refused, attempts.observed, attempts.netns, attempts.unobserved)
    spec = load_catalog().check(CHECK_ID)
    recorder.add(spec.result(status=status, side="candidate", message=message, test=test, invariant=True))
