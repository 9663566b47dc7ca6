"""The tools each fake MCP route offers and what they return (HACKING.md route table).

Pure data and pure functions: no SDK server, no HTTP. `tools_for(view)` gives
the tools of one request (the `tenant` route depends on the request), `run`
executes one call. Arguments are validated against the tool's inputSchema;
invalid arguments give an `isError` result naming the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl

import jsonschema
import mcp_types as types

from toolproof.fakes.mcp_blocks import BLOCK_DESCRIPTIONS, BLOCKS_ROUTE, block_result
from toolproof.fakes.records import Headers

NAMES_LONG_TOOL: Final = "names_a_very_long_tool_name_that_goes_past_the_openai_limit_of_64_char"
"""A 70-character tool name (`names_long`, `names_pair`; OpenAI function names stop at 64)."""
NAMES_LONG_TWIN: Final = "names_a_very_long_tool_name_that_goes_past_the_openai_limit_of_64_twin"
"""Another 70-character name sharing NAMES_LONG_TOOL's first 64 characters (`names_twin`,
`names_pair`): aliases made by truncation collide."""
NAMES_OVERLONG_TOOL: Final = (
    "names_" + "a_tool_name_past_the_messages_api_limit_of_128_" * 2 + "characters" * 3
)
"""A 130-character tool name (`names_overlong`): invalid on every model wire, the Messages API's
names stopping at 128 (tp-anth-invalid-tool-name)."""
assert (len(NAMES_LONG_TOOL), len(NAMES_LONG_TWIN), len(NAMES_OVERLONG_TOOL)) == (70, 70, 130)
assert NAMES_LONG_TOOL[:64] == NAMES_LONG_TWIN[:64]
NAMES_DOTTED_TOOL: Final = "balda.control.shutdown"
"""A dotted tool name (`names_dotted`): no OpenAI function name holds a dot."""

COLLIDE_TOOLS: Final[tuple[str, ...]] = ("c", "b_c", "b__c", "b-c")
"""The tools of `collide_one` and `collide_two`. Server ids `a<sep>b` and `a`, with sep `_`, `__` or
`-`, make `<server><sep><tool>` spell one name twice (`a_b` + `c` and `a` + `b_c`: `a_b_c`)."""

CRASH_HTTP: Final = "crash_http"
CRASH_CLOSE: Final = "crash_close"
CRASH_ROUTE: Final = "alpha"

SHIFT_ROUTE: Final = "shifting"
"""The route whose tool list changes during a run (issue 24 §3, CONTRACT.md §5c)."""
SHIFT_TOOL: Final = "shift_tools"
"""The `shifting` tool whose call changes that build token's list and sends
`notifications/tools/list_changed` (STALE_TOOL removed, FRESH_TOOL added)."""
STALE_TOOL: Final = "stale_tool"
FRESH_TOOL: Final = "fresh_tool"
LIST_CHANGED_ROUTES: Final[frozenset[str]] = frozenset({SHIFT_ROUTE})
"""Routes whose server declares the `tools.listChanged` capability (every other route does not)."""

SLOW_ROUTE: Final = "slow"
"""The route with a tool that never answers in time (issue 24 §4, CONTRACT.md §5e)."""
STALL_TOOL: Final = "stall"
"""The `slow` tool whose call the server leaves unanswered for STALL_SECONDS (or until the client
cancels it): a tool that never answers, bounded by the harness's own wait."""
STALL_SECONDS: Final = 10.0
"""How long a `stall` call stays unanswered at most. Then it answers STALL_LATE_TEXT, so a runtime
with no timeout ends its run anyway; well below the protocol's request timeout (60 s)."""
STALL_LATE_TEXT: Final = "stall answered late"


