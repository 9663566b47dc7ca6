"""The scripted OpenAI chat-completions endpoint the candidate talks to.

One endpoint serves every test: each test scripts its own token and points the
candidate at `base_url(token)`. Every request is recorded, in order, per
token. Refusals use HTTP 400 (never 429/5xx) so that clients do not retry.

Order of decisions for a request to `/<token>/...`:
unknown token -> 404; beyond the safety cap -> 400; anything but
`POST /v1/chat/completions` (or `POST /v1/responses`, `POST /v1/messages`, when served) -> 400;
body not a JSON object -> 400; script exhausted -> 400; on the Responses path, a chain the API
would refuse -> its 404 or 400; else the next reply.
A chat request with `"stream": true` gets the same reply as chat SSE
(`toolproof.fakes.sse`); every refusal and a scripted `HttpError` stay plain
JSON error responses either way, on both wires. Whether a runtime may stream
at all is its declaration (`model_stream`), judged by the `wire.endpoint`
invariant, not refused here: a refusal would fail every check of the run for
one root cause. The checks read a turn through the wire-neutral
`ModelRequest.message`, whatever the wire.
Only requests that reach the script consume a reply (a reply whose marker
cannot be resolved is consumed too); a `Runaway` or `AlwaysFail` is never
consumed.

With `ModelEndpoint(responses=True)` (off by default), `POST /v1/responses`
is served too, from the same tape: the OpenAI Responses API
(`toolproof.fakes.responses`: a `response` object, or its event stream for
`"stream": true`); the record's `message` is the same chat-shaped message the
chat path records. A `Streamed` reply's plan cuts its delta events (a plan
asking a chat-only shape is refused with a 400,
`toolproof_responses_unsupported`); a `Cut` breaks its event stream as on the
chat wire, its `error` ending being an `error` event then `response.failed`.
`Ended` (a response that ends failed or incomplete, on every attempt),
`DoneEventsOnly` (a streamed `response.completed` with `output: []`) and
`TextParts` (a message's text in several `output_text` parts) are
Responses-only: a chat request to them is refused with a 400,
`toolproof_responses_only`; so are `Reasoned` (a reply whose output opens with a
`reasoning` item `rs_<token>_<index>`, with its `encrypted_content` when
`include` asks `reasoning.encrypted_content`) and `Forgotten` (the token's
stored responses are forgotten before it answers, as when they expire), on the
chat and the Messages wire alike, each refusal consuming its reply.

The Responses path keeps state as the API does
(`toolproof.fakes.responses_store`): every completed answer is stored under its
id `resp_<token>_<index>` unless the request said `store: false`, and each
request is read against the token's store before it is answered. A chain the
API would refuse (an unknown, unstored or forgotten `previous_response_id`, item
reference or reasoning item by id: 404; an item the previous response holds
sent again, an unpaired call or output on a chained request, a replayed call
without the reasoning item that preceded it: 400) gets the API's error body and
consumes no reply; its note is `chain refused: <the API's message>`, or `chain
expired (Forgotten): <the API's message>` for an id a `Forgotten` dropped (no
fault of the request). A chained request's record holds the whole conversation
it stands for (`ModelRequest.resolved`), which its `view` reads.

Off, the Responses path is refused as any other unsupported path. The suite's
harness serves every wire (`toolproof.plugin`): the wire a runtime posts to is
judged against the one it claims, never refused.

With `ModelEndpoint(anthropic=True)` (off by default; on in the suite's harness,
as the other two), `POST /v1/messages` is served too,
from the same tape: the Anthropic Messages API (`toolproof.fakes.anthropic_wire`:
a `message` object, or its event stream for `"stream": true`; the client's base
URL is `anthropic_base_url(token)`); the record's `message` is the same
chat-shaped message, its call ids the `tool_use` ids. A `Streamed` reply's plan
cuts its deltas (a chat-only shape is refused with a 400,
`toolproof_anthropic_unsupported`, as are arguments that are not an object's
JSON text: a `tool_use` input is an object); a `Cut` breaks its event stream as
on the other wires, its `error` ending an `error` event; `Ended(...,
"incomplete")` answers with stop reason `max_tokens` (the reply's blocks all
there), on every attempt; `Ended(..., "failed")` has no form on this wire and
is refused (`toolproof_anthropic_unsupported`); `DoneEventsOnly` and
`TextParts` are refused as on the chat wire (`toolproof_responses_only`).
`Thinking` (a reply opening with thinking blocks, their opaque signatures for the
runtime to send back) and `Stopped` (a reply ending once with another stop
reason: `pause_turn`, `refusal`, ...) are Messages API only: refused elsewhere
with a 400, `toolproof_anthropic_only`.
Refusals keep the OpenAI-shaped error body on every wire (both shapes carry
`error.message`, and clients read a 400 by its status).

The safety cap and "script exhausted" are the harness's safety nets: they end
what the runtime did not. Each one that fires is remembered per token
(`safety_nets`), so a check about how the runtime ended a run can refuse to
pass on a run the harness ended.
`activity` keeps when each request arrived and when its answer ended
(toolproof.fakes.activity), for the hang verdicts (toolproof.judge.idle).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Final, Self

from starlette.types import Receive, Scope, Send

from toolproof.fakes import anthropic_wire, sse
from toolproof.fakes import responses as responses_wire
from toolproof.fakes._asgi import (
    DROP,
    BodyTooLarge,
    ClientGone,
    DropConnection,
    parse_json,
    raw_headers,
    raw_path,
    raw_query,
    read_body,
    send_json,
    serve_lifespan,
)
from toolproof.fakes.activity import ANSWERED, CLIENT_LEFT, DROPPED, ENDED, Activity, Exchange
from toolproof.fakes.anthropic_wire import Stopped, Thinking
from toolproof.fakes.http_thread import ThreadedServer
from toolproof.fakes.records import ModelRequest
from toolproof.fakes.replies import (
    AlwaysFail,
    Call,
    HttpError,
    Refusal,
    Reply,
    Runaway,
    StaleCall,
    Text,
    ToolCalls,
    assistant_message,
    completion,
    earlier_name,
    error_body,
    runaway_arguments,
)
from toolproof.fakes.responses import DoneEventsOnly, Ended, Forgotten, Reasoned, TextParts
from toolproof.fakes.responses_store import Resolved, ResponseStore, finished_output
from toolproof.fakes.sse import Cut, Streamed
from toolproof.fakes.tokens import check_token

CHAT_PATH: Final = "/v1/chat/completions"
Scripted = (
    Reply | Streamed | Cut | Ended | DoneEventsOnly | TextParts | Reasoned | Forgotten | Thinking | Stopped
)
"""What a tape holds: a reply, or a reply with how it is sent."""
DEFAULT_SAFETY_CAP: Final = 64


@dataclass(frozen=True)
class _Answer:
    status: int
    payload: Any
    """The JSON body; for a streamed answer, the list of chunk objects sent as SSE events."""
    note: str
    events: list[bytes] | None = None
    """A streamed answer's SSE body, event by event (None: a JSON answer)."""
    message: dict[str, Any] | None = None
    """The assistant message answered, whatever the wire (None for a refusal, an HTTP error or a
    stream that broke off)."""
    abort: bool = False
    """Break the connection after the events (a stream cut mid-body)."""
    chain: Resolved | None = None
    """A Responses request read against the token's stored responses (None on other wires)."""


