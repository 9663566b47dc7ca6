"""Declares a capability protocol v1 does not know ("toolsets.telepathy")."""

from _faux import Faux, Response


class BadHello(Faux):
    def hello(self, request: Response) -> Response:
        response = super().hello(request)
        response["capabilities"] = ["openai.chat", "toolsets.telepathy"]
        return response


if __name__ == "__main__":
    BadHello().serve()
