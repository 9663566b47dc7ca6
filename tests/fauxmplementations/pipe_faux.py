"""A stdio adapter in the reference's shape that misbehaves once, on its first run request, as MODE says.

`serve(stdin, stdout, candidate)` is the JSON Lines loop, as in candidates/reference/adapter.py; each
mode has a factory of the same name (dashes as underscores). Over `cmd:` it is
`python pipe_faux.py MODE` (the loop on the real stdin and stdout); over `pipe:` it is
`pipe:pipe_faux:<factory>` (the loop on a harness thread). The self-tests compare the two.

HANG blocks until RELEASE is set (a thread cannot be killed; a test releases it when it is done).
"""

from __future__ import annotations

import json
import sys
import threading
from functools import partial
from typing import IO, Any

MODES = {
    "good": "answers every request as it should",
    "garbage": "writes a line that is not JSON instead of its answer",
    "duplicate": "writes its answer twice",
    "nan": "answers with NaN where the output string belongs",
    "bad-utf8": "answers with a byte that is not UTF-8 inside a JSON string",
    "deep": "answers with an output nested 200,000 arrays deep",
    "huge": "writes a 17 MiB line instead of its answer",
    "crash": "writes half of its answer, then raises (the process or the thread ends)",
    "hang": "never answers",
    "no-newline": "writes its answer without the newline, then hangs",
}
RELEASE = threading.Event()
HANG = 600.0
GOOD_RUN = b'{"ok": true, "output": "faux", "stop_reason": "completed"}\n'
HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "pipe-faux", "version": "0", "language": "python"},
    "capabilities": ["openai.chat"],
}


class Faux:
    """Answers hello, build, run and close; misbehaves on its first run request by its mode."""

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.built: set[str] = set()
        self.misbehaved = False

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op, id = request.get("op"), request.get("id")
        if op == "hello":
            return dict(HELLO)
        if op == "build":
            self.built.add(str(id))
            return {"ok": True}
        if op in ("run", "close") and id not in self.built:
            return {"ok": False, "error": {"kind": "internal", "message": f"unknown id: {id}"}}
        if op == "close":
            self.built.discard(str(id))
            return {"ok": True}
        if op == "run":
            return {"ok": True, "output": "faux", "stop_reason": "completed"}
        return {"ok": False, "error": {"kind": "internal", "message": f"unknown op: {op!r}"}}

    def write(self, out: IO[bytes], request: dict[str, Any]) -> None:
        """Write the answer to `request` (or misbehave instead, the first time a run comes)."""
        if request.get("op") != "run" or self.misbehaved or self.mode == "good":
            out.write(json.dumps(self.answer(request)).encode("utf-8") + b"\n")
            out.flush()
            return
        self.misbehaved = True
        mode = self.mode
        if mode == "garbage":
            out.write(b"faux: this is no response\n")
        elif mode == "duplicate":
            out.write(GOOD_RUN + GOOD_RUN)
        elif mode == "nan":
            out.write(b'{"ok": true, "output": NaN, "stop_reason": "completed"}\n')
        elif mode == "bad-utf8":
            out.write(b'{"ok": true, "output": "fa\xffux", "stop_reason": "completed"}\n')
        elif mode == "deep":
            out.write(b'{"ok": true, "output": ' + b"[" * 200_000 + b"]" * 200_000 + b"}\n")
        elif mode == "huge":
            out.write(b'{"ok": true, "output": "' + b"x" * (17 * 1024 * 1024) + b'"}\n')
        elif mode == "crash":
            out.write(GOOD_RUN[: len(GOOD_RUN) // 2])
            out.flush()
            raise RuntimeError("faux: crashing mid-run")
        elif mode in ("hang", "no-newline"):
            if mode == "no-newline":
                out.write(GOOD_RUN.rstrip(b"\n"))
                out.flush()
            RELEASE.wait(HANG)
            return
        out.flush()


def serve(stdin: IO[bytes], out: IO[bytes], candidate: Faux) -> None:
    """One answer per request line, until EOF."""
    for line in iter(stdin.readline, b""):
        candidate.write(out, json.loads(line))


good = partial(Faux, "good")
garbage = partial(Faux, "garbage")
duplicate = partial(Faux, "duplicate")
nan = partial(Faux, "nan")
bad_utf8 = partial(Faux, "bad-utf8")
deep = partial(Faux, "deep")
huge = partial(Faux, "huge")
crash = partial(Faux, "crash")
hang = partial(Faux, "hang")
no_newline = partial(Faux, "no-newline")

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer, Faux(sys.argv[1]))