@dataclass(frozen=True)
class RequestView:
    """What a tool handler knows about the HTTP request that carried the JSON-RPC message."""

    token: str
    route: str
    query: str
    headers: Headers
    #: Whether this build token's list on a LIST_CHANGED_ROUTES route has shifted (`shift_tools`
    #: was called): the harness holds that state per token and route, so every transport and every
    #: stdio process of the token sees one list (McpServers.shifted).
    shifted: bool = False

    def query_value(self, key: str) -> str | None:
        """The first value of `key` in the query (percent-decoded), None when absent."""
        for name, value in parse_qsl(self.query, keep_blank_values=True):
            if name == key:
                return value
        return None

    def bearer(self) -> str | None:
        """The token of the first `Authorization: Bearer <x>` header (scheme case-insensitive)."""
        for name, value in self.headers:
            if name.lower() == "authorization":
                scheme, _, credential = value.partition(" ")
                if scheme.lower() == "bearer" and credential:
                    return credential
                return None
        return None


Runner = Callable[[Mapping[str, Any], RequestView], types.CallToolResult]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its listing and its behaviour."""

    name: str
    description: str | None
    input_schema: Mapping[str, Any]
    run: Runner
    output_schema: Mapping[str, Any] | None = None
    #: False for a tool whose inputSchema the server itself sends broken (not a valid 2020-12 JSON
    #: Schema, e.g. Gemini-style upper-case types): the whole-suite schema invariants and
    #: wire.schema-meaning do not judge how it is offered (INVALID_INPUT_SCHEMA_MARKERS).
    input_schema_valid: bool = True

    def listing(self) -> types.Tool:
        """The tools/list entry."""
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=dict(self.input_schema),
            output_schema=dict(self.output_schema) if self.output_schema is not None else None,
        )


def text(value: str) -> types.CallToolResult:
    """A successful result with one text block."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)])


def failure(value: str) -> types.CallToolResult:
    """An `isError: true` result with one text block."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=True)


def marker(route: str, tool: str) -> str:
    """The marker a tool's description carries."""
    return f"[tp:{route}/{tool}]"


def _obj(properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": dict(properties), "required": list(required)}


_STR: Final = {"type": "string"}
_Q_SCHEMA: Final = _obj({"q": _STR}, ("q",))
_TEXT_SCHEMA: Final = _obj({"text": _STR}, ("text",))
_NO_ARGS: Final = _obj({})

NESTED_SCHEMA: Final = _obj(
    {
        "order": {
            "type": "object",
            "properties": {
                "id": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "priority": {"type": "string", "enum": ["low", "normal", "high"]},
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"sku": _STR, "qty": {"type": "integer", "minimum": 1}},
                        "required": ["sku", "qty"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["id", "items"],
            "additionalProperties": False,
        }
    },
    ("order",),
)
"""`nested_args`: an object holding an array of objects, enum, anyOf, additionalProperties, deep required."""

STRUCTURED_OUTPUT: Final = _obj({"text": _STR}, ("text",))

REFS_SCHEMA: Final = {
    "type": "object",
    "$defs": {
        "money": {
            "type": "object",
            "properties": {
                "amount": {"type": "number", "exclusiveMinimum": 0},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
            },
            "required": ["amount", "currency"],
            "additionalProperties": False,
        }
    },
    "properties": {
        "type": {"const": "transfer"},
        "amount": {"$ref": "#/$defs/money"},
        "fee": {"anyOf": [{"$ref": "#/$defs/money"}, {"type": "null"}]},
        "memo": {"type": ["string", "null"], "maxLength": 10},
        "target": {
            # Overlapping branches: an instance with both keys matches both, so oneOf rejects it
            # (rewriting oneOf as anyOf changes the meaning).
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"iban": {"type": "string", "minLength": 5}},
                    "required": ["iban"],
                },
                {"type": "object", "properties": {"account": {"type": "integer"}}, "required": ["account"]},
            ]
        },
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3},
        "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
        "default": {"type": "boolean", "default": False},
        # Data that looks like a schema (upper-case `type` keys, one nested): a const is data, so a
        # converter that lowercases it changes which instances are valid (tp-wire-schema-meaning).
        "shape": {"const": {"type": "STRING", "of": {"type": "STRING"}}},
    },
    "required": ["type", "amount", "target"],
    "additionalProperties": False,
}
"""`shapes/schema_refs`: $defs/$ref, oneOf, const (one an object with upper-case `type` keys: data), type
lists, pattern; properties named `type`, `default`."""

