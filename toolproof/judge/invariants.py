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
from functools import cache, lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from toolproof.fakes.model_server import CHAT_PATH
from toolproof.fakes.records import ModelRequest
from toolproof.judge.contract_files import load_json
from toolproof.judge.declared import Declared

Probe = Callable[[Mapping[str, Any], Declared], list[str]]
RequestProbe = Callable[[ModelRequest, Declared], list[str]]
WIRE_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
REQUEST_SCHEMA = "wire/chat-completions-request.json"


def _functions(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    tools = body.get("tools")
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        yield index, function if isinstance(function, Mapping) else {}


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
    """Every `type` in every `parameters` (at any depth) is a lowercase JSON Schema type name."""
    problems = []
    for i, function in _functions(body):
        for where, value in _types(function.get("parameters"), f"tools[{i}].function.parameters"):
            names = value if isinstance(value, list) else [value]
            for name in names:
                if not isinstance(name, str) or name != name.lower():
                    problems.append(f"{where} is {name!r}: JSON Schema type names are lowercase")
    return problems


@lru_cache(maxsize=4096)
def _metaschema_problem(parameters_json: str) -> str | None:
    """Where the schema (as canonical JSON text) breaks the 2020-12 metaschema, or None.

    Memoised: a runtime offers the same tools in every request of a run, and the metaschema
    check is the most expensive thing the harness does per request.
    """
    try:
        Draft202012Validator.check_schema(json.loads(parameters_json))
    except SchemaError as exc:
        where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in exc.absolute_path)
        return f"{where}: {exc.message}"
    return None


def parameters_valid_schema(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every `parameters` is a valid JSON Schema (2020-12 metaschema)."""
    problems = []
    for i, function in _functions(body):
        if "parameters" not in function:
            continue
        problem = _metaschema_problem(json.dumps(function["parameters"], sort_keys=True, ensure_ascii=False))
        if problem is not None:
            problems.append(f"tools[{i}].function.parameters{problem}")
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
def _request_validator() -> Draft202012Validator:
    schema = load_json(REQUEST_SCHEMA)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _where(path: Sequence[Any]) -> str:
    return "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in path) or "(body)"


def request_schema(request: ModelRequest, declared: Declared) -> list[str]:
    """The body is valid against the pinned chat-completions request schema (contracts/wire/)."""
    if not isinstance(request.json, Mapping):
        return [f"the body is not a JSON object: {request.body[:200]!r}"]
    problems = []
    for error in _request_validator().iter_errors(request.json):
        # The deepest failing branch names the offending key best.
        best = min(error.context or [error], key=lambda e: -len(e.absolute_path))
        problems.append(f"{_where(best.absolute_path)}: {best.message[:300]}")
    return problems


def endpoint(request: ModelRequest, declared: Declared) -> list[str]:
    """POST to exactly `<base_url>/chat/completions` (no query added), with `stream` absent or false."""
    problems = []
    expected_path = f"/{request.token}{CHAT_PATH}"  # base_url is http://host:port/<token>/v1
    if request.method != "POST":
        problems.append(f"method is {request.method}, not POST")
    if request.path != expected_path or request.query != "":
        target = request.path + (f"?{request.query}" if request.query else "")
        problems.append(f"request went to {target!r}, not {expected_path!r}")
    body = request.json
    if isinstance(body, Mapping) and "stream" in body and body["stream"] is not False:
        problems.append(f"stream is {body['stream']!r}: only non-streaming requests (absent or false)")
    return problems


def _tool_messages(body: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    messages = body.get("messages")
    for index, message in enumerate(messages if isinstance(messages, list) else []):
        if isinstance(message, Mapping) and message.get("role") == "tool":
            yield index, message


def tool_message_content(body: Mapping[str, Any], declared: Declared) -> list[str]:
    """Every tool message has `content`, never null, of the declared `tool_content` shape."""
    shape = declared.option("tool_content")
    problems = []
    for index, message in _tool_messages(body):
        where = f"messages[{index}]"
        if "content" not in message:
            problems.append(f"{where} (role tool) has no content key")
            continue
        content = message["content"]
        if shape == "string" and not isinstance(content, str):
            problems.append(f"{where}.content is {type(content).__name__}, declared tool_content is string")
        if shape == "text_parts" and not (
            isinstance(content, list)
            and all(
                isinstance(p, Mapping)
                and p.get("type") == "text"
                and isinstance(p.get("text"), str)
                and set(p) == {"type", "text"}
                for p in content
            )
        ):
            problems.append(
                f"{where}.content is not an array of text parts (declared tool_content text_parts)"
            )
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
}


def evaluate(
    bodies: list[tuple[str, int, Any]], declared: Declared, requests: Sequence[ModelRequest] = ()
) -> dict[str, list[str]]:
    """Run every invariant: body probes over (token, index, body) triples, request probes over
    the recorded requests (none given: reported with no problems); problems per check ID."""
    out: dict[str, list[str]] = {}
    for check_id, probe in INVARIANTS.items():
        problems: list[str] = []
        for token, index, body in bodies:
            if isinstance(body, Mapping):
                problems.extend(f"request {token}#{index}: {p}" for p in probe(body, declared))
        out[check_id] = problems
    for check_id, request_probe in REQUEST_INVARIANTS.items():
        out[check_id] = [
            f"request {r.token}#{r.index}: {p}" for r in requests for p in request_probe(r, declared)
        ]
    return out
