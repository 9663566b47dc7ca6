"""Writes a stderr line naming each build, run and close it answers; crashes in the first run of a live build.

Two tests in a row show whose stderr a failure carries: the first test's lines (its build, its run
after close) must never appear with the second test's crash.
"""

from __future__ import annotations

import sys

from _faux import Faux, Response


class StderrPerTest(Faux):
    def note(self, text: str) -> None:
        sys.stderr.write(f"faux stderr: {text}\n")
        sys.stderr.flush()

    def build(self, request: Response) -> Response:
        self.note(f"build {request['id']}")
        return super().build(request)

    def run(self, request: Response) -> Response:
        if request["id"] not in self.built:
            self.note(f"run {request['id']} (unknown)")
            return super().run(request)
        self.note(f"run {request['id']}, crashing")
        raise SystemExit(3)

    def close(self, request: Response) -> Response:
        known = "" if request["id"] in self.built else " (unknown)"
        self.note(f"close {request['id']}{known}")
        return super().close(request)


if __name__ == "__main__":
    StderrPerTest().serve()
