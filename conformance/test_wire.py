"""The chat-completions wire format (CONTRACT.md §6; contracts/requirements/wire.yaml).

The invariants of §6 (endpoint, request schema, names, parameters, tool
content, answers) run on every request of every test (toolproof/judge/invariants.py);
the tests here set up what they need to be observable and hold the checks that
need a specific CONFIG: the tools offered, descriptions, schema meaning and
invalid tool names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from jsonschema import Draft202012Validator

from toolproof.fakes import NAMES_LONG_TOOL, NAMES_LONG_TWIN, Call, Text, ToolCalls
from toolproof.fakes.mcp_tools import INVALID_INPUT_SCHEMA_MARKERS, STATIC_ROUTES
from toolproof.judge.contract_files import contracts_dir
from toolproof.plugin.draws import run_drawn
from toolproof.plugin.scenario import Scenario, offered_tools, tool_texts, wire_name_for
from toolproof.strategies.schemas import INSTANCES, tool_instances

MARKER = re.compile(r"\[tp:[^\]]*\]")
WIRE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")

# Every marked tool of alpha and shapes (alpha's no_description_tool carries no marker: it
# cannot be told apart from functions a runtime offers of its own accord, which are silent).
OFFERED_MARKERS = [
    "[tp:alpha/crash_close]",
    "[tp:alpha/crash_http]",
    "[tp:alpha/echo_text]",
    "[tp:alpha/lookup]",
    "[tp:alpha/multi_block]",
    "[tp:alpha/nested_args]",
    "[tp:alpha/output_send__qq]",
    "[tp:alpha/report_error]",
    "[tp:alpha/structured]",
    "[tp:shapes/long_description]",
    "[tp:shapes/schema_refs]",
]
CORPORA = ("lookup", "multi_block", "nested_args", "schema_refs")
# parameters_strict (contracts/options.yaml): the literal schema whose meaning parameters keeps is the
# inputSchema under false, else the golden file of that variant (hand-written from the option's rule).
STRICT_VARIANTS = {True: "strict", "closed": "closed", "closed_root": "closed_root"}


def mcp_description(marker: str) -> str | None:
    """The description the fake MCP server lists for the tool `<route>/<tool>` (the input)."""
    route, _, name = marker.partition("/")
    return next(spec.description for spec in STATIC_ROUTES[route] if spec.name == name)


def mcp_input_schema(marker: str) -> dict[str, Any]:
    """The inputSchema the fake MCP server lists for the tool `<route>/<tool>` (the input)."""
    route, _, name = marker.partition("/")
    return dict(next(spec.input_schema for spec in STATIC_ROUTES[route] if spec.name == name))


def markers_offered(body: Any) -> list[str]:
    """Every marker in the descriptions of one request's tools, sorted (order is silent)."""
    if not isinstance(body, Mapping):
        return ["<body is not a JSON object>"]
    found = []
    for tool in offered_tools(body):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        description = function.get("description") if isinstance(function, Mapping) else None
        found += MARKER.findall(description) if isinstance(description, str) else []
    return sorted(found)


def functions_for(body: Mapping[str, Any], marker: str) -> list[Mapping[str, Any]]:
    """The `function` objects of the offered tools whose description carries `[tp:<marker>]`."""
    tag = f"[tp:{marker}]"
    out = []
    for tool in offered_tools(body):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if isinstance(function, Mapping) and tag in str(function.get("description") or ""):
            out.append(function)
    return out


def description_seen(body: Any, marker: str) -> Any:
    """The MCP description when the one tool carrying `marker` contains it verbatim; else what was sent."""
    expected = mcp_description(marker)
    functions = functions_for(body, marker) if isinstance(body, Mapping) else []
    if len(functions) != 1:
        return f"<{len(functions)} offered tools carry the marker>"
    sent = functions[0].get("description")
    return expected if isinstance(sent, str) and expected is not None and expected in sent else sent


