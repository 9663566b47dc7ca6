"""Writes an unsolicited JSON event line after each close answer (valid JSON, not asked for)."""

from _faux import Faux, Response


class EventAfterClose(Faux):
    def close(self, request: Response) -> Response:
        answer = super().close(request)
        self.write('{"ok": true}')  # the harness must see it even when nothing follows the close
        return answer


if __name__ == "__main__":
    EventAfterClose().serve()
