"""What the fakes observed: one frozen record per HTTP request, in arrival order per token.

Recorded values are exactly what arrived: `path` and `query` are the raw
strings (no percent-decoding; `query` has no leading `?`), `headers` holds
every header as (name, value) in arrival order with duplicates (uvicorn/h11
hands names over lowercased; values are latin-1 decoded bytes, never
normalised), `body` the raw bytes. When each request arrived and how its
answer ended is kept beside them, per fake (`toolproof.fakes.activity`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from toolproof.fakes.anthropic_view import anthropic_chat_view, is_anthropic
from toolproof.fakes.views import chat_view, is_responses

Headers = tuple[tuple[str, str], ...]

NO_RESPONSE = 0
"""`status` of a request that got no HTTP response (connection dropped, or still streaming unstarted)."""


def _values(headers: Headers, name: str) -> list[str]:
    wanted = name.lower()
    return [value for key, value in headers if key.lower() == wanted]


@dataclass(frozen=True)
class ModelRequest:
    """One request to the scripted model endpoint and what it was answered.

    `json` is the parsed body (None if empty or not JSON), `response` the JSON
    payload sent back (for a streamed answer, the list of `chat.completion.chunk`
    objects, or of Responses API or Messages API events, sent as SSE events), `note` the
    harness's remark ("" when the request was served as scripted, else why it
    was refused). `message` is the assistant message the answer stands for,
    whatever the wire (the same dict a chat JSON answer carries in
    `choices[0].message`); None when the request was refused, answered with a
    scripted HTTP error, or streamed and broken off. Checks read the model's
    turns there, never in the wire payload.
    """

    token: str
    index: int
    method: str
    path: str
    query: str
    headers: Headers
    body: bytes
    json: Any | None
    status: int
    response: Any
    note: str
    message: dict[str, Any] | None = None
    #: When it arrived (`time.monotonic()`, before its body was read; 0.0: not stamped).
    arrived_at: float = 0.0
    #: A chained Responses request's whole conversation, stored items resolved (its
    #: `previous_response_id`'s conversation, then its input with each reference replaced;
    #: `toolproof.fakes.responses_store`); None for a request that leaned on no stored state, or
    #: whose chain the fake refused.
    resolved: list[Any] | None = None

    def header_values(self, name: str) -> list[str]:
        """All values of header `name` (matched case-insensitively), in arrival order."""
        return _values(self.headers, name)

    @property
    def conversation_body(self) -> Any:
        """The body with its chain resolved (CONTRACT.md §2 "view" of a chained request): `input` the
        whole conversation, no `previous_response_id`; `json` itself when nothing was resolved."""
        if self.resolved is None or not isinstance(self.json, dict):
            return self.json
        body = {key: value for key, value in self.json.items() if key != "previous_response_id"}
        body["input"] = self.resolved
        return body

    @property
    def wire(self) -> str:
        """The wire the request was sent on, by its path: `openai.responses`, `anthropic.messages`
        or `openai.chat`."""
        if is_responses(self.path):
            return "openai.responses"
        return "anthropic.messages" if is_anthropic(self.path) else "openai.chat"

    @cached_property
    def view(self) -> Any:
        """The body as the chat-completions body it stands for (`toolproof.fakes.views`,
        `toolproof.fakes.anthropic_view`): `json` itself on the chat wire (and for a body that is no
        JSON object), the rendered body on the Responses and Messages wires. The semantic checks
        read this; the wire checks read `json`."""
        if not isinstance(self.json, dict):
            return self.json
        if self.wire == "openai.responses":
            return chat_view(self.conversation_body)
        if self.wire == "anthropic.messages":
            return anthropic_chat_view(self.json)
        return self.json


HTTP: Final = "http"
STDIO: Final = "stdio"


@dataclass(frozen=True)
class StdioProcess:
    """What a stdio server process reported about itself with one message.

    `argv` is the process's whole command line as it received it (interpreter
    first), `cwd` its working directory, `env` the variables the harness asked
    about, each with its value or None when unset, in the order asked. `start` is
    its start time from Linux /proc (clock ticks after boot), `ppid` its parent's
    pid and `parent_start` the parent's start time: (pid, start) names one process
    across pid reuse. None where /proc could not tell.
    """

    pid: int
    argv: tuple[str, ...]
    cwd: str
    env: tuple[tuple[str, str | None], ...]
    start: int | None = None
    ppid: int | None = None
    parent_start: int | None = None


@dataclass(frozen=True)
class McpRequest:
    """One request to the MCP servers: an HTTP request (GET, POST or DELETE), or one
    JSON-RPC message a stdio server read from its stdin (`transport` says which: "http" for
    streamable HTTP, "sse" for the legacy HTTP+SSE transport, "stdio").

    `route` is the path segment after `/mcp/` or `/sse/` ("" if the path did not parse).
    `rpc_method`/`rpc_params`/`rpc_id` come from the JSON-RPC body (None when
    absent or not JSON-RPC); for a batch, `rpc_method` is the methods joined
    by "," and `rpc_params`/`rpc_id` are lists. `status` is the HTTP status
    sent back, NO_RESPONSE (0) when none was sent.

    A stdio record has no HTTP part: `method` and `path` are "", `query` the
    `--query` the server was started with (what its HTTP URL would carry),
    `headers` empty, `status` NO_RESPONSE; `body` is the message as the SDK
    parsed it, serialised again (UTF-8 JSON), and `process` what the server
    process reported about itself (None over HTTP).
    """

    token: str
    route: str
    index: int
    method: str
    path: str
    query: str
    headers: Headers
    body: bytes
    rpc_method: str | None
    rpc_params: Any
    rpc_id: Any
    status: int
    transport: str = HTTP
    process: StdioProcess | None = None
    #: When it arrived (`time.monotonic()`, the activity's clock): an HTTP request before its body
    #: was read, a stdio message when its report arrived (0.0: not stamped).
    arrived_at: float = 0.0

    def header_values(self, name: str) -> list[str]:
        """All values of header `name` (matched case-insensitively), in arrival order."""
        return _values(self.headers, name)