@dataclass
class _Tape:
    replies: tuple[Scripted, ...]
    cap: int
    position: int = 0
    cap_hit: bool = False
    nets: list[str] = field(default_factory=list)
    """The note of each safety net that fired for this token, once each, in the order they first fired."""
    store: ResponseStore = field(default_factory=ResponseStore)
    """The Responses API's stored responses for this token (`toolproof.fakes.responses_store`)."""
    forgotten: int = -1
    """The position of the last `Forgotten` reply that emptied the store (-1: none yet)."""

    def net(self, answer: _Answer) -> _Answer:
        """Remember that the safety net answering `answer` fired; return it."""
        if answer.note not in self.nets:
            self.nets.append(answer.note)
        return answer


def _refuse(status: int, code: str, message: str) -> _Answer:
    return _Answer(status, error_body(message, code), message)


class ModelEndpoint:
    """A scripted model endpoint on 127.0.0.1 (start() / stop() or `with`): OpenAI chat completions,
    and the Responses API and Anthropic's Messages API when asked."""

    def __init__(self, responses: bool = False, anthropic: bool = False) -> None:
        """Create a stopped endpoint; `responses=True` also serves `POST /v1/responses`,
        `anthropic=True` also serves `POST /v1/messages`."""
        self._responses = responses
        self._anthropic = anthropic
        self._lock = threading.Lock()
        self._tapes: dict[str, _Tape] = {}
        self._records: dict[str, list[ModelRequest]] = {}
        #: When each request arrived and when it was answered (toolproof.judge.idle).
        self.activity = Activity("model")
        self._server = ThreadedServer(self._app, "model endpoint")

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        """Start serving; raise ServerThreadError if uvicorn does not come up in time."""
        self._server.start()
        return self

    def stop(self) -> None:
        """Stop serving (bounded wait)."""
        self._server.stop()

    def __enter__(self) -> Self:
        """Start serving."""
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Stop serving."""
        self.stop()

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return self._server.origin

    # -- test-facing API ---------------------------------------------------

    def base_url(self, token: str) -> str:
        """The OpenAI base URL for `token`: `http://127.0.0.1:PORT/<token>/v1`."""
        return f"{self.origin}/{check_token(token)}/v1"

    def anthropic_base_url(self, token: str) -> str:
        """The Anthropic base URL for `token`: `http://127.0.0.1:PORT/<token>` (Anthropic's clients
        add `/v1/messages` themselves)."""
        return f"{self.origin}/{check_token(token)}"

    def wire_base_url(self, token: str, wire: str | None) -> str:
        """CONFIG's `model.base_url` for `token` on the model wire a candidate claims (PROTOCOL.md
        §7): `anthropic_base_url` for `anthropic.messages`, else the OpenAI `base_url` (none
        claimed too: chat completions, as protocol v1 always said)."""
        return self.anthropic_base_url(token) if wire == "anthropic.messages" else self.base_url(token)

    def script(
        self, token: str, replies: Sequence[Scripted], *, safety_cap: int = DEFAULT_SAFETY_CAP
    ) -> None:
        """Script the replies for `token`; a Runaway may only come last. A token is scripted once."""
        check_token(token)
        tape = tuple(replies)
        for i, reply in enumerate(tape):
            if not isinstance(reply, Scripted):
                raise TypeError(f"reply {i} is not a reply type: {reply!r}")
            if isinstance(reply, Runaway | AlwaysFail | Cut | Ended) and i != len(tape) - 1:
                kind = type(reply).__name__
                raise ValueError(f"{kind} answers every remaining request: it must be the last reply")
        if isinstance(safety_cap, bool) or not isinstance(safety_cap, int) or safety_cap < 1:
            raise ValueError(f"safety_cap must be a positive int, got {safety_cap!r}")
        with self._lock:
            if token in self._tapes:
                raise ValueError(f"token {token!r} is already scripted (forget() it first)")
            self._tapes[token] = _Tape(tape, safety_cap)
            self._records.setdefault(token, [])

    def requests(self, token: str) -> list[ModelRequest]:
        """Every request recorded for `token`, in arrival order (unknown tokens included)."""
        with self._lock:
            return list(self._records.get(token, ()))

    def safety_cap_hit(self, token: str) -> bool:
        """True once a request of `token` went beyond its safety cap."""
        with self._lock:
            tape = self._tapes.get(token)
            if tape is None:
                raise KeyError(f"token {token!r} is not scripted")
            return tape.cap_hit

    def safety_nets(self, token: str) -> tuple[str, ...]:
        """The harness's refusals that ended what the runtime did not, for `token` ((), when none fired).

        One note per kind that fired (the safety cap, script exhausted), in the order
        they first fired.
        """
        with self._lock:
            tape = self._tapes.get(token)
            if tape is None:
                raise KeyError(f"token {token!r} is not scripted")
            return tuple(tape.nets)

    def forget(self, token: str) -> None:
        """Drop the script, the records and the ended exchanges of `token`."""
        with self._lock:
            self._tapes.pop(token, None)
            self._records.pop(token, None)
        self.activity.forget(token)

    # -- serving -----------------------------------------------------------

    def _decide(self, token: str, rest: str, method: str, data: Any, index: int) -> _Answer:
        tape = self._tapes.get(token)
        if tape is None:
            return _refuse(404, "toolproof_unknown_token", f"toolproof: unknown token {token!r}")
        if index >= tape.cap:
            tape.cap_hit = True
            return tape.net(
                _refuse(
                    400, "toolproof_safety_cap", f"toolproof: safety cap of {tape.cap} model requests reached"
                )
            )
        served = (
            rest == CHAT_PATH
            or (self._responses and rest == responses_wire.PATH)
            or (self._anthropic and rest == anthropic_wire.PATH)
        )
        if method != "POST" or not served:
            paths = " or ".join(self._paths())
            return _refuse(
                400,
                "toolproof_unsupported_feature",
                f"toolproof: {method} {rest or '/'} is not supported by this harness (only {paths})",
            )
        if not isinstance(data, dict):
            return _refuse(400, "toolproof_bad_request", "toolproof: request body is not a JSON object")
        if tape.position >= len(tape.replies):
            count = len(tape.replies)
            return tape.net(
                _refuse(
                    400, "toolproof_script_exhausted", f"toolproof: script exhausted after {count} replies"
                )
            )
        reply = tape.replies[tape.position]
        if rest == responses_wire.PATH:
            if isinstance(reply, Forgotten) and tape.forgotten != tape.position:
                tape.forgotten = tape.position
                tape.store.forget()
            chain = tape.store.resolve(data)
            if chain.error is not None:
                refused = chain.error
                # An expired response is the script's doing (Forgotten), never the request's.
                said = "chain expired (Forgotten)" if refused.expired else "chain refused"
                return _Answer(refused.status, refused.body(), f"{said}: {refused.message}", chain=chain)
            answer = self._reply(tape, reply, token, rest, data, index)
            output = finished_output(answer.payload) if answer.status == 200 else None
            if output is not None and chain.items is not None:
                tape.store.keep(data, chain.items, f"resp_{token}_{index}", output)
            if isinstance(reply, Forgotten) and answer.status == 200:
                answer = replace(answer, note=Forgotten.NOTE)
            return replace(answer, chain=chain)
        return self._reply(tape, reply, token, rest, data, index)

    def _reply(
        self, tape: _Tape, reply: Scripted, token: str, rest: str, data: dict[str, Any], index: int
    ) -> _Answer:
        if not isinstance(reply, Runaway | AlwaysFail | Cut | Ended):
            tape.position += 1
        if isinstance(reply, Forgotten):
            if rest != responses_wire.PATH:
                why = "toolproof: this reply is scripted for the Responses API only (Forgotten)"
                return _refuse(400, "toolproof_responses_only", why)
            reply = reply.reply
        if isinstance(reply, AlwaysFail):
            reply = reply.error
        if isinstance(reply, HttpError):
            return _Answer(reply.status, dict(reply.body), f"scripted HTTP {reply.status}")
        if isinstance(reply, Runaway):
            reply = Call(reply.tool, runaway_arguments(index))
        try:
            if isinstance(reply, StaleCall):
                earlier = [record.view for record in self._records.get(token, ())[:index]]
                reply = Call(name=earlier_name(earlier, reply.tool), arguments=reply.arguments)
            if rest == anthropic_wire.PATH:
                if isinstance(reply, Reasoned):
                    why = "toolproof: this reply is scripted for the Responses API only (Reasoned)"
                    return _refuse(400, "toolproof_responses_only", why)
                return _anthropic(reply, data, token, index)
            if isinstance(reply, Thinking | Stopped):
                why = f"toolproof: this reply is scripted for the Messages API only ({type(reply).__name__})"
                return _refuse(400, "toolproof_anthropic_only", why)
            if rest == responses_wire.PATH:
                return _responses(reply, data, token, index)
            if isinstance(reply, Ended | DoneEventsOnly | TextParts | Reasoned):
                why = f"toolproof: this reply is scripted for the Responses API only ({type(reply).__name__})"
                return _refuse(400, "toolproof_responses_only", why)
            if isinstance(reply, Cut):
                return _cut(reply, data, token, index)
            plan = reply.plan if isinstance(reply, Streamed) else None
            reply = reply.reply if isinstance(reply, Streamed) else reply
            message, _ = assistant_message(reply, data, token, index)
            if data.get("stream") is True:
                chunks = sse.chunks(reply, data, token, index, plan)
                return _Answer(200, chunks, "", sse.events(chunks, plan), message)
            return _Answer(200, completion(reply, data, token, index), "", message=message)
        except Refusal as refusal:
            return _Answer(refusal.status, refusal.payload(), refusal.message)

    def _paths(self) -> list[str]:
        paths = [f"POST {CHAT_PATH}"]
        if self._responses:
            paths.append(f"POST {responses_wire.PATH}")
        if self._anthropic:
            paths.append(f"POST {anthropic_wire.PATH}")
        return paths

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> DropConnection | None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return None
        if scope["type"] != "http":
            return None
        path = raw_path(scope)
        token = path.removeprefix("/").partition("/")[0]
        exchange = self.activity.arrive(token, str(scope["method"]), path)
        try:
            return await self._serve(scope, receive, send, exchange)
        finally:
            self.activity.end(exchange, ENDED)  # a no-op when _serve ended it

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, exchange: Exchange
    ) -> DropConnection | None:
        try:
            body = await read_body(receive)
        except ClientGone:
            self.activity.end(exchange, CLIENT_LEFT)
            return None
        except BodyTooLarge:
            self.activity.status(exchange, 413)
            await send_json(send, 413, error_body("toolproof: request body too large", "toolproof_too_large"))
            self.activity.end(exchange, ANSWERED)
            return None
        path = raw_path(scope)
        token, _, tail = path.removeprefix("/").partition("/")
        rest = "/" + tail if tail else ""
        data = parse_json(body)
        method = str(scope["method"])
        with self._lock:
            records = self._records.setdefault(token, [])
            index = len(records)
            answer = self._decide(token, rest, method, data, index)
            records.append(
                ModelRequest(
                    token=token,
                    index=index,
                    method=method,
                    path=path,
                    query=raw_query(scope),
                    headers=raw_headers(scope),
                    body=body,
                    json=data,
                    status=answer.status,
                    response=answer.payload,
                    note=answer.note,
                    message=answer.message,
                    arrived_at=exchange.arrived_at,
                    resolved=answer.chain.items
                    if answer.chain is not None and answer.chain.chained
                    else None,
                )
            )
        self.activity.status(exchange, answer.status)
        if answer.events is None:
            await send_json(send, answer.status, answer.payload)
            self.activity.end(exchange, ANSWERED)
            return None
        await _send_events(send, answer.events)
        if answer.abort:
            # Returned mid-body, DROP makes uvicorn close the socket with the chunked body unfinished:
            # the client sees the connection break, as a dropped stream does.
            self.activity.end(exchange, DROPPED)
            return DROP
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        self.activity.end(exchange, ANSWERED)
        return None


def _responses(
    reply: Text | Call | ToolCalls | Streamed | Cut | Ended | DoneEventsOnly | TextParts | Reasoned,
    data: dict[str, Any],
    token: str,
    index: int,
) -> _Answer:
    streamed = data.get("stream") is True
    if isinstance(reply, Ended):
        if not streamed:
            return _Answer(200, responses_wire.ended_response(reply, data, token, index), reply.note())
        stream = responses_wire.ended_events(reply, data, token, index)
        return _Answer(200, stream, reply.note(), [responses_wire.event(e) for e in stream])
    if isinstance(reply, DoneEventsOnly):
        if not streamed:
            message = (
                "toolproof: this reply is scripted as a stream (DoneEventsOnly): it answers stream true only"
            )
            return _refuse(400, "toolproof_stream_only", message)
        answered = responses_wire.assistant_message(reply.reply, data, token, index)
        stream = responses_wire.done_events_only(reply.reply, data, token, index)
        encoded = [responses_wire.event(e) for e in stream]
        return _Answer(200, stream, DoneEventsOnly.NOTE, encoded, answered)
    if isinstance(reply, Reasoned):
        answered = responses_wire.assistant_message(reply.reply, data, token, index)
        if streamed:
            stream = responses_wire.reasoned_events(reply, data, token, index)
            encoded = [responses_wire.event(e) for e in stream]
            return _Answer(200, stream, reply.note(), encoded, answered)
        whole = responses_wire.reasoned_response(reply, data, token, index)
        return _Answer(200, whole, reply.note(), message=answered)
    if isinstance(reply, TextParts):
        answered = responses_wire.assistant_message(reply.reply, data, token, index)
        parts = reply.parts()
        if streamed:
            stream = responses_wire.events(reply.reply, data, token, index, parts=parts)
            encoded = [responses_wire.event(e) for e in stream]
            return _Answer(200, stream, reply.note(), encoded, answered)
        whole = responses_wire.response(reply.reply, data, token, index, parts)
        return _Answer(200, whole, reply.note(), message=answered)
    if isinstance(reply, Cut):
        if data.get("stream") is not True:
            return _cut(reply, data, token, index)  # the chat path's stream-only refusal
        stream = responses_wire.cut_events(reply, data, token, index)
        encoded = [responses_wire.event(e) for e in stream]
        return _Answer(200, stream, reply.note(), encoded, None, abort=reply.ending == "abort")
    plan = reply.plan if isinstance(reply, Streamed) else None
    reply = reply.reply if isinstance(reply, Streamed) else reply
    if plan is not None:
        try:
            responses_wire.check_plan(plan)
        except responses_wire.ChatOnlyPlan as refused:
            return _refuse(400, "toolproof_responses_unsupported", f"toolproof: {refused}")
    answered = responses_wire.assistant_message(reply, data, token, index)
    if data.get("stream") is True:
        stream = responses_wire.events(reply, data, token, index, plan)
        return _Answer(200, stream, "", [responses_wire.event(e) for e in stream], answered)
    return _Answer(200, responses_wire.response(reply, data, token, index), "", message=answered)


def _anthropic(
    reply: Text | Call | ToolCalls | Streamed | Cut | Ended | DoneEventsOnly | TextParts | Thinking | Stopped,
    data: dict[str, Any],
    token: str,
    index: int,
) -> _Answer:
    streamed = data.get("stream") is True
    if isinstance(reply, Stopped):
        answered = anthropic_wire.assistant_message(reply.reply, data, token, index)
        if not streamed:
            whole = anthropic_wire.message_object(reply.reply, data, token, index, stop=reply.reason)
            return _Answer(200, whole, reply.note(), message=answered)
        stream = anthropic_wire.events(reply.reply, data, token, index, stop=reply.reason)
        return _Answer(200, stream, reply.note(), [anthropic_wire.event(e) for e in stream], answered)
    thoughts: tuple[anthropic_wire.Thought | anthropic_wire.RedactedThought, ...] = ()
    if isinstance(reply, Thinking):
        thoughts = reply.thoughts
        reply = reply.reply if reply.plan is None else Streamed(reply.reply, reply.plan)
    if isinstance(reply, DoneEventsOnly | TextParts):
        why = f"toolproof: this reply is scripted for the Responses API only ({type(reply).__name__})"
        return _refuse(400, "toolproof_responses_only", why)
    if isinstance(reply, Ended):
        if reply.status != "incomplete":
            why = (
                "toolproof: a failed response has no form on the Messages API (script a Cut or an HttpError)"
            )
            return _refuse(400, anthropic_wire.UNSUPPORTED, why)
        note = "stop_reason max_tokens"
        if not streamed:
            return _Answer(
                200, anthropic_wire.message_object(reply.reply, data, token, index, stop="max_tokens"), note
            )
        stream = anthropic_wire.events(reply.reply, data, token, index, stop="max_tokens")
        return _Answer(200, stream, note, [anthropic_wire.event(e) for e in stream])
    if isinstance(reply, Cut):
        if not streamed:
            return _cut(reply, data, token, index)  # the chat path's stream-only refusal
        stream = anthropic_wire.cut_events(reply, data, token, index)
        encoded = [anthropic_wire.event(e) for e in stream]
        return _Answer(200, stream, reply.note(), encoded, None, abort=reply.ending == "abort")
    plan = reply.plan if isinstance(reply, Streamed) else None
    reply = reply.reply if isinstance(reply, Streamed) else reply
    if plan is not None:
        try:
            responses_wire.check_plan(plan)
        except responses_wire.ChatOnlyPlan as refused:
            return _refuse(400, anthropic_wire.UNSUPPORTED, f"toolproof: {refused}")
    answered = anthropic_wire.assistant_message(reply, data, token, index)
    if streamed:
        stream = anthropic_wire.events(reply, data, token, index, plan, thoughts=thoughts)
        return _Answer(200, stream, "", [anthropic_wire.event(e) for e in stream], answered)
    whole = anthropic_wire.message_object(reply, data, token, index, thoughts=thoughts)
    return _Answer(200, whole, "", message=answered)


def _cut(cut: Cut, data: dict[str, Any], token: str, index: int) -> _Answer:
    if data.get("stream") is not True:
        message = "toolproof: this reply is scripted as a broken stream: it answers stream true only"
        return _refuse(400, "toolproof_stream_only", message)
    chunks = sse.cut_chunks(cut, data, token, index)
    events = [sse.event(chunk) for chunk in chunks]
    if cut.ending == "error":
        events.append(sse.event(sse.STREAM_ERROR))
    return _Answer(200, chunks, cut.note(), events, None, abort=cut.ending == "abort")


async def _send_events(send: Send, events: list[bytes]) -> None:
    # One body message per event (chunked transfer), as a real stream arrives.
    headers = [(b"content-type", sse.CONTENT_TYPE.encode("latin-1"))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    for event in events:
        await send({"type": "http.response.body", "body": event, "more_body": True})