def verdict(parameters: Any, instance: Any) -> Any:
    """Whether `instance` is valid against `parameters` (draft 2020-12), or why that cannot be said."""
    if not isinstance(parameters, Mapping):
        return f"<parameters is {parameters!r}>"
    return verdict_of(Draft202012Validator(dict(parameters)), instance)


def verdict_of(validator: Draft202012Validator, instance: Any) -> Any:
    """`validator.is_valid(instance)`, or why that cannot be said."""
    try:
        return validator.is_valid(instance)
    except Exception as exc:  # an unresolvable $ref, an unknown type, ...: the meaning is lost
        return f"<validation raised {type(exc).__name__}: {str(exc)[:200]}>"


def parameters_for(body: Mapping[str, Any], marker: str) -> Any:
    """The `parameters` of the one tool carrying `marker` (a `<...>` note when there is not one)."""
    functions = functions_for(body, marker)
    if len(functions) != 1:
        return f"<{len(functions)} offered tools carry [tp:{marker}]>"
    return functions[0].get("parameters", "<no parameters key>")


def strict_variant(declared: Any) -> str | None:
    """The variant of a declared parameters_strict (its golden files and corpus key); None for false."""
    return None if declared is False else STRICT_VARIANTS[declared]


def validity_key(variant: str | None) -> str:
    """The key of a corpus instance's literal verdict under `variant` (`valid`: under inputSchema)."""
    return "valid" if variant is None else f"valid_{variant}"


def meaning_schema(marker: str, variant: str | None) -> dict[str, Any]:
    """The schema `parameters` must mean for the tool `<route>/<tool>`: its inputSchema under false,
    else the literal golden file contracts/cases/schema_meaning_variants/<variant>/<route>__<tool>.json."""
    if variant is None:
        return mcp_input_schema(marker)
    name = marker.replace("/", "__")
    path = contracts_dir() / "cases" / "schema_meaning_variants" / variant / f"{name}.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def load_corpus(name: str) -> dict[str, Any]:
    """One literal corpus of contracts/cases/schema_meaning/."""
    path = contracts_dir() / "cases" / "schema_meaning" / f"{name}.json"
    corpus: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return corpus


def served_valid(marker: str) -> bool:
    """Whether the fake MCP server sends the tool `<route>/<tool>` a valid inputSchema.

    wire.schema-meaning judges only those tools: a corpus whose marker names a tool served with
    `input_schema_valid=False` (Gemini-style upper-case types) is skipped, since the meaning of a
    schema the server itself sends broken is not the runtime's to keep (how it is repaired is
    tp-wire-schema-repair's). Today no corpus names one, and no tool of INSTANCES
    (wire.schema-meaning-generated) does either: tests/wire/test_schema_meaning_corpus.py pins both.
    """
    return f"[tp:{marker}]" not in INVALID_INPUT_SCHEMA_MARKERS


@pytest.mark.checks("wire.tools-offered", "wire.description-verbatim")
@pytest.mark.capability("model.*")
def test_every_tool_is_offered_once_with_its_description(tp: Scenario) -> None:
    # The build that shows the schema invariants the rich schemas of `shapes` ($defs/$ref, oneOf,
    # const data, a boolean subschema): when they never reach `parameters` (the build failed or
    # hung, the tools were dropped), those invariants are undecided here, not passed on the simple
    # schemas of other tests (issue 22 §4).
    for check_id in ("wire.parameters-valid-schema", "wire.parameters-lowercase-types"):
        tp.must_show(check_id, "shapes/schema_refs", "shapes/long_description")
    tp.script(
        ToolCalls((Call("alpha/lookup", '{"q": "a"}'), Call("shapes/long_description", '{"topic": "b"}'))),
        Text("done"),
    )
    tp.build(tp.config({"alpha": tp.server("alpha"), "shapes": tp.server("shapes")}))
    tp.run("Use two tools.")
    requests = tp.model_requests()
    tp.expect(
        "wire.tools-offered",
        [markers_offered(r.view) for r in requests],
        [OFFERED_MARKERS for _ in requests],  # one batch, then text: within the scenario's cap
        what="markers of the tools offered in each model request (sorted: order is silent)",
    )
    described = [m.strip("[]").removeprefix("tp:") for m in OFFERED_MARKERS]
    tp.expect(
        "wire.description-verbatim",
        [{m: description_seen(r.view, m) for m in described} for r in requests],
        [{m: mcp_description(m) for m in described} for _ in requests],
        what="per request: the MCP description when function.description contains it verbatim",
    )


