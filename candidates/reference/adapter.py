"""Protocol v1 adapter of the reference runtime (contracts/PROTOCOL.md).

In-process: `factory(profile)` (or `reference()`, `reference_continuation()`,
`reference_prefix()`) returns an object whose async methods answer hello,
build, run and close. Subprocess: `python -m candidates.reference.adapter
[--profile NAME]` speaks JSON Lines on stdin/stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from . import __version__
from .errors import find_runtime_error
from .profiles import PROFILES, Profile, declared_options, get_profile, model_capability

if TYPE_CHECKING:
    from .runtime import Agent

PROTOCOL_VERSION = 1
MAX_ID_LENGTH = 200
MAX_LINE_BYTES = 16 * 1024 * 1024
IMPLEMENTATION = {"name": "toolproof-reference", "version": __version__, "language": "python"}
CAPABILITIES = [
    "toolsets.namespace",
    "toolsets.dedup_key",
    "loop.turn_cap",
    "loop.continuation",
    "mcp.stdio",
    "mcp.sse",
]
"""Every profile's capabilities but its model wire (`model_capability`: openai.chat, openai.responses
or anthropic.messages)."""

Response = dict[str, Any]


class BadRequest(Exception):
    """A request the adapter cannot act on (reported as kind internal)."""


def error_response(kind: str, message: str) -> Response:
    """`{"ok": false, "error": {...}}`."""
    return {"ok": False, "error": {"kind": kind, "message": message}}


def exception_response(exc: BaseException) -> Response:
    """The error response for `exc`: its protocol kind, else internal with its text."""
    found = find_runtime_error(exc)
    if found is not None:
        return error_response(found.kind, found.message)
    return error_response("internal", str(exc) or type(exc).__name__)


def request_id(request: dict[str, Any]) -> str:
    """The request's `id`: a string of 1 to 200 characters."""
    value = request.get("id")
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID_LENGTH:
        raise BadRequest("malformed request: id must be a string of 1 to 200 characters")
    return value


class Adapter:
    """One protocol connection: agents by id, all under one profile."""

    def __init__(self, profile: Profile | str = "reference") -> None:
        # Imported here, not at module level: the subprocess entry point must
        # redirect stdout before openai/mcp are imported (a print at import
        # time would otherwise corrupt the protocol stream).
        from .runtime import Runtime

        self.profile = get_profile(profile) if isinstance(profile, str) else profile
        self.runtime = Runtime(self.profile)
        self.agents: dict[str, Agent] = {}

    async def hello(self) -> Response:
        """Identify the implementation, its capabilities and declared options."""
        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "implementation": dict(IMPLEMENTATION),
            "capabilities": [*CAPABILITIES, model_capability(self.profile)],
            "options": declared_options(self.profile),
        }

    async def build(self, id: str, config: object) -> Response:
        """Build an agent under `id` (replacing one already built under it)."""
        try:
            agent = await self.runtime.build(config)
        except Exception as exc:
            return exception_response(exc)
        previous = self.agents.pop(id, None)
        if previous is not None:
            await previous.close()
        self.agents[id] = agent
        return {"ok": True}

    async def run(self, id: str, input: str) -> Response:
        """One run of the agent built under `id`."""
        agent = self.agents.get(id)
        if agent is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            result = await agent.run(input)
        except Exception as exc:
            return exception_response(exc)
        return {"ok": True, "output": result.output, "stop_reason": result.stop_reason}

    async def close(self, id: str) -> Response:
        """Release the agent built under `id`."""
        agent = self.agents.pop(id, None)
        if agent is None:
            return error_response("internal", f"unknown id: {json.dumps(id)}")
        try:
            await agent.close()
        except Exception as exc:
            return exception_response(exc)
        return {"ok": True}

    async def close_all(self) -> None:
        """Release every agent (end of the connection)."""
        for id in list(self.agents):
            await self.close(id)

    async def dispatch(self, request: object) -> Response:
        """Answer one decoded request; BadRequest for a malformed one."""
        if not isinstance(request, dict):
            raise BadRequest("malformed request: not a JSON object")
        op = request.get("op")
        if op == "hello":
            if request.get("protocol") != PROTOCOL_VERSION:
                raise BadRequest(f"unsupported protocol: {json.dumps(request.get('protocol'))}")
            return await self.hello()
        if op == "build":
            config = request.get("config")
            if not isinstance(config, dict):
                raise BadRequest("malformed request: config must be an object")
            return await self.build(request_id(request), config)
        if op == "run":
            text = request.get("input")
            if not isinstance(text, str):
                raise BadRequest("malformed request: input must be a string")
            return await self.run(request_id(request), text)
        if op == "close":
            return await self.close(request_id(request))
        raise BadRequest(f"unknown op: {json.dumps(op)}")

    async def handle(self, request: object) -> Response:
        """Answer one decoded request; never raises."""
        try:
            return await self.dispatch(request)
        except BadRequest as exc:
            return error_response("internal", str(exc))
        except Exception as exc:
            return exception_response(exc)

    async def handle_line(self, line: bytes) -> Response:
        """Answer one JSON Lines request; never raises."""
        try:
            request = json.loads(line)
        except ValueError as exc:
            return error_response("internal", f"malformed request: {exc}")
        return await self.handle(request)