GEMINI_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "query": {"type": "STRING", "description": "What to search for."},
        "filters": {
            "type": "OBJECT",
            "properties": {
                "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["NEWS", "BLOG"]}},
                "limit": {"type": "INTEGER", "default": 10},
            },
        },
        "mode": {"anyOf": [{"type": "STRING", "enum": ["FAST", "DEEP"]}, {"type": "NULL"}]},
        "scores": {"type": "ARRAY", "items": {"type": "NUMBER"}},
        "strict": {"type": "BOOLEAN"},
        "labels": {"type": ["STRING", "NULL"]},
        "anything": True,
    },
    "required": ["query"],
}
"""`gemini/upper_case_types`: Gemini-style upper-case types below a lower-case top level, an upper-case
type list (`labels`) and a boolean subschema (`anything: true`). Not a valid JSON Schema ("STRING" is no
type name of draft 2020-12): the server's own defect, so the tool is served with
`input_schema_valid=False` on a route of its own, which only the dedicated test of
tp-wire-schema-repair builds with (never called: jsonschema cannot validate arguments against it; the
suite only looks at how it is offered)."""

LONG_DESCRIPTION_SCHEMA: Final = {
    "type": "object",
    "properties": {"topic": {"type": "string"}, "notes": True},
    "required": ["topic"],
}
"""`shapes/long_description`: `topic`, and a boolean subschema (`notes: true`, valid in draft 2020-12:
a converter must not turn it into null)."""

LONG_DESCRIPTION: Final = (
    "Describe a topic at length.\n\n"
    "Arguments:\n"
    "  - `topic`: what to describe (\"double\", 'single', <angle>, & ampersand, back\\slash).\n"
    "\tA tabbed line;  two spaces;   three spaces.\n"
    "Unicode: Grüße, 世界, 🌍, שלום, café vs cafe\u0301.\n"
    + "This sentence repeats so the description runs past a thousand characters. " * 16
    + "\nThe end."
)
"""`shapes/long_description`: newlines, tabs, runs of spaces, quotes, unicode, over 1,200 characters."""


ARGUMENT_KEYS: Final[tuple[str, ...]] = (
    # The keys of the literal objects of conformance/test_arguments.py, and of its generated ones:
    # plain ASCII identifiers only, which any runtime can build a tool with.
    "q",
    "n",
    "f",
    "items",
    "nothing",
    "empty",
    "text",
    "padded",
    "city",
    "days",
    "metric",
    "note",
    "level",
)
"""The properties `fidelity/echo_args` declares: every key the ordinary argument tests send to it.

A runtime that forwards only declared properties (a documented allowlist) is judged on decoding:
each key sent is declared (tp-args-object). Each property accepts any value (`{}`)."""

ODD_KEYS: Final[tuple[str, ...]] = (
    # Blanks and spaces, unicode (astral, a precomposed and a decomposed é, two cases of one word),
    # a leading underscore and a keyword of several languages, names that look like JSON Schema
    # keywords, JSON pointers or JSON literals, escapes. Some runtimes cannot build a tool whose
    # schema declares one of these (a pydantic model, a Python signature): only the odd-key checks
    # build with them (issue 22 §4), so that defect never leaves the other argument checks undecided.
    "",
    " ",
    "with space",
    " leading",
    "trailing ",
    "Zürich 天気 🌦",
    "ключ",
    "café",
    "cafe\u0301",
    "Key",
    "key",
    "_private",
    "class",
    "$ref",
    "$defs",
    "type",
    "properties",
    "0",
    "-1",
    "null",
    "true",
    "a.b",
    "/a~1b",
    'say "hi"',
    "back\\slash",
    "tab\there",
    "new\nline",
)
"""The properties `oddkeys/echo_args` declares: every key the odd-key test (args.odd-keys-arrive)
sends to it, each accepting any value (`{}`)."""

