"""The Python adapter kit: the plumbing of a protocol v1 adapter (contracts/PROTOCOL.md), once.

An adapter built on the kit writes only what is its runtime's own: how CONFIG becomes an agent, how
an input runs through it, how it is closed, which exceptions mean which error kind, and what the
`hello` declares. The kit does the rest, the same way for every adapter: the JSON Lines loop, the
stdout discipline, request validation, build/run/close by id, one long-lived event loop, and the
mapping of an exception chain to an error kind.

Standard library only, one file: import it as `toolproof.adapter` where toolproof is installed, or
copy this file beside your adapter (`toolproof init` does) where the runtime lives in a venv of its
own. The same object serves both connections: `cmd:` through `main(factory)`, and in-process as a
`py:module:factory` candidate (its async `hello`, `build`, `run` and `close` return the protocol's
response dicts).

Public names (the Node kit, toolproof/adapter_kit.mjs, mirrors them):

- `PROTOCOL_VERSION`: 1, the protocol this kit speaks.
- `MAX_LINE_BYTES`: 16 MiB, the longest request line; a longer one is answered `internal`.
- `MAX_ID_LENGTH`: 200, the longest build id; ids are opaque strings of 1 to 200 characters.
- `KINDS`: the protocol's error kinds (PROTOCOL.md §4).
- `Response`: the type of a response, a JSON object as a dict.
- `ok()`: `{"ok": true}`, the answer of a build or a close.
- `run_ok(output, stop_reason="completed")`: the answer of a run.
- `error(kind, message)`: `{"ok": false, "error": {"kind": ..., "message": ...}}`.
- `hello(name, version, capabilities, options=None, *, language="python", homepage=None)`: the
  hello answer, assembled in the schema's shape.
- `version(*distributions)`: the installed version of a distribution ("" when not installed), for
  `hello`; several are joined as "name X, name Y".
- `Fail(kind, message)`: an exception adapter code raises to answer with a kind of its own choosing
  (a CONFIG key the runtime has no place for: `invalid_config`).
- `refuse_unclaimed(config, capabilities, runtime="the runtime")`: raise `Fail("invalid_config")`
  for a CONFIG key whose capability is not claimed (a non-empty `dedup_key` or `dedup_preferred:
  true` without `toolsets.dedup_key`, a non-null `max_tool_turns` without `loop.turn_cap`, a server
  of type `stdio` or `sse` without `mcp.stdio` or `mcp.sse`): the one check an adapter makes itself,
  before anything is contacted (PROTOCOL.md §7).
- `Rule`: one row of an adapter's error table, `(match, kind)`: `match` is an exception type, a tuple
  or union of types, or a predicate `exception -> bool`.
- `chain(exc)`: `exc`, the members of an exception group (depth first), then its `__cause__` (or its
  unsuppressed `__context__`), each once.
- `raised_in(exc, function)`: whether the innermost frame of `exc`'s traceback is `function` (the
  runtime's own validation function: PROTOCOL.md §4 allows telling untyped errors apart by it).
- `classify(exc, rules)`: the error response for `exc`: the first exception of `chain(exc)` that is a
  `Fail` or that a rule matches (rules in table order) gives the kind; otherwise `internal`.
- `Adapter`: the base class. Override `describe()` (the hello answer), `create(id, config)` (CONFIG
  -> an agent; raise on failure; the id is opaque, for a runtime that keys sessions by it),
  `invoke(agent, input)` (a run's answer, usually `run_ok(...)`), `release(agent)` (close what was
  opened) and `rules()` (the error table); each hook may be sync or async. It provides the protocol
  methods `hello()`, `build(id, config)`, `run(id, input)`, `close(id)` (async, for `py:`),
  `close_all()`, `handle(request)` (validate and dispatch one decoded request, never raises) and
  `handle_line(line)` (one raw line).
- `protect_stdout()`: the protocol stream (a duplicate of fd 1); fd 1 and `sys.stdout` then point at
  stderr, so a library's print can never reach the protocol channel.
- `read_lines(stream)`: request lines until EOF, blank lines skipped, None for a line over 16 MiB.
- `write_response(out, response)`: one response line, ASCII-escaped JSON, flushed.
- `serve(adapter, stdin, out)`: answer every line in order on one event loop; at EOF close every build.
- `main(factory, argv=None, *, profiles=(), prog=None)`: the `cmd:` entry point: parse `--profile`
  (when `profiles` are given), protect stdout, THEN call `factory()` (or `factory(profile)`), so the
  runtime is imported only after the guard, and serve stdin until EOF. Returns the exit status.

Build ids: a build under an id already built replaces it (the old build is released; its failure
is logged to stderr). A run or close of an unknown id is `internal`. At EOF every build is released.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import logging
import os
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import metadata
from typing import IO, Any, TypeAlias

__all__ = [
    "KINDS",
    "MAX_ID_LENGTH",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "Adapter",
    "Fail",
    "Response",
    "Rule",
    "chain",
    "classify",
    "error",
    "hello",
    "main",
    "ok",
    "protect_stdout",
    "raised_in",
    "read_lines",
    "refuse_unclaimed",
    "run_ok",
    "serve",
    "version",
    "write_response",
]

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_ID_LENGTH = 200
KINDS = frozenset(
    {
        "invalid_config",
        "duplicate_tool",
        "dedup_conflict",
        "max_tool_turns",
        "model_error",
        "tool_error",
        "internal",
    }
)

Response: TypeAlias = dict[str, Any]
Match: TypeAlias = (
    type[BaseException] | tuple[type[BaseException], ...] | types.UnionType | Callable[[BaseException], bool]
)
"""What a rule matches: an exception type, a tuple or union of types, or a predicate."""
Rule: TypeAlias = tuple[Match, str]
"""One row of an error table: (match, kind)."""

log = logging.getLogger("toolproof.adapter")


# -- responses ----------------------------------------------------------------------------------


def ok() -> Response:
    """`{"ok": true}`: the answer of a build or a close."""
    return {"ok": True}


def run_ok(output: str, stop_reason: str = "completed") -> Response:
    """The answer of a run: the last reply's text, and `completed` or `max_tool_turns`."""
    return {"ok": True, "output": output, "stop_reason": stop_reason}


