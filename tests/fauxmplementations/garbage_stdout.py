"""Prints a non-JSON line on stdout before its hello answer."""

from _faux import Faux, Response


class GarbageStdout(Faux):
    def hello(self, request: Response) -> Response:
        self.write("garbage_stdout: starting up")
        return super().hello(request)


if __name__ == "__main__":
    GarbageStdout().serve()
