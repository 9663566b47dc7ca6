"""A candidate, seen only through protocol v1: hello, build, run, close."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from toolproof import PROTOCOL_VERSION
from toolproof.connect.connection import Connection
from toolproof.connect.protocol import END_OF_SESSION_GRACE, validate_request, validate_response
from toolproof.errors import CandidateTimeout, ProtocolViolation, ToolproofError
from toolproof.fakes.activity import Timing
from toolproof.judge.declared import Declared


@dataclass(frozen=True)
class Outcome:
    """A build/run/close response, flattened for assertions."""

    ok: bool
    kind: str | None
    message: str | None
    output: str | None
    stop_reason: str | None
    raw: dict[str, Any]

    @classmethod
    def from_response(cls, response: dict[str, Any]) -> Outcome:
        """Flatten a schema-valid response."""
        error = response.get("error") or {}
        return cls(
            ok=bool(response["ok"]),
            kind=error.get("kind"),
            message=error.get("message"),
            output=response.get("output"),
            stop_reason=response.get("stop_reason"),
            raw=response,
        )


class Candidate:
    """Talks protocol v1 over a Connection; validates every message both ways."""

    def __init__(self, connection: Connection, *, timeout: float) -> None:
        self.connection = connection
        self.timeout = timeout
        self._declared: Declared | None = None
        self._hello_generation = -1
        self.hello_raw: dict[str, Any] | None = None
        #: The last request sent: when, and whether it was answered (toolproof.judge.idle reads it).
        self.last: Timing | None = None

    def _send(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        validate_request(message)
        op, started = str(message.get("op")), time.monotonic()
        try:
            response, line = self.connection.request(message, timeout or self.timeout)
        except CandidateTimeout as exc:
            self.last = Timing(op, exc.sent_at or started, exc.at or time.monotonic(), answered=False)
            raise
        self.last = Timing(op, started, time.monotonic(), answered=True)
        try:
            return validate_response(str(message.get("op")), response, line)
        except ProtocolViolation:
            self.connection.discard()
            raise

    def _ensure_hello(self) -> Declared:
        # A restarted cmd: process has forgotten everything: greet it again.
        if self._declared is None or self._hello_generation != self.connection.generation:
            response = self._send({"op": "hello", "protocol": PROTOCOL_VERSION})
            if not response["ok"]:
                raise ProtocolViolation(f"hello was refused: {response['error']}")
            declared = Declared.from_hello(response)
            if self._declared is not None and declared != self._declared:
                raise ProtocolViolation("a restarted candidate declared different capabilities/options")
            self._declared, self.hello_raw = declared, response
            self._hello_generation = self.connection.generation
        return self._declared

    def hello(self) -> Declared:
        """The candidate's declaration (cached per process generation)."""
        return self._ensure_hello()

    def build(self, build_id: str, config: dict[str, Any]) -> Outcome:
        """Build an agent from CONFIG."""
        self._ensure_hello()
        return Outcome.from_response(self._send({"op": "build", "id": build_id, "config": config}))

    def run(self, build_id: str, user_input: str) -> Outcome:
        """Run one user input through a built agent."""
        self._ensure_hello()
        return Outcome.from_response(self._send({"op": "run", "id": build_id, "input": user_input}))

    def close(self, build_id: str) -> Outcome:
        """Close a built agent."""
        self._ensure_hello()
        return Outcome.from_response(self._send({"op": "close", "id": build_id}))

    def raw(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send any message (smoke tests of garbage handling)."""
        self._ensure_hello()
        return self._send(message)

    def shutdown(self) -> list[str]:
        """End the session (used at its end), swallowing errors; the stdout lines the candidate wrote
        after its last answer, read until EOF (each one unsolicited: `tp-proto-response-order`)."""
        try:
            return self.connection.end_input(END_OF_SESSION_GRACE)
        except (ToolproofError, OSError):
            return []
