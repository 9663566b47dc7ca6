"""Exits with code 3 on build, after writing a message to stderr."""

import sys

from _faux import Faux, Response


class CrashOnBuild(Faux):
    def build(self, request: Response) -> Response:
        sys.stderr.write("crash_on_build: cannot build, giving up\n")
        sys.stderr.flush()
        sys.exit(3)


if __name__ == "__main__":
    CrashOnBuild().serve()
