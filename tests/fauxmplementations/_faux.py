"""Shared loop of the fauxmplementations: a protocol v1 adapter that misbehaves only where a script says."""

from __future__ import annotations

import json
import sys
from typing import Any

Response = dict[str, Any]

HELLO: Response = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "faux", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


def internal(message: str) -> Response:
    """The error answer for an unknown op or id."""
    return {"ok": False, "error": {"kind": "internal", "message": message}}


class Faux:
    """Well behaved: valid hello, ok to build/run/close, run output "faux", internal for unknown op/id."""

    def __init__(self) -> None:
        self.built: set[str] = set()

    def hello(self, request: Response) -> Response:
        return json.loads(json.dumps(HELLO))  # type: ignore[no-any-return]

    def build(self, request: Response) -> Response:
        self.built.add(request["id"])
        return {"ok": True}

    def run(self, request: Response) -> Response:
        if request["id"] not in self.built:
            return internal(f"unknown id: {request['id']}")
        return {"ok": True, "output": "faux", "stop_reason": "completed"}

    def close(self, request: Response) -> Response:
        if request["id"] not in self.built:
            return internal(f"unknown id: {request['id']}")
        self.built.discard(request["id"])
        return {"ok": True}

    def answer(self, request: Response) -> Response:
        handler = {"hello": self.hello, "build": self.build, "run": self.run, "close": self.close}.get(
            request.get("op")  # type: ignore[arg-type]
        )
        if handler is None:
            return internal(f"unknown op: {request.get('op')!r}")
        return handler(request)

    def write(self, text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def serve(self) -> None:
        """Answer one line per request line until EOF."""
        while True:
            line = sys.stdin.readline()
            if not line:
                return
            self.write(json.dumps(self.answer(json.loads(line))))