def error(kind: str, message: str) -> Response:
    """`{"ok": false, "error": {"kind": kind, "message": message}}`."""
    if kind not in KINDS:
        raise ValueError(f"not a protocol error kind: {kind!r}")
    return {"ok": False, "error": {"kind": kind, "message": message}}


def hello(
    name: str,
    version: str,
    capabilities: Iterable[str],
    options: Mapping[str, Any] | None = None,
    *,
    language: str = "python",
    homepage: str | None = None,
) -> Response:
    """The hello answer in the schema's shape (options are omitted when None: every default holds)."""
    listed = list(capabilities)
    if not name:
        raise ValueError("hello: implementation name must not be empty")
    if len(set(listed)) != len(listed):
        raise ValueError(f"hello: capabilities must be unique, got {listed}")
    implementation: dict[str, str] = {"name": name, "version": version, "language": language}
    if homepage is not None:
        implementation["homepage"] = homepage
    response: Response = {
        "ok": True,
        "protocol": PROTOCOL_VERSION,
        "implementation": implementation,
        "capabilities": listed,
    }
    if options is not None:
        response["options"] = dict(options)
    return response


def version(*distributions: str) -> str:
    """The installed version of one distribution, or "name X, name Y" for several ("" if absent)."""

    def one(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return ""

    if len(distributions) == 1:
        return one(distributions[0])
    return ", ".join(f"{dist} {one(dist)}" for dist in distributions)


# -- errors -------------------------------------------------------------------------------------


class Fail(Exception):
    """Raised by adapter code to answer with a kind of its own choosing (rare by design)."""

    def __init__(self, kind: str, message: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"not a protocol error kind: {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.message = message


def refuse_unclaimed(
    config: Mapping[str, Any], capabilities: Iterable[str], runtime: str = "the runtime"
) -> None:
    """Raise `Fail("invalid_config")` naming every CONFIG key whose capability is not claimed."""
    claimed = set(capabilities)
    problems: list[str] = []
    if "toolsets.dedup_key" not in claimed:
        for server_id, server in (config.get("mcp_servers") or {}).items():
            if isinstance(server.get("dedup_key"), str) and server["dedup_key"] != "":
                problems.append(f"server {json.dumps(server_id)}: dedup_key is not supported by {runtime}")
            if server.get("dedup_preferred") is True:
                problems.append(
                    f"server {json.dumps(server_id)}: dedup_preferred is not supported by {runtime}"
                )
    for server_id, server in (config.get("mcp_servers") or {}).items():
        needed = {"stdio": "mcp.stdio", "sse": "mcp.sse"}.get(server.get("type"))
        if needed is not None and needed not in claimed:
            problems.append(
                f"server {json.dumps(server_id)}: type {server['type']} is not supported by {runtime}"
            )
    if "loop.turn_cap" not in claimed and config.get("max_tool_turns") is not None:
        problems.append(f"max_tool_turns is not supported by {runtime}")
    if problems:
        raise Fail("invalid_config", "; ".join(problems))


def chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, its group's members (depth first), then its cause or unsuppressed context; each once."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        one = pending.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        yield one
        following: list[BaseException] = []
        if isinstance(one, BaseExceptionGroup):
            following.extend(one.exceptions)
        if one.__cause__ is not None:
            following.append(one.__cause__)
        elif one.__context__ is not None and not one.__suppress_context__:
            following.append(one.__context__)
        pending.extend(reversed(following))


def raised_in(exc: BaseException, function: str) -> bool:
    """Whether the innermost frame of `exc`'s traceback is the function named `function`."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name == function


def _matches(match: Match, exc: BaseException) -> bool:
    if isinstance(match, type | tuple | types.UnionType):
        return isinstance(exc, match)
    return bool(match(exc))


def _text(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def classify(exc: BaseException, rules: Sequence[Rule] = ()) -> Response:
    """The error response for `exc`: the first of its chain a `Fail` or a rule names; else internal."""
    for one in chain(exc):
        if isinstance(one, Fail):
            return error(one.kind, one.message)
        for match, kind in rules:
            if _matches(match, one):
                return error(kind, _text(one))
    # Unmapped: an adapter fault or an untyped runtime error. Its traceback helps whoever reads stderr.
    traceback.print_exception(exc, file=sys.stderr)
    return error("internal", _text(exc))


# -- the adapter --------------------------------------------------------------------------------


async def _settle(value: Any) -> Any:
    """A hook's result: awaited when the hook was async."""
    if inspect.isawaitable(value):
        return await value
    return value


class _BadRequest(Exception):
    """A request the kit cannot act on (answered `internal`)."""


def _build_id(request: dict[str, Any]) -> str:
    value = request.get("id")
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID_LENGTH:
        raise _BadRequest(f"malformed request: id must be a string of 1 to {MAX_ID_LENGTH} characters")
    return value


class Adapter:
    """One protocol connection: builds by id. Subclass it and override the hooks below."""

    def __init__(self) -> None:
        self.agents: dict[str, Any] = {}

    # Hooks (sync or async). -------------------------------------------------------------------

    def describe(self) -> Any:
        """The hello answer (`hello(...)`): the runtime, its capabilities and declared options."""
        raise NotImplementedError("describe() must return the hello answer")

    def create(self, id: str, config: dict[str, Any]) -> Any:
        """CONFIG -> an agent, through the runtime's public build path. Raise what the runtime raised."""
        raise NotImplementedError("create(id, config) must build an agent")

    def invoke(self, agent: Any, input: str) -> Any:
        """One input through `agent`: the run's answer (`run_ok(...)`, or `error(...)`). Raise on failure."""
        raise NotImplementedError("invoke(agent, input) must run the agent")

    def release(self, agent: Any) -> Any:
        """Close what was opened for `agent` (MCP sessions, clients). Default: nothing to close."""
        return None

    def rules(self) -> Sequence[Rule]:
        """The error table (`classify`), called when an exception needs a kind (the runtime is imported)."""
        return ()

    # The protocol (for `py:`, and used by `serve`). -------------------------------------------

    async def hello(self) -> Response:
        """The hello answer."""
        response: Response = await _settle(self.describe())
        return response

    async def build(self, id: str, config: dict[str, Any]) -> Response:
        """Build an agent under `id`, replacing (and releasing) one already built under it."""
        try:
            agent = await _settle(self.create(id, config))
        except Exception as exc:
            return classify(exc, self.rules())
        previous = self.agents.pop(id, None)
        self.agents[id] = agent
        if previous is not None:
            try:
                await _settle(self.release(previous))
            except Exception:
                log.exception("releasing the build replaced under %r failed", id)
        return ok()

    async def run(self, id: str, input: str) -> Response:
        """One run of the agent built under `id`."""
        if id not in self.agents:
            return error("internal", f"unknown id: {json.dumps(id)}")
        try:
            response: Response = await _settle(self.invoke(self.agents[id], input))
        except Exception as exc:
            return classify(exc, self.rules())
        return response

    async def close(self, id: str) -> Response:
        """Release the agent built under `id`; the id is unknown afterwards."""
        if id not in self.agents:
            return error("internal", f"unknown id: {json.dumps(id)}")
        agent = self.agents.pop(id)
        try:
            await _settle(self.release(agent))
        except Exception as exc:
            return classify(exc, self.rules())
        return ok()

    async def close_all(self) -> None:
        """Release every build (end of the connection)."""
        for id in list(self.agents):
            await self.close(id)

    async def handle(self, request: object) -> Response:
        """Validate and answer one decoded request; never raises."""
        try:
            return await self._dispatch(request)
        except _BadRequest as exc:
            return error("internal", str(exc))
        except Exception as exc:
            return classify(exc, self.rules())

    async def handle_line(self, line: bytes | None) -> Response:
        """Answer one raw request line (None: a line over 16 MiB); never raises."""
        if line is None:
            return error("internal", "malformed request: line over 16 MiB")
        try:
            request = json.loads(line)
        except ValueError as exc:
            return error("internal", f"malformed request: {exc}")
        return await self.handle(request)

    async def _dispatch(self, request: object) -> Response:
        if not isinstance(request, dict):
            raise _BadRequest("malformed request: not a JSON object")
        op = request.get("op")
        if op == "hello":
            if request.get("protocol") != PROTOCOL_VERSION:
                raise _BadRequest(f"unsupported protocol: {json.dumps(request.get('protocol'))}")
            return await self.hello()
        if op not in ("build", "run", "close"):
            raise _BadRequest(f"unknown op: {json.dumps(op)}")
        id = _build_id(request)
        if op == "build":
            config = request.get("config")
            if not isinstance(config, dict):
                raise _BadRequest("malformed request: config must be an object")
            return await self.build(id, config)
        if op == "run":
            text = request.get("input")
            if not isinstance(text, str):
                raise _BadRequest("malformed request: input must be a string")
            return await self.run(id, text)
        return await self.close(id)


# -- JSON Lines over stdio ----------------------------------------------------------------------


def protect_stdout() -> IO[bytes]:
    """The protocol stream: a copy of fd 1; fd 1 and sys.stdout then point at stderr."""
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol_fd, "wb")


def read_lines(stream: IO[bytes]) -> Iterator[bytes | None]:
    """Request lines until EOF; None for a line over 16 MiB (the rest of it skipped); blank lines skipped."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(MAX_LINE_BYTES)
            yield None
            continue
        if line.strip():
            yield line


def write_response(out: IO[bytes], response: Response) -> None:
    """One response line, flushed. ASCII escapes: a lone surrogate in a model's text cannot fail it."""
    out.write(json.dumps(response).encode("ascii") + b"\n")
    out.flush()


def serve(adapter: Adapter, stdin: IO[bytes], out: IO[bytes]) -> None:
    """Answer every request line in order on one event loop that lives as long as the process."""
    loop = asyncio.new_event_loop()
    try:
        for line in read_lines(stdin):
            write_response(out, loop.run_until_complete(adapter.handle_line(line)))
        loop.run_until_complete(adapter.close_all())
    finally:
        loop.close()


def main(
    factory: Callable[..., Adapter],
    argv: Sequence[str] | None = None,
    *,
    profiles: Sequence[str] = (),
    prog: str | None = None,
) -> int:
    """The `cmd:` entry point: stdout guarded first, then `factory()` (the runtime's import), then serve.

    With `profiles`, `--profile NAME` (default: the first) is parsed and passed to `factory`.
    `ADAPTER_DEBUG=1` in the environment turns on DEBUG logging to stderr.
    """
    parser = argparse.ArgumentParser(prog=prog)
    if profiles:
        parser.add_argument("--profile", choices=sorted(profiles), default=profiles[0])
    args = parser.parse_args(argv)
    out = protect_stdout()  # before the factory: a print while the runtime is imported must not reach fd 1
    if os.environ.get("ADAPTER_DEBUG"):
        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    try:
        adapter = factory(args.profile) if profiles else factory()
        serve(adapter, sys.stdin.buffer, out)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0
