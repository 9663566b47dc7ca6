"""Answers run with {"ok": true}: no output, no stop_reason."""

from _faux import Faux, Response


class BadShape(Faux):
    def run(self, request: Response) -> Response:
        return {"ok": True}


if __name__ == "__main__":
    BadShape().serve()