WRAP_NAMES_KEYS: Final[tuple[str, ...]] = ("raw", "value", "INVALID_JSON", "q", "a", "k")
"""The properties `fidelity/wrap_names` declares: names buggy decoders invent when they wrap
non-object or invalid arguments (`raw`, `value`, `INVALID_JSON`), and the keys the tests send it.
Declared, so an allowlist cannot hide an invented key (tp-args-no-invented-keys)."""

RAW_KEYS: Final[tuple[str, ...]] = ("raw", "_raw", "value", "INVALID_JSON", "a", "k")
"""The properties `rawkeys/wrap_names` declares: WRAP_NAMES_KEYS' invented names and `_raw`, whose
leading underscore some runtimes cannot build a tool with; only the `_raw` run of
args.no-invented-keys builds with it."""


def _any_of_keys(keys: tuple[str, ...]) -> dict[str, Any]:
    # No `required` and no `additionalProperties`: every subset of the keys is valid, and so is an
    # undeclared key (the forwarding of undeclared keys is a declared option of its own).
    return {"type": "object", "properties": {key: {} for key in keys}}


def _lookup(prefix: str) -> Runner:
    return lambda args, _view: text(f"{prefix}:{args['q']}")


def _const(value: str) -> Runner:
    return lambda _args, _view: text(value)


def _structured(args: Mapping[str, Any], _view: RequestView) -> types.CallToolResult:
    result = text(args["text"])
    result.structured_content = {"text": args["text"]}
    return result


def _multi_block(args: Mapping[str, Any], _view: RequestView) -> types.CallToolResult:
    blocks = [types.TextContent(type="text", text=block) for block in args["blocks"]]
    return types.CallToolResult(content=list(blocks))


def _block_runner(name: str) -> Runner:
    return lambda _args, _view: block_result(name)


def _memory(_args: Mapping[str, Any], view: RequestView) -> types.CallToolResult:
    return text(f"context={view.query_value('balda_context') or ''}")


def _unreachable(_args: Mapping[str, Any], _view: RequestView) -> types.CallToolResult:
    return failure("toolproof: this tool is answered by the HTTP wrapper and should never run")


def _spec(
    route: str, name: str, description: str | None, schema: Mapping[str, Any], run: Runner, **kw: Any
) -> ToolSpec:
    full = None if description is None else f"{description} {marker(route, name)}"
    return ToolSpec(name, full, schema, run, **kw)


def _lookup_route(route: str, name: str = "lookup") -> tuple[ToolSpec, ...]:
    return (_spec(route, name, f"Look something up on {route}.", _Q_SCHEMA, _lookup(route)),)


def _shutdown(route: str) -> ToolSpec:
    return _spec(route, NAMES_DOTTED_TOOL, "Ask the host to shut down.", _NO_ARGS, _const("shutdown refused"))


def _long(route: str) -> ToolSpec:
    return _spec(route, NAMES_LONG_TOOL, "A tool with a very long name.", _NO_ARGS, _const("long ok"))


def _twin(route: str) -> ToolSpec:
    return _spec(route, NAMES_LONG_TWIN, "Another tool with a very long name.", _NO_ARGS, _const("twin ok"))


def _overlong(route: str) -> ToolSpec:
    return _spec(
        route,
        NAMES_OVERLONG_TOOL,
        "A tool whose name is too long for every wire.",
        _NO_ARGS,
        _const("overlong ok"),
    )


def _collide_route(route: str) -> tuple[ToolSpec, ...]:
    return tuple(
        _spec(route, name, f"Look something up ({name}).", _Q_SCHEMA, _lookup(f"{route}/{name}"))
        for name in COLLIDE_TOOLS
    )