PAGED_MARKERS = ["[tp:paged/page_one_a]", "[tp:paged/page_one_b]", "[tp:paged/page_two_a]"]


@pytest.mark.checks("wire.tools-offered")
@pytest.mark.capability("model.*")
def test_every_page_of_a_paged_tool_list_is_offered(tp: Scenario) -> None:
    # The `paged` server answers tools/list two tools at a time, with a nextCursor.
    tp.script(Text("done"))
    tp.build(tp.config({"paged": tp.server("paged")}))
    tp.run("Anything?")
    tp.expect(
        "wire.tools-offered",
        [markers_offered(r.view) for r in tp.model_requests()],
        [PAGED_MARKERS],
        what="markers offered in the one model request (the server's tool list has two pages)",
    )


@pytest.mark.checks("wire.tools-offered")
@pytest.mark.capability("model.*")
def test_no_server_offers_no_tool(tp: Scenario) -> None:
    tp.script(Text("nothing to use"))
    tp.build(tp.config({}))
    outcome = tp.run("Anything?", judged=True)
    tp.expect_outcome("wire.tools-offered", outcome, {"ok": True}, what="a run without servers")
    tp.expect(
        "wire.tools-offered",
        [markers_offered(r.view) for r in tp.model_requests()],
        [[]],
        what="markers offered when CONFIG has no server",
    )


def _meaning_build(tp: Scenario) -> Mapping[str, Any]:
    """Build with alpha and shapes, run once; the first model request's body."""
    tp.script(Text("done"))
    tp.build(tp.config({"alpha": tp.server("alpha"), "shapes": tp.server("shapes")}))
    tp.run("Just answer.")
    bodies = [r.view for r in tp.model_requests()]
    return bodies[0] if bodies and isinstance(bodies[0], Mapping) else {}


@pytest.mark.checks("wire.schema-meaning")
@pytest.mark.capability("model.*")
def test_parameters_keep_the_meaning_of_input_schema(tp: Scenario) -> None:
    body = _meaning_build(tp)
    declared = tp.option("parameters_strict")
    key = validity_key(strict_variant(declared))
    observed: dict[str, dict[str, Any]] = {}
    expected: dict[str, dict[str, Any]] = {}
    for corpus in [load_corpus(name) for name in CORPORA]:
        if not served_valid(corpus["marker"]):
            continue
        parameters = parameters_for(body, corpus["marker"])
        cases = corpus["instances"]
        observed[corpus["marker"]] = {c["case"]: verdict(parameters, c["instance"]) for c in cases}
        expected[corpus["marker"]] = {c["case"]: c[key] for c in cases}
    tp.expect(
        "wire.schema-meaning",
        observed,
        expected,
        what=f"validity of each corpus instance against the parameters sent (expected: its `{key}`, "
        f"declared parameters_strict {json.dumps(declared)})",
    )