def factory(profile: str = "reference") -> Adapter:
    """An in-process adapter for `profile`."""
    return Adapter(profile)


def reference() -> Adapter:
    """In-process adapter, profile `reference`."""
    return factory("reference")


def reference_continuation() -> Adapter:
    """In-process adapter, profile `reference-continuation`."""
    return factory("reference-continuation")


def reference_prefix() -> Adapter:
    """In-process adapter, profile `reference-prefix`."""
    return factory("reference-prefix")


def reference_stream() -> Adapter:
    """In-process adapter, profile `reference-stream` (every model request streamed)."""
    return factory("reference-stream")


def reference_responses() -> Adapter:
    """In-process adapter, profile `reference-responses` (the Responses API wire)."""
    return factory("reference-responses")


def reference_responses_stream() -> Adapter:
    """In-process adapter, profile `reference-responses-stream` (the Responses API wire, streamed)."""
    return factory("reference-responses-stream")


def reference_responses_chained() -> Adapter:
    """In-process adapter, profile `reference-responses-chained` (the Responses API wire, chained by
    `previous_response_id`)."""
    return factory("reference-responses-chained")


def reference_responses_chained_stream() -> Adapter:
    """In-process adapter, profile `reference-responses-chained-stream` (chained, streamed)."""
    return factory("reference-responses-chained-stream")


def reference_responses_refs() -> Adapter:
    """In-process adapter, profile `reference-responses-refs` (the Responses API wire, earlier items
    sent as `item_reference`s)."""
    return factory("reference-responses-refs")


def reference_anthropic() -> Adapter:
    """In-process adapter, profile `reference-anthropic` (the Anthropic Messages API wire)."""
    return factory("reference-anthropic")


def reference_anthropic_stream() -> Adapter:
    """In-process adapter, profile `reference-anthropic-stream` (the Messages API wire, streamed)."""
    return factory("reference-anthropic-stream")


def protect_stdout() -> IO[bytes]:
    """The protocol stream: a copy of the real stdout; fd 1 and sys.stdout go to stderr.

    Stray prints of libraries then land on stderr and cannot corrupt the stream.
    """
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol_fd, "wb")


def read_lines(stream: IO[bytes]) -> Iterator[bytes | None]:
    """Request lines from `stream` until EOF; None for a line over 16 MiB. Blank lines are skipped."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            # Skip the rest of the oversized line, then report it once.
            while line and not line.endswith(b"\n"):
                line = stream.readline(MAX_LINE_BYTES)
            yield None
            continue
        if line.strip():
            yield line


def write_response(out: IO[bytes], response: Response) -> None:
    """One response line, flushed."""
    # ASCII escapes: a lone surrogate in a model's text cannot fail the encoding.
    out.write(json.dumps(response).encode("ascii") + b"\n")
    out.flush()


def serve(stdin: IO[bytes], out: IO[bytes], adapter: Adapter) -> None:
    """Answer every request line in order on one long-lived event loop."""
    loop = asyncio.new_event_loop()
    try:
        for line in read_lines(stdin):
            if line is None:
                response = error_response("internal", "malformed request: line over 16 MiB")
            else:
                response = loop.run_until_complete(adapter.handle_line(line))
            write_response(out, response)
        loop.run_until_complete(adapter.close_all())
    finally:
        loop.close()


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m candidates.reference.adapter`."""
    parser = argparse.ArgumentParser(prog="python -m candidates.reference.adapter")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="reference")
    args = parser.parse_args(argv)
    out = protect_stdout()
    try:
        serve(sys.stdin.buffer, out, factory(args.profile))
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
