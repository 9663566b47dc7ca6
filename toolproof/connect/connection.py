"""The one interface every way of reaching a candidate implements."""

from __future__ import annotations

from typing import Any, Protocol


class Connection(Protocol):
    """Send one protocol request and get its (not yet schema-checked) response."""

    #: Increments whenever the underlying candidate was restarted (state lost).
    generation: int
    #: Where the candidate came from: a module file (py:) or the command line (cmd:).
    origin: str
    #: "py" (in-process) or "cmd" (JSON Lines subprocess).
    transport: str

    def request(self, message: dict[str, Any], timeout: float) -> tuple[Any, str]:
        """Send `message`; return (decoded response, raw line) or raise a ToolproofError."""
        ...

    def close(self) -> None:
        """Release the candidate (kill the process, stop the loop)."""
        ...

    def end_input(self, grace: float) -> list[str]:
        """End the session as `close` does, returning what the candidate wrote after its last answer
        (stdout lines up to EOF, at most `grace` s; none in-process): each one unsolicited."""
        ...

    def begin_scope(self, scope: str) -> None:
        """Requests from now on belong to `scope` (a test): see `scope_stderr`."""
        ...

    def scope_stderr(self, scope: str | None) -> str | None:
        """What the candidate wrote to stderr during the requests of `scope`; None when it has no
        stderr of its own (in-process)."""
        ...

    def discard(self) -> None:
        """Forget a candidate whose stream can no longer be trusted (restart on next use)."""
        ...

    def diagnostics(self) -> str:
        """Free text for reports: the tail of the candidate's stderr, or similar."""
        ...