@pytest.mark.checks("wire.schema-meaning-generated")
@pytest.mark.capability("model.*")
def test_parameters_classify_generated_instances_as_input_schema(tp: Scenario) -> None:
    body = _meaning_build(tp)
    declared = tp.option("parameters_strict")
    variant = strict_variant(declared)
    parameters = {marker: parameters_for(body, marker) for marker in INSTANCES}
    sent = {m: Draft202012Validator(dict(p)) for m, p in parameters.items() if isinstance(p, Mapping)}
    oracles = {marker: Draft202012Validator(meaning_schema(marker, variant)) for marker in INSTANCES}
    declared_text = json.dumps(declared)
    meaning = "inputSchema" if variant is None else f"the {variant} golden schema ({declared_text} declared)"

    @settings(report_multiple_bugs=False, database=None)
    @given(tool_instances())
    def agree(case: tuple[str, Any]) -> None:
        marker, instance = case
        wire = verdict_of(sent[marker], instance) if marker in sent else parameters[marker]
        # Each example decides the check on its own instance: a disagreement fails the example when it
        # ends (Hypothesis prints it), and under --toolproof-explore an exploration's find is labelled.
        tp.expect(
            "wire.schema-meaning-generated",
            {"tool": marker, "instance": instance, "parameters say valid": wire},
            # the oracle: validity under meaning_schema
            {
                "tool": marker,
                "instance": instance,
                "parameters say valid": oracles[marker].is_valid(instance),
            },
            what=f"a generated instance: valid under the parameters sent exactly when valid under {meaning}",
        )

    run_drawn(agree)  # on the run's seeds (toolproof.plugin.draws)


# tp-wire-schema-repair: the inputSchema of gemini/upper_case_types (toolproof/fakes/mcp_tools.py,
# GEMINI_SCHEMA) with every type name lower-cased, the type list too, and nothing else changed: enum,
# default and description values are data and keep their case; the boolean subschema stays `true`.
REPAIRED_GEMINI_PARAMETERS = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "What to search for."},
        "filters": {
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string", "enum": ["NEWS", "BLOG"]}},
                "limit": {"type": "integer", "default": 10},
            },
        },
        "mode": {"anyOf": [{"type": "string", "enum": ["FAST", "DEEP"]}, {"type": "null"}]},
        "scores": {"type": "array", "items": {"type": "number"}},
        "strict": {"type": "boolean"},
        "labels": {"type": ["string", "null"]},
        "anything": True,
    },
    "required": ["query"],
}


@pytest.mark.checks("wire.upper-case-types-repaired")
@pytest.mark.capability("model.*")
def test_upper_case_types_of_a_server_are_lowercased(tp: Scenario) -> None:
    # Only the `gemini` route: its one tool is the harness's only invalid inputSchema (the schema
    # invariants skip it; a runtime passing it through fails this SHOULD alone). A runtime that
    # refuses to build with it fails this SHOULD too, never the MUST precondition: a server's broken
    # input is not the runtime's defect (CONTRACT.md §6 item 13), so the build is this check's.
    tp.script(Text("done"))
    built = tp.build(tp.config({"gemini": tp.server("gemini")}), judged=True)
    tp.expect_outcome(
        "wire.upper-case-types-repaired",
        built,
        {"ok": True},
        what="the build with a server whose own inputSchema has upper-case types (repaired, not refused)",
    )
    ran = tp.run("Just answer.", judged=True)
    tp.expect_outcome(
        "wire.upper-case-types-repaired",
        ran,
        {"ok": True},
        what="a run offering the tool of a server whose own inputSchema has upper-case types",
    )
    tp.expect(
        "wire.upper-case-types-repaired",
        [
            parameters_for(r.view, "gemini/upper_case_types") if isinstance(r.view, Mapping) else "<not JSON>"
            for r in tp.model_requests()
        ],
        [REPAIRED_GEMINI_PARAMETERS],
        what="parameters of the tool carrying [tp:gemini/upper_case_types] in the one model request",
    )


ONE_VALID_NAME = "one offered tool, under a valid wire name"