def _shifting(*names: str) -> tuple[ToolSpec, ...]:
    specs = {
        SHIFT_TOOL: _spec(
            SHIFT_ROUTE, SHIFT_TOOL, "Change this server's tool list.", _NO_ARGS, _const("tools shifted")
        ),
        STALE_TOOL: _spec(SHIFT_ROUTE, STALE_TOOL, "Look something up (old).", _Q_SCHEMA, _lookup("stale")),
        "steady_tool": _spec(SHIFT_ROUTE, "steady_tool", "Report steadily.", _NO_ARGS, _const("steady ok")),
        FRESH_TOOL: _spec(SHIFT_ROUTE, FRESH_TOOL, "Look something up (new).", _Q_SCHEMA, _lookup("fresh")),
    }
    return tuple(specs[name] for name in names)


SHIFTED_TOOLS: Final = _shifting(SHIFT_TOOL, "steady_tool", FRESH_TOOL)
"""`shifting` once shifted: STALE_TOOL gone, FRESH_TOOL added; still two pages (PAGED_ROUTES)."""

STATIC_ROUTES: Final[Mapping[str, tuple[ToolSpec, ...]]] = {
    "alpha": (
        _spec("alpha", "lookup", "Look something up.", _Q_SCHEMA, _lookup("alpha")),
        _spec("alpha", "echo_text", "Return the text verbatim.", _TEXT_SCHEMA, lambda a, _v: text(a["text"])),
        _spec(
            "alpha",
            "multi_block",
            "Return one text block per item.",
            _obj({"blocks": {"type": "array", "items": _STR}}, ("blocks",)),
            _multi_block,
        ),
        _spec(
            "alpha",
            "structured",
            "Return text plus structured content.",
            _TEXT_SCHEMA,
            _structured,
            output_schema=STRUCTURED_OUTPUT,
        ),
        _spec(
            "alpha",
            "report_error",
            "Fail with the given text.",
            _TEXT_SCHEMA,
            lambda a, _v: failure(a["text"]),
        ),
        ToolSpec("no_description_tool", None, _NO_ARGS, _const("nodesc")),
        _spec("alpha", "nested_args", "Place an order.", NESTED_SCHEMA, _const("nested ok")),
        _spec(
            "alpha",
            "output_send__qq",
            "Send a message to a channel.",
            _obj({"channel": _STR, "text": _STR}, ("channel", "text")),
            _const("ok"),
        ),
        _spec("alpha", CRASH_HTTP, "Make the server answer HTTP 500.", _NO_ARGS, _unreachable),
        _spec("alpha", CRASH_CLOSE, "Make the server drop the connection.", _NO_ARGS, _unreachable),
    ),
    "beta": _lookup_route("beta"),
    "gamma": _lookup_route("gamma"),
    "cased": (_spec("cased", "Lookup", "Look something up (cased name).", _Q_SCHEMA, _lookup("cased")),),
    # Only valid wire names here: a runtime declaring invalid_tool_name "reject" must
    # still be able to run the dedup golden (the invalid names live on the `names_*` routes).
    "balda": (
        _spec("balda", "balda_status", "Report the host status.", _NO_ARGS, _const("status ok")),
        _spec("balda", "session_memory_read", "Read the session memory.", _NO_ARGS, _memory),
    ),
    # Invalid wire names (tp-wire-invalid-tool-name), one kind of name per route, so a runtime that
    # refuses one is still judged on the other in a build of its own: a dotted name, a 70-character
    # name, and two 70-character names sharing their first 64 characters (aliases by truncation
    # collide) on one server (`names_pair`) or on two (`names_long` and `names_twin`).
    "names_dotted": (_shutdown("names_dotted"),),
    "names_long": (_long("names_long"),),
    "names_twin": (_twin("names_twin"),),
    "names_pair": (_long("names_pair"), _twin("names_pair")),
    # A 130-character name: past the Messages API's 128 too (tp-anth-invalid-tool-name), where the
    # 70-character names are valid. Only conformance/test_anthropic_messages.py builds with it.
    "names_overlong": (_overlong("names_overlong"),),
    # Prefixed names that collide (tp-ns-duplicate-tools under prefix): the same four tools on two
    # routes, so server ids `a<sep>b` and `a` make `<server><sep><tool>` spell one name twice.
    "collide_one": _collide_route("collide_one"),
    "collide_two": _collide_route("collide_two"),
    # A tool list served in pages of PAGE_SIZE (tools/list with nextCursor): every page counts.
    "paged": tuple(
        _spec("paged", name, f"Paged tool {name}.", _NO_ARGS, _const(f"{name} ok"))
        for name in ("page_one_a", "page_one_b", "page_two_a")
    ),
    # A tool list that changes (tp-mcp-list-*): these three until `shift_tools` is called for the
    # build token, SHIFTED_TOOLS after; paginated both ways, two tools a page.
    SHIFT_ROUTE: _shifting(SHIFT_TOOL, STALE_TOOL, "steady_tool"),
    # A tool that never answers in time, beside one that answers at once (tp-mcp-slow-*): the
    # server holds a `stall` call STALL_SECONDS (mcp_servers.RouteServer), or until it is cancelled.
    SLOW_ROUTE: (
        _spec(SLOW_ROUTE, STALL_TOOL, "Wait for a slow backend.", _NO_ARGS, _const(STALL_LATE_TEXT)),
        _spec(SLOW_ROUTE, "lookup", "Look something up quickly.", _Q_SCHEMA, _lookup(SLOW_ROUTE)),
    ),
    # Schema and description shapes for the wire checks (contracts/requirements/wire.yaml).
    "shapes": (
        _spec("shapes", "schema_refs", "Make a transfer.", REFS_SCHEMA, _const("refs ok")),
        _spec(
            "shapes",
            "long_description",
            LONG_DESCRIPTION,
            LONG_DESCRIPTION_SCHEMA,
            lambda a, _v: text(f"described {a['topic']}"),
        ),
    ),
    # Argument fidelity (contracts/requirements/calls.yaml, tp-args-*): tools whose schemas declare
    # every key the tests send, on routes of their own, so no other test's tool list changes. Only
    # plain identifiers on `fidelity`, which every argument check builds with; the odd names each
    # on a route that only the checks needing them build (issue 22 §4).
    "fidelity": (
        _spec(
            "fidelity",
            "echo_args",
            "Accept any of the declared arguments.",
            _any_of_keys(ARGUMENT_KEYS),
            _const("echo ok"),
        ),
        _spec(
            "fidelity",
            "wrap_names",
            "Accept raw, value, INVALID_JSON, q, a and k.",
            _any_of_keys(WRAP_NAMES_KEYS),
            _const("wrap ok"),
        ),
    ),
    "oddkeys": (
        _spec(
            "oddkeys",
            "echo_args",
            "Accept any of the declared arguments (odd names).",
            _any_of_keys(ODD_KEYS),
            _const("echo ok"),
        ),
    ),
    "rawkeys": (
        _spec(
            "rawkeys",
            "wrap_names",
            "Accept raw, _raw, value, INVALID_JSON, a and k.",
            _any_of_keys(RAW_KEYS),
            _const("wrap ok"),
        ),
    ),
    # Streamed replies (tp-stream-*): a lookup and a tool without parameters, on a route of their
    # own so the stream tests' tool list stays small and fixed.
    "stream": (
        _spec("stream", "lookup", "Look something up.", _Q_SCHEMA, _lookup("stream")),
        _spec("stream", "ping", "Check the service is up.", _NO_ARGS, _const("pong")),
    ),
    # Non-text results (issue 24 §2, CONTRACT.md §5d): one tool per block kind, and one mixing text,
    # image, text (toolproof.fakes.mcp_blocks), on a route of their own.
    BLOCKS_ROUTE: tuple(
        _spec(BLOCKS_ROUTE, name, description, _NO_ARGS, _block_runner(name))
        for name, description in BLOCK_DESCRIPTIONS.items()
    ),
    # The one tool whose inputSchema the server sends invalid (Gemini-style upper-case types): on a
    # route of its own, so no other test offers it (tp-wire-schema-repair, a SHOULD).
    "gemini": (
        _spec(
            "gemini",
            "upper_case_types",
            "Search (Gemini-style schema).",
            GEMINI_SCHEMA,
            _unreachable,
            input_schema_valid=False,
        ),
    ),
}


