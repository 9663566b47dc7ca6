"""A working adapter that misbehaves once, on one run request, in the way its MODE names.

Usage: hostile.py MODE STATE_DIR

Like Bowtie's "envsonschema", one script obeys the instruction it is started
with (here argv: a `cmd:` candidate's environment is scrubbed, its arguments
are not). Every process of it shares STATE_DIR:

- the first run request any of its processes receives is the one it misbehaves
  on (``STATE_DIR/misbehaved`` is created exclusively); every other request is
  answered as `_faux.Faux` answers it;
- every process of it, and every process it starts, is appended to
  ``STATE_DIR/pids`` as ``pid starttime role`` (starttime: field 22 of
  /proc/PID/stat; role: adapter, child or grandchild) before the answer that
  follows is written: the self-tests check that each one is gone after the run.

MODES maps each mode to what the misbehaving run does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _faux import Faux, Response

MODES = {
    "crash": "writes half of its answer, then exits with code 3 (mid-line)",
    "garbage": "writes a line that is not JSON instead of its answer",
    "huge": "writes a 40 MiB line instead of its answer",
    "nan": "answers with NaN where the output string belongs (NaN is no JSON value)",
    "no-newline": "writes its answer without the newline, then hangs",
    "hang": "never answers",
    "stderr": "writes 64 MiB to stderr, then answers",
    "bytewise": "writes its answer one byte at a time, flushing each",
    "group-child": "starts a child in its own process group that sleeps for an hour, then answers",
    "deep": "answers with an output nested 200,000 arrays deep",
    "bad-utf8": "answers with a byte that is not UTF-8 inside a JSON string",
    "duplicate": "writes its answer twice",
    "setsid-grandchild": "starts a grandchild in a new session (setsid), asleep for an hour, then answers",
}
HOUR = 3600.0
RUN_TAIL = b', "stop_reason": "completed"}\n'
# The grandchild's parent prints its pid and exits at once: the grandchild is orphaned before the
# answer, holding the candidate's stderr (its stdout goes there: a pipe to us would never reach EOF).
_INTERMEDIATE = (
    "import subprocess, sys\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'],\n"
    "                         start_new_session=True, stdout=sys.stderr)\n"
    "print(child.pid)\n"
)


def starttime(pid: int) -> int:
    """Field 22 of /proc/PID/stat: with the pid, a process's identity (0 where there is no /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return 0
    return int(stat[stat.rindex(b")") + 2 :].split()[19])


class Hostile(Faux):
    """`Faux`, except on the first run request of all its processes."""

    def __init__(self, mode: str, state: Path) -> None:
        super().__init__()
        self.mode = mode
        self.state = state
        self.record(os.getpid(), "adapter")

    def record(self, pid: int, role: str) -> None:
        with open(self.state / "pids", "a", encoding="ascii") as pids:
            pids.write(f"{pid} {starttime(pid)} {role}\n")

    def first_run(self) -> bool:
        try:
            os.close(os.open(self.state / "misbehaved", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True

    def raw(self, data: bytes) -> None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()

    def serve(self) -> None:
        """Answer one line per request line until EOF; misbehave on the first run of all processes."""
        while True:
            line = sys.stdin.readline()
            if not line:
                return
            request = json.loads(line)
            answer = self.answer(request)
            if request.get("op") == "run" and self.first_run():
                self.misbehave(answer)
            else:
                self.write(json.dumps(answer))

    def misbehave(self, answer: Response) -> None:
        good = json.dumps(answer).encode("utf-8") + b"\n"
        mode = self.mode
        if mode == "crash":
            sys.stderr.write("hostile: crashing mid-run\n")
            sys.stderr.flush()
            self.raw(good[: len(good) // 2])
            os._exit(3)
        elif mode == "garbage":
            self.raw(b"hostile: this is no response\n")
        elif mode == "huge":
            self.raw(b'{"ok": true, "output": "' + b"x" * (40 * 1024 * 1024) + b'"' + RUN_TAIL)
        elif mode == "nan":
            self.raw(b'{"ok": true, "output": NaN' + RUN_TAIL)
        elif mode == "no-newline":
            self.raw(good.rstrip(b"\n"))
            time.sleep(HOUR)
        elif mode == "hang":
            time.sleep(HOUR)
        elif mode == "stderr":
            block = b"e" * 1023 + b"\n"
            for _ in range(64 * 1024):
                sys.stderr.buffer.write(block)
            sys.stderr.buffer.flush()
            self.raw(good)
        elif mode == "bytewise":
            for byte in good:
                self.raw(bytes([byte]))
                time.sleep(0.001)
        elif mode == "group-child":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            self.record(child.pid, "child")
            self.raw(good)
        elif mode == "deep":
            depth = 200_000
            self.raw(b'{"ok": true, "output": ' + b"[" * depth + b"]" * depth + RUN_TAIL)
        elif mode == "bad-utf8":
            self.raw(b'{"ok": true, "output": "fa\xffux"' + RUN_TAIL)
        elif mode == "duplicate":
            self.raw(good + good)
        elif mode == "setsid-grandchild":
            intermediate = subprocess.run(
                [sys.executable, "-c", _INTERMEDIATE], stdout=subprocess.PIPE, check=True, timeout=30
            )
            self.record(int(intermediate.stdout), "grandchild")
            self.raw(good)
        else:
            raise SystemExit(f"hostile: unknown mode {mode!r}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        raise SystemExit(f"usage: hostile.py MODE STATE_DIR (MODE: {', '.join(MODES)})")
    Hostile(sys.argv[1], Path(sys.argv[2])).serve()