@dataclass(frozen=True)
class NameCase:
    """One build offering invalid MCP names (tp-wire-invalid-tool-name): its servers (server id ->
    route), the tools (markers) in the order the first run calls them, what each call returns, and
    the MCP names each route must receive, in that order."""

    servers: dict[str, str]
    tools: tuple[str, ...]
    results: tuple[str, ...]
    received: dict[str, list[str]]


SHUTDOWN = "balda.control.shutdown"
# One kind of invalid name per build (issue 22 §4): a runtime that refuses one is judged on the
# others in builds of their own, and wire.function-name-pattern sees each reach a request.
NAME_CASES: dict[str, NameCase] = {
    "dotted": NameCase(
        servers={"names": "names_dotted"},
        tools=(f"names_dotted/{SHUTDOWN}",),
        results=("shutdown refused",),
        received={"names_dotted": [SHUTDOWN]},
    ),
    "long": NameCase(
        servers={"names": "names_long"},
        tools=(f"names_long/{NAMES_LONG_TOOL}",),
        results=("long ok",),
        received={"names_long": [NAMES_LONG_TOOL]},
    ),
    # Two 70-character names sharing their first 64 characters, on one server and on two: aliases
    # made by truncating (the whole name, or `<server>_<tool>`) collide unless the runtime keeps
    # them apart, within one server or across servers.
    "long-pair": NameCase(
        servers={"names": "names_pair"},
        tools=(f"names_pair/{NAMES_LONG_TOOL}", f"names_pair/{NAMES_LONG_TWIN}"),
        results=("long ok", "twin ok"),
        received={"names_pair": [NAMES_LONG_TOOL, NAMES_LONG_TWIN]},
    ),
    "long-pair-apart": NameCase(
        servers={"first": "names_long", "second": "names_twin"},
        tools=(f"names_long/{NAMES_LONG_TOOL}", f"names_twin/{NAMES_LONG_TWIN}"),
        results=("long ok", "twin ok"),
        received={"names_long": [NAMES_LONG_TOOL], "names_twin": [NAMES_LONG_TWIN]},
    ),
}
REJECT_CASES = ("dotted", "long")
"""The reject runs: each kind of invalid name alone (a pair adds nothing a long name does not)."""


def _names_config(tp: Scenario, case: NameCase) -> dict[str, Any]:
    return tp.config({server: tp.server(route) for server, route in case.servers.items()})


def _names_seen(bodies: list[Any], markers: tuple[str, ...]) -> dict[str, list[list[str]]]:
    """Per invalid-name marker: the wire names carrying it, request by request."""
    return {
        marker: [wire_name_for(b, marker) if isinstance(b, Mapping) else [] for b in bodies]
        for marker in markers
    }


def _offered_validly(names: list[str]) -> Any:
    """ONE_VALID_NAME when exactly one valid wire name carries the marker; else those names."""
    return ONE_VALID_NAME if len(names) == 1 and WIRE_NAME.fullmatch(names[0]) else names


