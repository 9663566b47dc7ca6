"""Whole-suite wire invariants: checked on every model request of every test.

Each invariant is a named probe and is reported under its own check ID,
never as a failure of the test that hosted the request. Body probes
`(body, declared) -> problems` see the parsed JSON body; request probes
`(request, declared) -> problems` see the whole recorded HTTP request
(method, path, raw body).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from toolproof.fakes.anthropic_view import ANTHROPIC_PATH
from toolproof.fakes.mcp_tools import INVALID_INPUT_SCHEMA_MARKERS
from toolproof.fakes.model_server import CHAT_PATH
from toolproof.fakes.records import ModelRequest
from toolproof.fakes.views import RESPONSES_PATH
from toolproof.judge.contract_files import load_json
from toolproof.judge.declared import ANY_WIRE, FAMILIES, OPENAI_WIRE, WIRES, Declared

if TYPE_CHECKING:  # referencing (jsonschema's own $ref resolver) exports its Resolver type only here
    from referencing._core import Resolver

Probe = Callable[[Mapping[str, Any], Declared], list[str]]
RequestProbe = Callable[[ModelRequest, Declared], list[str]]
WIRE_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
REQUEST_SCHEMA = "wire/chat-completions-request.json"
RESPONSES_REQUEST_SCHEMA = "wire/responses-request.json"
ANTHROPIC_REQUEST_SCHEMA = "wire/anthropic-messages-request.json"
ANTHROPIC_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
ANTHROPIC_VERSION = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
"""The form of an `anthropic-version` value: one dated version (`2023-06-01`, `2026-10-21`; the
versioning page lists them, contracts/sources.md `anthropic-versioning`), never a list."""


def _functions(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    tools = body.get("tools")
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        yield index, function if isinstance(function, Mapping) else {}


_MARKER = re.compile(r"\[tp:[^\]]*\]")


def served_invalid(function: Mapping[str, Any]) -> bool:
    """Whether `function` offers a tool whose inputSchema the harness's MCP server itself sends invalid.

    A server's broken input is not the runtime's defect: the schema invariants
    (wire.parameters-lowercase-types, wire.parameters-valid-schema) judge a runtime on the servers
    that send valid schemas, and how a broken one is repaired is tp-wire-schema-repair's (a SHOULD).
    A function is skipped when its description carries at least one marker and every marker in it
    names a tool served with `input_schema_valid=False` (`INVALID_INPUT_SCHEMA_MARKERS`, today only
    `[tp:gemini/upper_case_types]`). Every other function is judged: one without a description or
    without a marker (the runtime's own functions too), and one that carries any marker of a tool
    served valid, whatever else it carries.
    """
    description = function.get("description")
    markers = set(_MARKER.findall(description)) if isinstance(description, str) else set()
    return bool(markers) and markers <= INVALID_INPUT_SCHEMA_MARKERS


def _schema_functions(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """`_functions(body)` without those `served_invalid` skips (indices stay those of the body)."""
    return ((i, function) for i, function in _functions(body) if not served_invalid(function))


def unique_function_names(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """No request declares two functions with the same name."""
    seen: dict[Any, int] = {}
    problems = []
    for index, function in _functions(body):
        name = function.get("name")
        if name in seen:
            problems.append(f"tools[{index}] and tools[{seen[name]}] both declare function {name!r}")
        seen.setdefault(name, index)
    return problems


def function_name_pattern(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every function name matches ^[a-zA-Z0-9_-]{1,64}$."""
    return [
        f"tools[{i}].function.name {f.get('name')!r} does not match {WIRE_NAME.pattern}"
        for i, f in _functions(body)
        if not isinstance(f.get("name"), str) or not WIRE_NAME.fullmatch(f["name"])  # `$` admits "x\n"
    ]


# JSON Schema keywords whose value is a schema, a list of schemas, or a map of names to schemas.
# Everything else (default, const, enum, examples, required, unknown keywords) is data: a
# property that happens to be called "type" or "default" is a name, not a keyword.
_ONE_SCHEMA = frozenset(
    {
        "items",
        "additionalItems",
        "contains",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "not",
        "if",
        "then",
        "else",
    }
)
_SCHEMA_LIST = frozenset({"anyOf", "oneOf", "allOf", "prefixItems", "items"})
_SCHEMA_MAP = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)


