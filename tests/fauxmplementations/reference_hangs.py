"""The reference runtime with a hang put back, for the hang self-tests (tests/plugin/test_hangs.py).

MODES maps each mode to what the candidate does. Every mode declares `idle_answer_seconds: 1`, so a
`--toolproof-timeout` of a few seconds is enough to show a hang.

In-process: `py:reference_hangs:<mode>`; over cmd: `python reference_hangs.py <mode>`.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any
from urllib.parse import urlsplit

from toolproof.candidates.reference import adapter, calls

MODES = {
    "after_tool_failure": "a tool call whose MCP server answered HTTP 500, or dropped the connection, never"
    " returns: the run waits forever, every request of the harness answered (a hang)",
    "with_request_in_flight": "a run sends the head of a model request and part of its body, then waits: the"
    " harness is still reading a request of it when the timeout comes (no verdict)",
    "in_build": "a build waits forever before contacting anything (a hang: the harness owed nothing)",
    "late_after_tool_failure": "a tool call whose MCP server failed returns only 2.5 s later: the run is"
    " answered, but long after the harness last owed anything (more than the declared 1 s)",
}
LATE = 2.5
Response = dict[str, Any]


async def forever() -> None:
    """Wait for an event nobody sets."""
    await asyncio.Event().wait()


def wait_after_tool_failure(seconds: float | None) -> None:
    """Make every failed MCP tool call wait `seconds` (None: forever) before it raises (in this process)."""
    call = calls.call_server_tool

    async def waits_after_failure(*args: Any, **kwargs: Any) -> Any:
        try:
            return await call(*args, **kwargs)
        except Exception:
            await (forever() if seconds is None else asyncio.sleep(seconds))
            raise

    calls.call_server_tool = waits_after_failure  # type: ignore[assignment]


class Hangs(adapter.Adapter):
    """The reference adapter, hanging where its mode says."""

    def __init__(self, mode: str) -> None:
        super().__init__("reference")
        self.mode = mode
        self.configs: dict[str, Any] = {}
        self.held: list[asyncio.StreamWriter] = []
        if mode == "after_tool_failure":
            wait_after_tool_failure(None)
        elif mode == "late_after_tool_failure":
            wait_after_tool_failure(LATE)

    async def hello(self) -> Response:
        answer = await super().hello()
        return {**answer, "options": {**answer["options"], "idle_answer_seconds": 1}}

    async def build(self, id: str, config: object) -> Response:
        if self.mode == "in_build":
            await forever()
        self.configs[id] = config
        return await super().build(id, config)

    async def run(self, id: str, input: str) -> Response:
        if self.mode == "with_request_in_flight" and id in self.configs:
            base = urlsplit(self.configs[id]["model"]["base_url"])
            _reader, writer = await asyncio.open_connection(base.hostname, base.port)
            head = f"POST {base.path}/chat/completions HTTP/1.1\r\nHost: {base.netloc}\r\n"
            writer.write(f"{head}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{".encode())
            await writer.drain()
            self.held.append(writer)  # the body stays unfinished: the harness goes on reading it
            await forever()
        return await super().run(id, input)


def after_tool_failure() -> Hangs:
    """In-process: the reference, hanging after a failed tool call."""
    return Hangs("after_tool_failure")


def with_request_in_flight() -> Hangs:
    """In-process: the reference, hanging with a model request half sent."""
    return Hangs("with_request_in_flight")


def in_build() -> Hangs:
    """In-process: the reference, hanging in every build."""
    return Hangs("in_build")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        raise SystemExit(f"usage: reference_hangs.py MODE (MODE: {', '.join(MODES)})")
    protocol = adapter.protect_stdout()
    adapter.serve(sys.stdin.buffer, protocol, Hangs(sys.argv[1]))
