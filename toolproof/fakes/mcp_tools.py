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

from toolproof.fakes.records import Headers

NAMES_LONG_TOOL: Final = "names_a_very_long_tool_name_that_goes_past_the_openai_limit_of_64_char"
"""A 70-character tool name on the `names` route (OpenAI function names stop at 64)."""
assert len(NAMES_LONG_TOOL) == 70, len(NAMES_LONG_TOOL)

CRASH_HTTP: Final = "crash_http"
CRASH_CLOSE: Final = "crash_close"
CRASH_ROUTE: Final = "alpha"


@dataclass(frozen=True)
class RequestView:
    """What a tool handler knows about the HTTP request that carried the JSON-RPC message."""

    token: str
    route: str
    query: str
    headers: Headers

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


FIDELITY_KEYS: Final[tuple[str, ...]] = (
    # The keys of the literal objects of conformance/test_arguments.py.
    "q",
    "",
    "ключ",
    "n",
    "f",
    "nothing",
    "empty",
    "text",
    "city",
    "days",
    "metric",
    "note",
    "level",
    # Odd names: blanks and spaces, unicode (astral, a precomposed and a decomposed é, two cases of
    # one word), names that look like JSON Schema keywords, JSON pointers or JSON literals, escapes.
    " ",
    "with space",
    " leading",
    "trailing ",
    "Zürich 天気 🌦",
    "café",
    "cafe\u0301",
    "Key",
    "key",
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
"""The properties `fidelity/echo_args` declares: every key the argument-fidelity tests send to it.

A runtime that forwards only declared properties (a documented allowlist) is judged on decoding:
each key sent is declared (tp-args-object). Each property accepts any value (`{}`)."""

WRAP_NAMES_KEYS: Final[tuple[str, ...]] = ("raw", "_raw", "value", "INVALID_JSON", "q", "a", "k")
"""The properties `fidelity/wrap_names` declares: the names buggy decoders invent when they wrap
non-object or invalid arguments (`raw`, `_raw`, `value`, `INVALID_JSON`), and the keys the tests send
it. Declared, so an allowlist cannot hide an invented key (tp-args-no-invented-keys)."""


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


_SHUTDOWN: Final = (
    "balda.control.shutdown",
    "Ask the host to shut down.",
    _NO_ARGS,
    _const("shutdown refused"),
)

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
    # still be able to run the dedup golden (the invalid name lives on `names`).
    "balda": (
        _spec("balda", "balda_status", "Report the host status.", _NO_ARGS, _const("status ok")),
        _spec("balda", "session_memory_read", "Read the session memory.", _NO_ARGS, _memory),
    ),
    "names": (
        _spec("names", *_SHUTDOWN),
        _spec("names", NAMES_LONG_TOOL, "A tool with a very long name.", _NO_ARGS, _const("long ok")),
    ),
    # A tool list served in pages of PAGE_SIZE (tools/list with nextCursor): every page counts.
    "paged": tuple(
        _spec("paged", name, f"Paged tool {name}.", _NO_ARGS, _const(f"{name} ok"))
        for name in ("page_one_a", "page_one_b", "page_two_a")
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
    # every key the tests send, on a route of its own, so no other test's tool list changes.
    "fidelity": (
        _spec(
            "fidelity",
            "echo_args",
            "Accept any of the declared arguments.",
            _any_of_keys(FIDELITY_KEYS),
            _const("echo ok"),
        ),
        _spec(
            "fidelity",
            "wrap_names",
            "Accept raw, _raw, value, INVALID_JSON, q, a and k.",
            _any_of_keys(WRAP_NAMES_KEYS),
            _const("wrap ok"),
        ),
    ),
    # Streamed replies (tp-stream-*): a lookup and a tool without parameters, on a route of their
    # own so the stream tests' tool list stays small and fixed.
    "stream": (
        _spec("stream", "lookup", "Look something up.", _Q_SCHEMA, _lookup("stream")),
        _spec("stream", "ping", "Check the service is up.", _NO_ARGS, _const("pong")),
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


def tools_for(view: RequestView) -> tuple[ToolSpec, ...]:
    """The tools the route of `view` offers to this request."""
    if view.route == "tenant":
        return tenant_tools(view)
    return STATIC_ROUTES[view.route]


PAGE_SIZE: Final = 2
"""tools/list page size of the `paged` route (every other route answers in one page)."""


def tool_pages(view: RequestView) -> list[tuple[ToolSpec, ...]]:
    """The pages tools/list answers for the route of `view`, in order."""
    tools = tools_for(view)
    if view.route != "paged":
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