def _types(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(where, value) of every `type` keyword in a schema position of `node`."""
    if not isinstance(node, Mapping):
        return
    if "type" in node:
        yield path + ".type", node["type"]
    for key, value in node.items():
        if key in _SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _types(sub, f"{path}.{key}[{index}]")
        elif key in _ONE_SCHEMA:
            yield from _types(value, f"{path}.{key}")
        elif key in _SCHEMA_MAP and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _types(sub, f"{path}.{key}[{name!r}]")


def lowercase_schema_types(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every `type` in every `parameters` (at any depth) is a lowercase JSON Schema type name (tools the
    harness served with an invalid inputSchema skipped: `served_invalid`)."""
    problems = []
    for i, function in _schema_functions(body):
        for where, value in _types(function.get("parameters"), f"tools[{i}].function.parameters"):
            names = value if isinstance(value, list) else [value]
            for name in names:
                if not isinstance(name, str) or name != name.lower():
                    problems.append(f"{where} is {name!r}: JSON Schema type names are lowercase")
    return problems


def _schema_where(path: Sequence[Any]) -> str:
    return "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in path)


def _refs(node: Any, path: str, resolver: Resolver[Any]) -> Iterator[tuple[str, str, Resolver[Any]]]:
    """(where, reference, resolver in scope) of every string `$ref` in a schema position of `node`."""
    if not isinstance(node, Mapping):
        return
    if "$id" in node:  # a subschema with its own $id is the base its references resolve against
        resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
    if isinstance(node.get("$ref"), str):
        yield path, node["$ref"], resolver
    for key, value in node.items():
        if key in _SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _refs(sub, f"{path}.{key}[{index}]", resolver)
        elif key in _ONE_SCHEMA:
            yield from _refs(value, f"{path}.{key}", resolver)
        elif key in _SCHEMA_MAP and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _refs(sub, f"{path}.{key}[{name!r}]", resolver)


def _dangling_refs(schema: Any) -> list[str]:
    """Every `$ref` of `schema` that does not resolve, within the schema itself, to a schema.

    Only the parameters document is looked in: the model's provider gets nothing else, so a
    reference to another document (or to `$defs` that were dropped) points at nothing it has.
    """
    if not isinstance(schema, Mapping):
        return []
    resolver = Registry().resolver_with_root(DRAFT202012.create_resource(schema))
    problems = []
    for where, ref, scope in _refs(schema, "", resolver):
        at = f" at {where.lstrip('.')}" if where else ""
        try:
            target = scope.lookup(ref).contents
        except Unresolvable:
            # Another document is named, not merely a missing place in this one: say where it looked.
            elsewhere = "" if ref.startswith("#") else " in the parameters document (the only one sent)"
            problems.append(f"$ref {ref!r}{at} points at nothing{elsewhere}")
            continue
        if not isinstance(target, (Mapping, bool)):
            problems.append(f"$ref {ref!r}{at} points at a {type(target).__name__}, not at a schema")
    return problems


@lru_cache(maxsize=4096)
def _schema_problems(parameters_json: str) -> tuple[tuple[str | None, str], ...]:
    """What is wrong with one `parameters` (as canonical JSON text): (where, what) pairs.

    `where` is the path of a 2020-12 metaschema violation inside `parameters` ("" at its root),
    or None for a problem of the whole document (a dangling `$ref`, a schema too deep to check),
    whose `what` names its place in words. Memoised: a runtime offers the same tools in every
    request of a run, and this is the most expensive thing the harness does per request.
    """
    schema = json.loads(parameters_json)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        # References are followed only in a schema the metaschema accepts: in a broken one
        # (`"$id": 5`) the resolver has nothing sound to start from, and the check failed already.
        return ((_schema_where(exc.absolute_path), exc.message),)
    except RecursionError:  # the validator gives up on deep nesting: say so, never show a traceback
        return ((None, "it nests too deeply to be checked against the 2020-12 metaschema"),)
    try:
        return tuple((None, problem) for problem in _dangling_refs(schema))
    except RecursionError:
        return ((None, "it nests too deeply for its $refs to be followed"),)


def parameters_valid_schema(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every `parameters` is a valid JSON Schema (2020-12 metaschema) whose every `$ref` resolves in it
    (tools the harness served with an invalid inputSchema skipped: `served_invalid`)."""
    problems = []
    for i, function in _schema_functions(body):
        if "parameters" not in function:
            continue
        try:
            canonical = json.dumps(function["parameters"], sort_keys=True, ensure_ascii=False)
        except RecursionError:
            found: tuple[tuple[str | None, str], ...] = ((None, "it nests too deeply to be checked"),)
        else:
            found = _schema_problems(canonical)
        for where, what in found:
            if where is None:
                problems.append(f"parameters of tool {function.get('name')!r} (tools[{i}]): {what}")
            else:
                problems.append(f"tools[{i}].function.parameters{where}: {what}")
    return problems


def tools_never_empty(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """`tools` is absent when there are no tools, never `[]` (providers reject it)."""
    return ["tools is []: omit the key when no tools are offered"] if body.get("tools") == [] else []


def no_tool_keys_without_tools(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """A request offering no function has no `tool_choice` or `parallel_tool_calls` (OpenAI rejects them)."""
    if any(True for _ in _functions(body)):
        return []
    return [
        f"{key} is present but the request offers no function"
        for key in ("tool_choice", "parallel_tool_calls")
        if key in body
    ]


@cache
def _request_validator(path: str = REQUEST_SCHEMA) -> Draft202012Validator:
    schema = load_json(path)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _where(path: Sequence[Any]) -> str:
    return "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in path) or "(body)"


def request_schema(request: ModelRequest, declared: Declared) -> list[str]:
    """The body is valid against the pinned chat-completions request schema (contracts/wire/)."""
    return _body_problems(request, REQUEST_SCHEMA)


def responses_request_schema(request: ModelRequest, declared: Declared) -> list[str]:
    """The body is valid against the pinned Responses API request schema (contracts/wire/)."""
    return _body_problems(request, RESPONSES_REQUEST_SCHEMA)


def _body_problems(request: ModelRequest, path: str) -> list[str]:
    if not isinstance(request.json, Mapping):
        return [f"the body is not a JSON object: {request.body[:200]!r}"]
    problems = []
    for error in _request_validator(path).iter_errors(request.json):
        # The deepest failing branch names the offending key best.
        best = min(error.context or [error], key=lambda e: -len(e.absolute_path))
        problems.append(f"{_where(best.absolute_path)}: {best.message[:300]}")
    return problems


ABSENT_STREAM: Final[Any] = object()


def endpoint(request: ModelRequest, declared: Declared) -> list[str]:
    """POST to exactly `<base_url>/chat/completions` (no query added), `stream` as declared.

    `model_stream: never`: `stream` absent or false; `always`: `stream` is true.
    """
    return posted_to(request, declared, CHAT_PATH)


def posted_to(request: ModelRequest, declared: Declared, path: str) -> list[str]:
    """POST to exactly `<base_url>` + `path` minus its `/v1` (no query added), `stream` as
    `model_stream` declares (never: absent or false; always: true)."""
    problems = []
    expected_path = f"/{request.token}{path}"  # base_url is http://host:port/<token>/v1
    if request.method != "POST":
        problems.append(f"method is {request.method}, not POST")
    if request.path != expected_path or request.query != "":
        target = request.path + (f"?{request.query}" if request.query else "")
        problems.append(f"request went to {target!r}, not {expected_path!r}")
    body = request.json
    if isinstance(body, Mapping):
        stream = body.get("stream", ABSENT_STREAM)
        if declared.option("model_stream") == "always":
            if stream is not True:
                shown = "absent" if stream is ABSENT_STREAM else repr(stream)
                problems.append(f"stream is {shown}: declared model_stream always (stream true)")
        elif stream is not ABSENT_STREAM and stream is not False:
            problems.append(f"stream is {stream!r}: declared model_stream never (stream absent or false)")
    return problems


def _tool_messages(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    messages = body.get("messages")
    for index, message in enumerate(messages if isinstance(messages, list) else []):
        if isinstance(message, Mapping) and message.get("role") == "tool":
            yield index, message


def _is_text_part(part: Any) -> bool:
    """Exactly `{"type": "text", "text": <string>}`."""
    return (
        isinstance(part, Mapping)
        and set(part) == {"type", "text"}
        and part["type"] == "text"
        and isinstance(part["text"], str)
    )


def tool_message_content(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every tool message has `content`, never null: a string or a non-empty array of text parts.

    Either shape is valid chat completions (OpenAI), whatever `tool_content` declares: a
    runtime may write its own messages (an error text) in the other shape. The declared shape
    is judged where the tool's text is read (`scenario.tool_text`, the result checks).
    """
    problems = []
    for index, message in _tool_messages(body):
        where = f"messages[{index}]"
        if "content" not in message:
            problems.append(f"{where} (role tool) has no content key")
            continue
        content = message["content"]
        if isinstance(content, str):
            continue
        if not isinstance(content, list):
            problems.append(
                f"{where}.content is {type(content).__name__}, not a string or an array of text parts"
            )
        elif not content:
            problems.append(f"{where}.content is an empty array (OpenAI rejects it)")
        elif not all(_is_text_part(p) for p in content):
            problems.append(f"{where}.content is not an array of text parts")
    return problems


def _answer_groups(body: Mapping[str, Any]) -> Iterator[tuple[int, list[Any], list[tuple[int, Any]]]]:
    """(assistant index, its call ids, the tool messages that directly follow it)."""
    messages = body.get("messages")
    messages = messages if isinstance(messages, list) else []
    for index, message in enumerate(messages):
        if not (
            isinstance(message, Mapping) and message.get("role") == "assistant" and message.get("tool_calls")
        ):
            continue
        ids = [c.get("id") for c in message["tool_calls"] if isinstance(c, Mapping)]
        answers = []
        for later in range(index + 1, len(messages)):
            follower = messages[later]
            if not (isinstance(follower, Mapping) and follower.get("role") == "tool"):
                break
            answers.append((later, follower.get("tool_call_id")))
        yield index, ids, answers


def every_call_answered_once(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Each call of an assistant message is answered by exactly one tool message right after it."""
    problems = []
    answering: set[int] = set()  # indices of the tool messages directly after an assistant's calls
    for index, ids, answers in _answer_groups(body):
        answered = [call_id for _, call_id in answers]
        answering.update(at for at, _ in answers)
        for call_id in ids:
            if answered.count(call_id) != 1:
                problems.append(
                    f"messages[{index}] call {call_id!r} answered {answered.count(call_id)} times"
                )
        for at, call_id in answers:
            if call_id not in ids:
                problems.append(f"messages[{at}].tool_call_id {call_id!r} names no call of messages[{index}]")
    for index, _message in _tool_messages(body):
        # Not merely "after an assistant or a tool message": after a plain text reply it answers nothing.
        if index not in answering:
            problems.append(
                f"messages[{index}] (role tool) does not follow an assistant message with tool_calls"
            )
    return problems


def answers_in_call_order(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Tool messages answer in the order of the calls (SHOULD)."""
    problems = []
    for index, ids, answers in _answer_groups(body):
        answered = [call_id for _, call_id in answers]
        if answered != [i for i in ids if i in answered]:
            problems.append(f"answers to messages[{index}] come in order {answered}, calls were {ids}")
    return problems


# -- the Responses API wire (openai.responses): the raw body, never the view ------------------


def responses_endpoint(request: ModelRequest, declared: Declared) -> list[str]:
    """POST to exactly `<base_url>/responses` (no query added), `stream` as `model_stream` declares,
    and stateless as `responses_state` declares: neither `previous_response_id` nor `conversation`
    (absent or null) and no `item_reference` input item (it names an item the server stored), so
    the input alone is the conversation."""
    problems = posted_to(request, declared, RESPONSES_PATH)
    body = request.json
    if isinstance(body, Mapping) and declared.option("responses_state") == "stateless":
        for key in ("previous_response_id", "conversation"):
            if body.get(key) is not None:
                stated = f"{key} is {body[key]!r}"
                problems.append(f"{stated}: declared responses_state stateless (absent or null)")
        for i, item in _input_items(body):
            if item.get("type") == "item_reference":
                stated = f"input[{i}] is an item_reference to {item.get('id')!r}"
                problems.append(f"{stated}: declared responses_state stateless (a stored item)")
    return problems


def _input_items(body: Any) -> list[tuple[int, Mapping[str, Any]]]:
    items = body.get("input") if isinstance(body, Mapping) else None
    return [
        (i, item)
        for i, item in enumerate(items if isinstance(items, list) else [])
        if isinstance(item, Mapping)
    ]


def call_outputs_paired(request: ModelRequest, declared: Declared) -> list[str]:
    """Every `function_call` input item is answered by exactly one `function_call_output` whose
    `call_id` is the call's `call_id`; every output names the `call_id` of a call in the input (an
    `fc_` item id is not a call id; an output without its call is an orphan). A chained request's
    input is the conversation it stands for (`ModelRequest.conversation_body`): the calls its
    previous response holds count."""
    if request.note.startswith((CHAIN_REFUSED, CHAIN_EXPIRED)):
        return []  # the API refused its chain: no conversation to pair (the chain invariants judge it)
    items = _input_items(request.conversation_body)
    calls = [(i, item.get("call_id")) for i, item in items if item.get("type") == "function_call"]
    # An fc_ item id, by the call it identifies: (its index, its call_id).
    item_ids = {
        item.get("id"): (i, item.get("call_id"))
        for i, item in items
        if item.get("type") == "function_call" and "id" in item
    }
    outputs = [(i, item.get("call_id")) for i, item in items if item.get("type") == "function_call_output"]
    answered = [call_id for _, call_id in outputs]
    call_ids = [call_id for _, call_id in calls]
    problems = []
    for at, call_id in calls:
        if answered.count(call_id) != 1:
            problems.append(f"input[{at}] function_call {call_id!r} answered {answered.count(call_id)} times")
    for at, call_id in outputs:
        if call_id in call_ids:
            continue
        if call_id in item_ids:
            index, real = item_ids[call_id]
            problems.append(
                f"input[{at}].call_id {call_id!r} is the item id of input[{index}], whose call_id is {real!r}"
            )
        else:
            problems.append(f"input[{at}].call_id {call_id!r} names no function_call of the input")
    return problems


STORED_STATES: Final = ("previous_response_id", "item_reference")
"""The `responses_state` values under which responses are stored and named (CONTRACT.md §6e)."""
CHAIN_REFUSED: Final = "chain refused: "
"""How the fake's note starts when it refused a request's chain (`toolproof.fakes.responses_store`)."""
CHAIN_EXPIRED: Final = "chain expired (Forgotten): "
"""How it starts when the chain named a stored response a `Forgotten` reply dropped: no runtime's
fault."""
_NOT_FOUND: Final = ("Previous response with id ", "Item with id ")
_UNSTORED: Final = "Items are not persisted when `store` is set to false"
_UNPAIRED: Final = ("No tool call found for function call output", "No tool output found for function call")


def _chain_refusal(request: ModelRequest) -> str | None:
    """The API's words when the fake refused the request's chain (None: it did not)."""
    if request.wire != "openai.responses" or not request.note.startswith(CHAIN_REFUSED):
        return None
    return request.note.removeprefix(CHAIN_REFUSED)


def previous_id_never_null(request: ModelRequest, declared: Declared) -> list[str]:
    """Under a stored `responses_state`, `previous_response_id` is a response's id or absent, never
    null (a request with no earlier response omits it)."""
    body = request.json
    if request.wire != "openai.responses" or declared.option("responses_state") not in STORED_STATES:
        return []
    if isinstance(body, Mapping) and "previous_response_id" in body and body["previous_response_id"] is None:
        return ["previous_response_id is null: omitted, never null, when there is no earlier response"]
    return []


def references_resolve(request: ModelRequest, declared: Declared) -> list[str]:
    """The API found every response and item the request names (`previous_response_id`,
    `item_reference`, a reasoning item by id); a reference to an unstored one is
    `responses.unstored-never-referenced`'s."""
    refused = _chain_refusal(request)
    if refused is None or not refused.startswith(_NOT_FOUND) or _UNSTORED in refused:
        return []
    return [f"the API answered {request.status}: {refused}"]


def chain_outputs_paired(request: ModelRequest, declared: Declared) -> list[str]:
    """The conversation a chained request stands for pairs every `function_call_output` with its
    `function_call` by `call_id`, and every call with its output (else the API's 400)."""
    refused = _chain_refusal(request)
    if refused is None or not refused.startswith(_UNPAIRED):
        return []
    return [f"the API answered {request.status}: {refused}"]


def unstored_never_referenced(request: ModelRequest, declared: Declared) -> list[str]:
    """No request names a response, or an item of one, created with `store: false` (the API's 404);
    under a stored `responses_state` no request sends `store: false`."""
    problems = []
    refused = _chain_refusal(request)
    if refused is not None and _UNSTORED in refused:
        problems.append(f"the API answered {request.status}: {refused}")
    body = request.json
    stored = declared.option("responses_state") in STORED_STATES
    if (
        request.wire == "openai.responses"
        and stored
        and isinstance(body, Mapping)
        and body.get("store") is False
    ):
        state = declared.option("responses_state")
        problems.append(f"store is false: declared responses_state {state} (its responses are named later)")
    return problems


def _object_schemas(node: Any, path: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(where, schema) of `node` and every schema inside it that describes an object (`type`
    "object", alone or in a type list, or `properties`)."""
    if not isinstance(node, Mapping):
        return
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node:
        yield path, node
    for key, value in node.items():
        if key in _SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _object_schemas(sub, f"{path}.{key}[{index}]")
        elif key in _ONE_SCHEMA:
            yield from _object_schemas(value, f"{path}.{key}")
        elif key in _SCHEMA_MAP and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _object_schemas(sub, f"{path}.{key}[{name!r}]")


def strict_tools_in_strict_form(request: ModelRequest, declared: Declared) -> list[str]:
    """A Responses function tool sent with `strict: true` has `parameters` in OpenAI's strict form:
    every object schema in them has `additionalProperties: false` and lists each of its `properties`
    in `required` (the API refuses any other schema with strict true). A tool whose `strict` is
    false, null or absent is not judged here."""
    body = request.json
    tools = body.get("tools") if isinstance(body, Mapping) else None
    problems = []
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, Mapping) or tool.get("type") != "function" or tool.get("strict") is not True:
            continue
        for where, schema in _object_schemas(tool.get("parameters"), f"tools[{i}].parameters"):
            if schema.get("additionalProperties") is not False:
                problems.append(f"{where}: an object without additionalProperties false, under strict true")
            properties = schema.get("properties")
            required = schema.get("required")
            listed = set(required) if isinstance(required, list) else set()
            missing = (
                [name for name in properties if name not in listed] if isinstance(properties, Mapping) else []
            )
            if missing:
                problems.append(f"{where}: properties {missing} not in required, under strict true")
    return problems


# -- the Anthropic Messages API wire (anthropic.messages): the raw body, never the view ---------


def anthropic_endpoint(request: ModelRequest, declared: Declared) -> list[str]:
    """POST to exactly `<base_url>/v1/messages` (`base_url` without `/v1` on this wire; no query
    added), `stream` as `model_stream` declares (never: absent or false; always: true)."""
    return posted_to(request, declared, ANTHROPIC_PATH)


def anthropic_request_schema(request: ModelRequest, declared: Declared) -> list[str]:
    """The body is valid against the pinned Messages request schema (contracts/wire/), and the request
    carries exactly one `anthropic-version` header whose value is one dated version."""
    problems = _body_problems(request, ANTHROPIC_REQUEST_SCHEMA)
    versions = request.header_values("anthropic-version")
    if not versions:
        problems.append("no anthropic-version header (the API requires one)")
    elif len(versions) > 1:
        problems.append(f"anthropic-version sent {len(versions)} times: {versions}")
    elif not ANTHROPIC_VERSION.fullmatch(versions[0]):
        problems.append(f"anthropic-version {versions[0]!r} is not one dated version (YYYY-MM-DD)")
    return problems


def _blocks(message: Any) -> list[tuple[int, Mapping[str, Any]]]:
    """(index, block) of a Messages message's content blocks (none when its content is a string)."""
    content = message.get("content") if isinstance(message, Mapping) else None
    return [
        (k, b) for k, b in enumerate(content if isinstance(content, list) else []) if isinstance(b, Mapping)
    ]


def _wire_messages(body: Any) -> list[Any]:
    messages = body.get("messages") if isinstance(body, Mapping) else None
    return messages if isinstance(messages, list) else []


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, Mapping) else None


def _answer_problems(at: int, ids: list[Any], follower: Any) -> list[str]:
    """What is wrong with the message after assistant message `at` (tool_use ids `ids`) as its answer."""
    where = f"messages[{at + 1}]"
    if not (_role(follower) == "user" and isinstance(follower.get("content"), list)):
        return [
            f"messages[{at}] has tool_use blocks {ids}: {where} is no user message of blocks answering them"
        ]
    blocks = _blocks(follower)
    results = [(k, b.get("tool_use_id")) for k, b in blocks if b.get("type") == "tool_result"]
    answered = [use_id for _, use_id in results]
    problems = [
        f"messages[{at}] tool_use {use_id!r} answered {answered.count(use_id)} times in {where}"
        for use_id in ids
        if answered.count(use_id) != 1
    ]
    problems += [
        f"{where}.content[{k}] tool_result {use_id!r} names no tool_use of messages[{at}]"
        for k, use_id in results
        if use_id not in ids
    ]
    others = [(k, b.get("type")) for k, b in blocks if b.get("type") != "tool_result"]
    if others and results and others[0][0] < results[-1][0]:
        k, kind = others[0]
        problems.append(f"{where}.content[{k}] ({kind}) comes before a tool_result: the results come first")
    return problems


def anthropic_results_paired(request: ModelRequest, declared: Declared) -> list[str]:
    """Every `tool_use` of an assistant message is answered by exactly one `tool_result` with its id in
    the next message (a user message), its results before any other block of it; a `tool_result`
    anywhere else, or naming no `tool_use` of the turn before, is an orphan."""
    messages = _wire_messages(request.json)
    problems: list[str] = []
    answering: set[int] = set()
    for at, message in enumerate(messages):
        ids = [b.get("id") for _, b in _blocks(message) if b.get("type") == "tool_use"]
        if _role(message) != "assistant" or not ids:
            continue
        answering.add(at + 1)
        if at + 1 == len(messages):
            problems.append(f"messages[{at}] has tool_use blocks {ids} and no message after it answers them")
            continue
        problems += _answer_problems(at, ids, messages[at + 1])
    for at, message in enumerate(messages):
        if at not in answering and any(b.get("type") == "tool_result" for _, b in _blocks(message)):
            problems.append(
                f"messages[{at}] has tool_result blocks but follows no assistant message with tool_use"
            )
    return problems


def _empty_texts(where: str, blocks: list[tuple[int, Mapping[str, Any]]]) -> Iterator[str]:
    for k, block in blocks:
        if block.get("type") == "text" and block.get("text") == "":
            yield f"{where}[{k}] is a text block with an empty text"


EMPTY_RESULT_CONTENTS: Final = ("", [{"type": "text", "text": ""}])
"""The `content` of a result that is no error and gives the model just empty text: its shape is
tp-anth-empty-result's (`anthropic.empty-result-per-option`), which its own test judges, so that one
defect is one failure (CONTRACT.md §6c items 28, 30)."""


def _result_problems(where: str, block: Mapping[str, Any]) -> Iterator[str]:
    """An empty `tool_result`: `content` an empty string (a text block to the API), an empty text block
    in it, or an error result (`is_error` true) without content. An empty result that is no error
    (EMPTY_RESULT_CONTENTS) is anthropic.empty-result-per-option's, not this invariant's."""
    content = block.get("content")
    if block.get("is_error") is not True and content in EMPTY_RESULT_CONTENTS:
        return
    if content == "":
        yield f'{where}.content is "" (the API refuses an empty content string)'
    if isinstance(content, list):
        nested = [(k, b) for k, b in enumerate(content) if isinstance(b, Mapping)]
        yield from _empty_texts(f"{where}.content", nested)
    if block.get("is_error") is True and content in (None, "", []):
        yield f"{where} has is_error true and no content (the API refuses an empty error result)"


def anthropic_no_empty_text(request: ModelRequest, declared: Declared) -> list[str]:
    """No empty text is sent: no text block with `text: ""` (in `system`, a message, or a `tool_result`'s
    content), no message or `tool_result` whose `content` is `""`, and no `is_error` result without
    content."""
    body = request.json
    problems: list[str] = []
    system = body.get("system") if isinstance(body, Mapping) else None
    if isinstance(system, list):
        problems += _empty_texts("system", [(k, b) for k, b in enumerate(system) if isinstance(b, Mapping)])
    for at, message in enumerate(_wire_messages(body)):
        if isinstance(message, Mapping) and message.get("content") == "":
            problems.append(f'messages[{at}].content is "" (an empty text to the API)')
        blocks = _blocks(message)
        problems += _empty_texts(f"messages[{at}].content", blocks)
        for k, block in blocks:
            if block.get("type") == "tool_result":
                problems += _result_problems(f"messages[{at}].content[{k}]", block)
    return problems


def anthropic_no_blank_text(request: ModelRequest, declared: Declared) -> list[str]:
    """No text block of a message (outside a `tool_result`) and no string `content` of a message is
    whitespace only (SHOULD: the API answers "text content blocks must contain non-whitespace text");
    empty text is anthropic.no-empty-text's, a tool's own text tp-result-verbatim's."""
    problems: list[str] = []
    for at, message in enumerate(_wire_messages(request.json)):
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, str) and content and not content.strip():
            problems.append(f"messages[{at}].content {content!r} is whitespace only")
        for k, block in _blocks(message):
            text = block.get("text")
            if block.get("type") == "text" and isinstance(text, str) and text and not text.strip():
                problems.append(f"messages[{at}].content[{k}] is a text block of whitespace only: {text!r}")
    return problems


def anthropic_tool_name_pattern(request: ModelRequest, declared: Declared) -> list[str]:
    """Every client tool's `name` (a tool whose `type` is absent, null or `custom`) matches
    ^[a-zA-Z0-9_-]{1,128}$, the pattern of the published schema and of the API's 400."""
    body = request.json
    tools = body.get("tools") if isinstance(body, Mapping) else None
    return [
        f"tools[{i}].name {tool.get('name')!r} does not match {ANTHROPIC_TOOL_NAME.pattern}"
        for i, tool in enumerate(tools if isinstance(tools, list) else [])
        if isinstance(tool, Mapping)
        and tool.get("type") in (None, "custom")
        and not (isinstance(tool.get("name"), str) and ANTHROPIC_TOOL_NAME.fullmatch(tool["name"]))
    ]


INVARIANTS: dict[str, Probe] = {
    "wire.unique-function-names": unique_function_names,
    "wire.function-name-pattern": function_name_pattern,
    "wire.parameters-lowercase-types": lowercase_schema_types,
    "wire.parameters-valid-schema": parameters_valid_schema,
    "wire.tools-never-empty": tools_never_empty,
    "wire.no-tool-keys-without-tools": no_tool_keys_without_tools,
    "wire.tool-message-content": tool_message_content,
    "wire.tool-call-answered-once": every_call_answered_once,
    "wire.tool-answers-in-call-order": answers_in_call_order,
}

REQUEST_INVARIANTS: dict[str, RequestProbe] = {
    "wire.endpoint": endpoint,
    "wire.request-schema": request_schema,
    "responses.endpoint": responses_endpoint,
    "responses.request-schema": responses_request_schema,
    "responses.call-outputs-paired": call_outputs_paired,
    "responses.strict-parameters-strict-form": strict_tools_in_strict_form,
    "responses.previous-id-never-null": previous_id_never_null,
    "responses.references-resolve": references_resolve,
    "responses.chain-outputs-paired": chain_outputs_paired,
    "responses.unstored-never-referenced": unstored_never_referenced,
    "anthropic.endpoint": anthropic_endpoint,
    "anthropic.request-schema": anthropic_request_schema,
    "anthropic.results-paired": anthropic_results_paired,
    "anthropic.no-empty-text": anthropic_no_empty_text,
    "anthropic.no-blank-text": anthropic_no_blank_text,
    "anthropic.tool-name-pattern": anthropic_tool_name_pattern,
}


RECORDED: tuple[str, ...] = (*INVARIANTS, *REQUEST_INVARIANTS)

SHOWN_WITH_PARAMETERS: Final = frozenset({"wire.parameters-lowercase-types", "wire.parameters-valid-schema"})
"""The invariants that judge `parameters`: a tool is shown them only with its `parameters`."""


def shown_markers(check_id: str, body: Mapping[str, Any]) -> list[str]:
    """The markers (`<route>/<tool>`) of the tools one request body shows the body invariant `check_id`.

    A tool is shown when a function whose description carries its marker is offered, and, for the
    invariants that judge `parameters` (wire.parameters-valid-schema,
    wire.parameters-lowercase-types), when that function has `parameters`: a test built to show
    them a rich schema observed nothing of it otherwise (`Scenario.must_show`). Sorted, distinct.
    """
    if check_id not in INVARIANTS:
        raise KeyError(f"{check_id!r} is not a body invariant: only those judge offered tools")
    found: set[str] = set()
    for _, function in _functions(body):
        description = function.get("description")
        if check_id in SHOWN_WITH_PARAMETERS and "parameters" not in function:
            continue
        if isinstance(description, str):
            found.update(tag[len("[tp:") : -1] for tag in _MARKER.findall(description))
    return sorted(found)


def unshown(check_id: str, requests: Sequence[ModelRequest], markers: Sequence[str]) -> list[str]:
    """Those of `markers` that no request of `requests` (a JSON body, read through its chat view)
    shows the invariant `check_id` (`shown_markers`), in the order given."""
    if not markers:
        return []
    shown = {m for r in requests if isinstance(r.view, Mapping) for m in shown_markers(check_id, r.view)}
    return [marker for marker in markers if marker not in shown]


VIEW_NOTE: Final = "(in its chat view, CONTRACT.md §2) "
"""Leads each problem a body invariant finds in a request of another wire than chat (Responses,
Messages): the paths are the view's."""
"""Every invariant check ID, in the order a test records them."""


def unclaimed(capability: str | None, declared: Declared) -> list[str]:
    """What a requirement observed through a run needs that the candidate does not claim: its wire
    (`openai.chat`, `openai.responses`, `anthropic.messages`) or wire family (`model.*`: any wire;
    `openai.*`: either OpenAI wire), else a model wire and then its own capability (None: a model
    wire alone)."""
    if capability in (*WIRES, *FAMILIES):
        needed = [str(capability)]
    else:
        needed = [ANY_WIRE, *([capability] if capability is not None else [])]
    return [name for name in needed if not declared.claims(name)]


FAMILY_NAMES: Final = {ANY_WIRE: "a model wire", OPENAI_WIRE: "an OpenAI wire"}
"""How `unclaimed_message` spells each wire family out."""


def unclaimed_message(missing: Sequence[str]) -> str:
    """`the candidate does not claim ...` for what `unclaimed` returned (a family spelt out as its
    wires)."""
    names = [
        f"{FAMILY_NAMES[name]} ({' or '.join(FAMILIES[name])})" if name in FAMILIES else name
        for name in missing
    ]
    return f"the candidate does not claim {' or '.join(names)}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass(frozen=True)
class Verdict:
    """One invariant over one test's model requests: how many it judged, and every violation."""

    check: str
    #: Requests the invariant looked at.
    judged: int
    #: Requests a body invariant cannot look at (their body is no JSON object; wire.request-schema
    #: judges those); always 0 for a request invariant.
    not_judged: int
    #: (request `token#index`, its problems) of each violating request, in request order.
    violations: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def ok(self) -> bool:
        """No judged request violates the invariant."""
        return not self.violations

    def message(self) -> str:
        """`N of M requests violate: <every violating request>`, then every problem (requests sharing a
        problem on one line), then what was not judged."""
        verb = "violates" if len(self.violations) == 1 else "violate"
        lines = [f"{len(self.violations)} of {_plural(self.judged, 'request')} {verb}"]
        if self.violations:
            lines[0] += ": " + ", ".join(label for label, _ in self.violations)
        # A runtime offers the same tools in every request: one line per distinct problem keeps
        # every problem and every request in the message without repeating a tool's fault 40 times.
        where: dict[str, list[str]] = {}
        for label, problems in self.violations:
            for problem in problems:
                labels = where.setdefault(problem, [])
                if label not in labels:
                    labels.append(label)
        for problem, labels in where.items():
            noun = "request" if len(labels) == 1 else "requests"
            lines.append(f"{noun} {', '.join(labels)}: {problem}")
        if self.not_judged:
            lines.append(
                f"not judged: {_plural(self.not_judged, 'request')} whose body is not a JSON object "
                "(wire.request-schema judges those)"
            )
        return "\n".join(lines)

    def observation(self) -> dict[str, Any] | None:
        """The counts and each violating request's problems (None when none violates, as for any pass)."""
        if self.ok:
            return None
        return {
            "judged": self.judged,
            "not_judged": self.not_judged,
            "violating": {label: list(problems) for label, problems in self.violations},
        }


def judge(check_id: str, requests: Sequence[ModelRequest], declared: Declared) -> Verdict:
    """Run the invariant `check_id` over one test's recorded model requests."""
    found: list[tuple[ModelRequest, list[str]]]
    if check_id in REQUEST_INVARIANTS:
        request_probe = REQUEST_INVARIANTS[check_id]
        found = [(r, request_probe(r, declared)) for r in requests]
    else:
        probe = INVARIANTS[check_id]
        # Body probes read the chat view (ModelRequest.view): a wire-neutral probe judges every wire.
        # A Responses or Messages request's problems name the view's paths, and say so.
        found = [
            (
                r,
                [
                    VIEW_NOTE + problem if r.wire != "openai.chat" else problem
                    for problem in probe(r.view, declared)
                ],
            )
            for r in requests
            if isinstance(r.view, Mapping)
        ]
    return Verdict(
        check=check_id,
        judged=len(found),
        not_judged=len(requests) - len(found),
        violations=tuple((f"{r.token}#{r.index}", tuple(problems)) for r, problems in found if problems),
    )
