"""Writes one line nobody asked for, once in its life, at the position its MODE names.

Usage: twice.py MODE. MODES maps each mode to what it does. An answer written twice goes out in one
write (one `os.write` of both lines): the harness must catch it whatever the timing.
"""

from __future__ import annotations

import json
import os
import sys
import time

from _faux import Faux

MODES = {
    "build": "writes its first build answer twice, both lines in one write",
    "run": "writes its first run answer twice, both lines in one write",
    "close": "writes its first close answer twice, both lines in one write",
    "late": "after its first close answer, writes an extra line 0.3 s later, in a write of its own",
    "end": "writes an extra line when stdin closes, just before it exits",
    "stray-run": "writes a log line that is no JSON with its first run answer, both in one write",
    "stray-end": "writes a log line that is no JSON when stdin closes, just before it exits",
}
EXTRA = '{"ok": true}'
STRAY = "twice: done"


class Twice(Faux):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.done = False

    def raw(self, text: str) -> None:
        os.write(1, text.encode("utf-8"))

    def serve(self) -> None:
        while True:
            line = sys.stdin.readline()
            if not line:
                if self.mode in ("end", "stray-end"):
                    self.raw((EXTRA if self.mode == "end" else STRAY) + "\n")
                return
            request = json.loads(line)
            answer = json.dumps(self.answer(request)) + "\n"
            op = {"late": "close", "stray-run": "run"}.get(self.mode, self.mode)
            once = request.get("op") == op and not self.done
            self.done = self.done or once
            if once and self.mode == "late":
                self.raw(answer)
                time.sleep(0.3)
                self.raw(EXTRA + "\n")
            elif once and self.mode == "stray-run":
                self.raw(answer + STRAY + "\n")
            elif once:
                self.raw(answer + answer)
            else:
                self.raw(answer)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        raise SystemExit(f"usage: twice.py MODE (MODE: {', '.join(MODES)})")
    Twice(sys.argv[1]).serve()
