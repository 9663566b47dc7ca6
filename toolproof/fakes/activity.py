"""When the fakes owed a candidate something: each HTTP exchange's arrival and end, in time.

The records (`toolproof.fakes.records`) say what arrived and what was answered;
this says when, so that the harness can show that it owed the candidate
nothing while the candidate kept a protocol request unanswered
(`toolproof.judge.idle`, `tp-proto-answer-when-idle`).

An exchange is in flight from its arrival (taken before its body is read, so a
request still sending its body counts) until the fake has sent all it ever
will on it:

- `answered`: the response's last byte was handed to the server;
- `dropped`: the fake closed the connection on purpose (a `crash_close` tool, a
  stream cut mid-body);
- `client left`: the client went away before the fake answered;
- `stream open`: an MCP `GET` (the server's stream for messages of its own,
  which the harness's servers never send) ends, for the harness, when its
  response starts: nothing more is owed on it, however long the client keeps
  it open. The legacy SSE transport answers each POST 202 and sends the
  JSON-RPC answer on its GET stream: that answer is an exchange of its own
  (method GET, the stream's path), from the POST until the answer left
  (`toolproof.fakes.mcp_sse`);
- `ended`: the handler returned otherwise (a server stopping mid-stream, an
  error the server answers itself).

Times are `time.monotonic()`, the clock the connections stamp requests with.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Final

from toolproof.fakes.records import NO_RESPONSE

ANSWERED: Final = "answered"
DROPPED: Final = "dropped"
CLIENT_LEFT: Final = "client left"
STREAM_OPEN: Final = "stream open"
ENDED: Final = "ended"


@dataclass(frozen=True)
class Timing:
    """When one protocol request to the candidate was sent and when it ended (`time.monotonic()`):
    its answer was read, or the harness gave up waiting (`answered` false).

    The connection stamps it (`toolproof.connect.candidate`); it lives here, beside the fakes'
    exchanges, because `toolproof.judge.idle` reads the two on one clock."""

    op: str
    sent_at: float
    ended_at: float
    answered: bool


@dataclass
class Exchange:
    """One HTTP request to a fake, from its arrival to the end of what the fake owed on it."""

    fake: str  # "model" or "MCP"
    token: str
    method: str
    path: str
    arrived_at: float
    #: What was asked, once the body is read: the JSON-RPC method (and tool) of an MCP request.
    what: str = ""
    status: int = NO_RESPONSE
    ended_at: float | None = None
    ending: str = ""

    def in_flight_at(self, moment: float) -> bool:
        """Whether the fake still owed something on it at `moment`."""
        return self.arrived_at <= moment and (self.ended_at is None or self.ended_at > moment)

    def describe(self) -> str:
        """`MCP POST /<token>/mcp/alpha (tools/call crash_close)`, for messages."""
        what = f" ({self.what})" if self.what else ""
        return f"{self.fake} {self.method} {self.path}{what}"


class Activity:
    """The exchanges of one fake, per token, in arrival order (thread-safe)."""

    def __init__(self, fake: str) -> None:
        """`fake`: how messages name this fake ("model", "MCP")."""
        self._fake = fake
        self._lock = threading.Lock()
        self._by_token: dict[str, list[Exchange]] = {}

    def arrive(self, token: str, method: str, path: str) -> Exchange:
        """A request began to arrive (before its body is read)."""
        exchange = Exchange(self._fake, token, method, path, time.monotonic())
        with self._lock:
            self._by_token.setdefault(token, []).append(exchange)
        return exchange

    def describe(self, exchange: Exchange, what: str) -> None:
        """Say what the request asked, once its body is read."""
        with self._lock:
            exchange.what = what

    def status(self, exchange: Exchange, status: int) -> None:
        """The status line was sent."""
        with self._lock:
            exchange.status = status

    def end(self, exchange: Exchange, ending: str) -> None:
        """The fake owes nothing more on `exchange`; the first end counts."""
        with self._lock:
            if exchange.ended_at is None:
                exchange.ended_at, exchange.ending = time.monotonic(), ending

    def exchanges(self) -> list[Exchange]:
        """A snapshot (copies) of every exchange held, of every token, in arrival order."""
        with self._lock:
            held = [dataclasses.replace(e) for one in self._by_token.values() for e in one]
        return sorted(held, key=lambda e: e.arrived_at)

    def forget(self, token: str) -> None:
        """Drop the ended exchanges of `token` (one still in flight is kept until the next forget)."""
        with self._lock:
            kept = [e for e in self._by_token.pop(token, []) if e.ended_at is None]
            if kept:
                self._by_token[token] = kept