def tenant_tools(view: RequestView) -> tuple[ToolSpec, ...]:
    """`tenant` route: `tenant_<v>_lookup` from the query, `auth_<x>_lookup` from a Bearer header."""
    names: list[str] = []
    tenant = view.query_value("tenant")
    bearer = view.bearer()
    if tenant is not None:
        names.append(f"tenant_{tenant}_lookup")
    if bearer is not None:
        names.append(f"auth_{bearer}_lookup")
    if not names:
        names.append("tenant_none_lookup")
    return tuple(_spec("tenant", n, "Look something up for a tenant.", _Q_SCHEMA, _lookup(n)) for n in names)


INVALID_INPUT_SCHEMA_MARKERS: Final[frozenset[str]] = frozenset(
    marker(route, spec.name)
    for route, specs in STATIC_ROUTES.items()
    for spec in specs
    if not spec.input_schema_valid
)
"""Markers of the tools served with `input_schema_valid=False` (a server's broken input, not a runtime's
defect): the invariants of tp-wire-parameters-json-schema skip the functions carrying only these."""

ROUTES: Final[Mapping[str, tuple[str, ...]]] = {
    **{route: tuple(spec.name for spec in specs) for route, specs in STATIC_ROUTES.items()},
    "tenant": ("tenant_none_lookup",),
}
"""Route -> tool names for a request without query or headers."""


