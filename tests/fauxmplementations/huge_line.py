"""Answers hello with a single line over 16 MiB."""

from _faux import Faux, Response

PADDING = 16 * 1024 * 1024 + 1


class HugeLine(Faux):
    def hello(self, request: Response) -> Response:
        response = super().hello(request)
        response["implementation"]["homepage"] = "x" * PADDING
        return response


if __name__ == "__main__":
    HugeLine().serve()
