"""Adapter conduct (CONTRACT §3): what a fresh candidate answered, line by line.

The worker's shared connection restarts the candidate on any breach of the
protocol, so a test never sees a stray stdout line there. Conduct checks judge
the stream itself, so they exist only on `cmd:`: `record` starts a private twin
of the candidate (the same command, environment and cwd), sends the requests
one at a time as PROTOCOL.md "Order" says, reads after each one until a JSON
object arrives, then closes stdin (the end of the session) and keeps what
stdout carries until EOF, so lines written out of turn are caught too. A
request given as a string is written as it is, for a line no JSON encoder
would write (a malformed request).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolproof.connect.protocol import END_OF_SESSION_GRACE, OPS, encode, response_problem
from toolproof.connect.stdio import StdioConnection
from toolproof.errors import CandidateTimeout, ProtocolViolation


@dataclass(frozen=True)
class Transcript:
    """The requests sent, and every line the candidate wrote back, in order."""

    requests: tuple[Request, ...]
    #: stdout as written, line by line (line ends removed).
    lines: tuple[str, ...]

    def objects(self) -> list[dict[str, Any]]:
        """The lines that are JSON objects (the only lines a response can be)."""
        return [value for value in map(_decode, self.lines) if isinstance(value, dict)]

    def stray(self) -> list[str]:
        """The lines that are not JSON objects."""
        return [line for line in self.lines if not isinstance(_decode(line), dict)]

    def schema_problems(self) -> list[str]:
        """One entry per response that breaks its command's `#response` schema.

        Pairs the i-th JSON object with the i-th request: call only when their
        counts are equal (proto.response-order judges the pairing itself).
        """
        problems = []
        for index, (request, response) in enumerate(zip(self.requests, self.objects(), strict=True)):
            op = _op(request)
            problem = response_problem(op if op in OPS else "close", response)
            if problem is not None:
                problems.append(f"response {index + 1} (to {op}): {problem}")
        return problems


_NOT_JSON = object()
#: A request: a message to encode, or a line to write as it is (no line end in it).
Request = dict[str, Any] | str


def _op(request: Request) -> str:
    """The request's op; a raw line has none (its answer is an error: the `close` schema's shape)."""
    return str(request["op"]) if isinstance(request, dict) else "malformed line"


def _decode(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return _NOT_JSON


def record(connection: StdioConnection, requests: list[Request], *, timeout: float) -> Transcript:
    """Send `requests` to a fresh twin of `connection`'s candidate; keep every line it writes.

    A candidate that exits or stays silent before answering every request
    raises (ProtocolViolation, CandidateTimeout) with the lines read so far:
    an incomplete transcript never backs a verdict.
    """
    twin = connection.twin()
    lines: list[str] = []
    try:
        for index, request in enumerate(requests):
            if isinstance(request, str) and "\n" in request:
                raise ValueError(f"a raw request line cannot hold a line end: {request!r}")
            twin.send_line(encode(request) if isinstance(request, dict) else request)
            wait = timeout + (twin.startup_grace if index == 0 else 0.0)
            while True:
                try:
                    line = twin.read_line(wait)
                except CandidateTimeout as exc:
                    raise CandidateTimeout(
                        f"request {index + 1} ({_op(request)}) got no JSON object line: {exc}"
                        f"\nstdout so far: {lines!r}"
                    ) from None
                if line is None:
                    raise ProtocolViolation(
                        f"stdout ended before request {index + 1} ({_op(request)}) was answered"
                        f"\nstdout so far: {lines!r}\n{twin.diagnostics()[-2000:]}"
                    )
                lines.append(line)
                if isinstance(_decode(line), dict):
                    break
        lines.extend(twin.end_input(END_OF_SESSION_GRACE))
    finally:
        twin.close()
    return Transcript(requests=tuple(requests), lines=tuple(lines))