SERVED_NAMES: Final[frozenset[str]] = frozenset(
    spec.name for specs in (*STATIC_ROUTES.values(), SHIFTED_TOOLS) for spec in specs
)
"""The MCP names of every tool the static routes serve (the `tenant` route's names are all plain)."""


def tools_for(view: RequestView) -> tuple[ToolSpec, ...]:
    """The tools the route of `view` offers to this request."""
    if view.route == "tenant":
        return tenant_tools(view)
    if view.route == SHIFT_ROUTE and view.shifted:
        return SHIFTED_TOOLS
    return STATIC_ROUTES[view.route]


PAGE_SIZE: Final = 2
"""tools/list page size of the PAGED_ROUTES (every other route answers in one page)."""
PAGED_ROUTES: Final[frozenset[str]] = frozenset({"paged", SHIFT_ROUTE})


def stalls(route: str, name: Any) -> bool:
    """Whether a tools/call of tool `name` on `route` is the never-answering STALL_TOOL."""
    return route == SLOW_ROUTE and name == STALL_TOOL


def shifts(route: str, message: Any) -> bool:
    """Whether JSON-RPC `message` (one object) calls SHIFT_TOOL on SHIFT_ROUTE."""
    if route != SHIFT_ROUTE or not isinstance(message, dict) or message.get("method") != "tools/call":
        return False
    params = message.get("params")
    return isinstance(params, dict) and params.get("name") == SHIFT_TOOL


def tool_pages(view: RequestView) -> list[tuple[ToolSpec, ...]]:
    """The pages tools/list answers for the route of `view`, in order."""
    tools = tools_for(view)
    if view.route not in PAGED_ROUTES:
        return [tools]
    return [tools[i : i + PAGE_SIZE] for i in range(0, len(tools), PAGE_SIZE)]


def argument_errors(spec: ToolSpec, arguments: Mapping[str, Any]) -> list[str]:
    """Validation messages for `arguments` against the tool's inputSchema (empty when valid)."""
    validator = jsonschema.Draft202012Validator(dict(spec.input_schema))
    return [str(error.message) for error in validator.iter_errors(dict(arguments))]


def run(spec: ToolSpec, arguments: Mapping[str, Any] | None, view: RequestView) -> types.CallToolResult:
    """Execute one call: invalid arguments give an isError result, else the tool's own result."""
    args = dict(arguments or {})
    errors = argument_errors(spec, args)
    if errors:
        return failure(f"invalid arguments for {spec.name}: " + "; ".join(errors))
    return spec.run(args, view)