@pytest.mark.checks(
    "wire.invalid-name-alias-offered", "wire.invalid-name-alias-stable", "wire.invalid-name-maps-back"
)
@pytest.mark.capability("openai.*")
@pytest.mark.parametrize("case", list(NAME_CASES))
def test_invalid_tool_names_get_a_stable_alias(tp: Scenario, case: str) -> None:
    checks = (
        "wire.invalid-name-alias-offered",
        "wire.invalid-name-alias-stable",
        "wire.invalid-name-maps-back",
    )
    if tp.option("invalid_tool_name") != "alias":
        for check in checks:
            tp.not_testable(check, "invalid_tool_name is declared reject (see wire.invalid-name-reject)")
        return
    names = NAME_CASES[case]
    # Built to show the name invariants these tools: without them offered, a pass of the name
    # pattern would rest on valid names other tests happened to offer.
    tp.must_show("wire.function-name-pattern", *names.tools)
    if len(names.tools) > 1:  # the pairs: their aliases must stay apart
        tp.must_show("wire.unique-function-names", *names.tools)
    tp.script(*(Call(marker) for marker in names.tools), Text("first done"), Text("second done"))
    tp.build(_names_config(tp, names))
    # Every run is judged (alias-stable, maps-back): a failed one is their observation, and the
    # offered-alias check still reads the requests that were made.
    first = tp.run("Use each tool once.", judged=True)
    second = tp.run(
        "Anything else?", judged=True
    )  # a second run of the build: its request offers the tools again
    other = tp.sibling()  # a second build of the same CONFIG (its own token)
    other.script(Text("other done"))
    other.build(_names_config(other, names))
    third = other.run("Anything?", judged=True)
    bodies = [r.view for r in tp.model_requests() + other.model_requests()]
    seen = _names_seen(bodies, names.tools)
    tp.expect(
        "wire.invalid-name-alias-offered",
        {m: [_offered_validly(wire) for wire in per] for m, per in seen.items()},
        {m: [ONE_VALID_NAME] * len(bodies) for m in names.tools},
        what="per request, the offered tools carrying each marker",
    )
    tp.expect_outcome("wire.invalid-name-alias-stable", second, {"ok": True}, what="second run on the build")
    tp.expect_outcome("wire.invalid-name-alias-stable", third, {"ok": True}, what="run on the second build")
    tp.expect(
        "wire.invalid-name-alias-stable",
        {m: sorted({name for wire in per for name in wire}) for m, per in seen.items()},
        {m: per[0] for m, per in seen.items()},
        what="wire names of each tool over both runs of one build and a second build",
    )
    tp.expect_outcome(
        "wire.invalid-name-maps-back",
        first,
        {"ok": True, "stop_reason": "completed", "output": "first done"},
        what=f"first run (calls each aliased tool once: {', '.join(names.tools)})",
    )
    tp.expect(
        "wire.invalid-name-maps-back",
        {
            route: [r.rpc_params.get("name") for r in tp.tool_calls_received(route)]
            for route in names.received
        },
        names.received,
        what="per route, the tool names of the tools/call requests it received",
    )
    answered = tp.model_bodies()
    tp.expect(
        "wire.invalid-name-maps-back",
        [
            tool_texts(answered[k], tp.declared)[-1:] if k < len(answered) else "<no request>"
            for k in range(1, len(names.tools) + 1)
        ],
        [[result] for result in names.results],
        what="the result the model received for each call of the first run, in call order",
    )


@pytest.mark.checks("wire.invalid-name-reject")
@pytest.mark.capability("openai.*")
@pytest.mark.parametrize("case", REJECT_CASES)
def test_invalid_tool_names_are_rejected_when_declared(tp: Scenario, case: str) -> None:
    if tp.option("invalid_tool_name") != "reject":
        tp.not_testable(
            "wire.invalid-name-reject", "invalid_tool_name is declared alias (see wire.invalid-name-*)"
        )
        return
    tp.script(Text("never asked"))
    build = tp.build(_names_config(tp, NAME_CASES[case]), judged=True)
    if tp.option("duplicate_tool_phase") == "build":
        # Run before judging: a build that wrongly succeeds then offers the invalid name, and
        # the whole-suite invariants (wire.function-name-pattern) see it. After the expected
        # failed build this is a run on a dead id (proto.unknown-build-id judges that).
        tp.run("Use the tool.", judged=True)
        tp.expect_outcome(
            "wire.invalid-name-reject", build, {"ok": False, "kind": "invalid_config"}, what="build"
        )
    else:
        tp.expect_outcome("wire.invalid-name-reject", build, {"ok": True}, what="build (phase run)")
        tp.expect_outcome(
            "wire.invalid-name-reject",
            tp.run("Use the tool.", judged=True),
            {"ok": False, "kind": "invalid_config"},
            what="first run (phase run)",
        )
    tp.expect("wire.invalid-name-reject", len(tp.model_requests()), 0, what="model requests of the build")
