"""Never answers run: it waits forever on a child process (so its process group has two members)."""

import os
import subprocess
import sys

from _faux import Faux, Response


class HangOnRun(Faux):
    def run(self, request: Response) -> Response:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        sys.stderr.write(f"hang_on_run: pid={os.getpid()} pgid={os.getpgid(0)} child={child.pid}\n")
        sys.stderr.flush()
        child.wait()
        raise SystemExit("unreachable: the child sleeps for an hour")


if __name__ == "__main__":
    HangOnRun().serve()
