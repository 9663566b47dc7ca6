"""A miniature candidate that tries to leave loopback on every `run` (the egress guard's self-test).

In-process: `py:egress_miniature:factory` (or `:polite` for the control that
stays on loopback). Over cmd: `python egress_miniature.py [--polite]`.

It tries a TCP connection to 203.0.113.7:443 (TEST-NET-3, reserved for
documentation) and a DNS lookup of example.invalid (a reserved TLD), and only
when toolproof's guard is in place (its marker on the socket functions): the
guard refuses both before anything is sent, and an unguarded process never
tries at all.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

MARKER = "__toolproof_egress_guard__"
Response = dict[str, Any]
HELLO: Response = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "egress-miniature", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


def leave_loopback() -> list[str]:
    """Try to reach outside loopback; what happened to each attempt."""
    if not (getattr(socket.create_connection, MARKER, False) and getattr(socket.getaddrinfo, MARKER, False)):
        return ["unguarded: nothing attempted"]
    outcomes = []
    try:
        socket.create_connection(("203.0.113.7", 443), timeout=1).close()
        outcomes.append("connected")
    except OSError as exc:
        outcomes.append(type(exc).__name__)
    try:
        socket.getaddrinfo("example.invalid", 443)
        outcomes.append("resolved")
    except OSError as exc:
        outcomes.append(type(exc).__name__)
    return outcomes


class Miniature:
    """Well behaved on the protocol; `polite=False` tries to leave loopback in every run."""

    def __init__(self, polite: bool = False) -> None:
        self.polite = polite
        self.built: set[str] = set()

    def hello(self) -> Response:
        return dict(HELLO)

    def build(self, id: str, config: dict[str, Any]) -> Response:
        self.built.add(id)
        return {"ok": True}

    def run(self, id: str, input: str) -> Response:
        outcomes = [] if self.polite else leave_loopback()
        if id not in self.built:
            return {"ok": False, "error": {"kind": "internal", "message": f"unknown id {id}: {outcomes}"}}
        return {"ok": True, "output": " ".join(outcomes), "stop_reason": "completed"}

    def close(self, id: str) -> Response:
        if id not in self.built:
            return {"ok": False, "error": {"kind": "internal", "message": f"unknown id {id}"}}
        self.built.discard(id)
        return {"ok": True}


def factory() -> Miniature:
    """In-process: tries to leave loopback."""
    return Miniature()


def polite() -> Miniature:
    """In-process control: never leaves loopback."""
    return Miniature(polite=True)


def serve(miniature: Miniature) -> None:
    """JSON Lines on stdin/stdout until EOF."""
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if op == "hello":
            response = miniature.hello()
        elif op == "build":
            response = miniature.build(request["id"], request["config"])
        elif op == "run":
            response = miniature.run(request["id"], request["input"])
        elif op == "close":
            response = miniature.close(request["id"])
        else:
            response = {"ok": False, "error": {"kind": "internal", "message": f"unknown op {op!r}"}}
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(Miniature(polite="--polite" in sys.argv[1:]))
