"""The tool catalogue of the fake MCP servers says which inputSchemas it serves invalid, exactly."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from toolproof.fakes.mcp_tools import (
    ARGUMENT_KEYS,
    INVALID_INPUT_SCHEMA_MARKERS,
    ODD_KEYS,
    STATIC_ROUTES,
    RequestView,
    ToolSpec,
    marker,
    tenant_tools,
)


def metaschema_valid(spec: ToolSpec) -> bool:
    try:
        Draft202012Validator.check_schema(dict(spec.input_schema))
    except SchemaError:
        return False
    return True


SPECS = [(route, spec) for route, specs in STATIC_ROUTES.items() for spec in specs]


@pytest.mark.parametrize(("route", "spec"), SPECS, ids=[f"{r}/{s.name}" for r, s in SPECS])
def test_input_schema_valid_says_what_the_metaschema_says(route: str, spec: ToolSpec) -> None:
    assert spec.input_schema_valid is metaschema_valid(spec)


def test_the_one_invalid_input_schema_is_gemini_style_on_a_route_of_its_own() -> None:
    assert sorted(INVALID_INPUT_SCHEMA_MARKERS) == ["[tp:gemini/upper_case_types]"]
    assert [spec.name for spec in STATIC_ROUTES["gemini"]] == ["upper_case_types"]
    # Every other route serves valid schemas only: the tests that build with them are judged by the
    # MUST invariants of tp-wire-parameters-json-schema on every tool they offer.
    assert [(r, s.name) for r, s in SPECS if r != "gemini" and not s.input_schema_valid] == []


def test_an_invalid_tool_carries_its_marker() -> None:
    (spec,) = STATIC_ROUTES["gemini"]
    assert spec.description is not None
    assert spec.description.endswith(marker("gemini", "upper_case_types"))


def test_tenant_tools_serve_valid_schemas() -> None:
    view = RequestView(token="t", route="tenant", query="tenant=a", headers=(("authorization", "Bearer b"),))
    assert [s.name for s in tenant_tools(view) if not metaschema_valid(s) or not s.input_schema_valid] == []


def test_argument_routes_keep_odd_property_names_apart() -> None:
    # Issue 22 §4: every argument check builds with `fidelity`, so it declares plain identifiers
    # only; the odd names are declared on routes that only the checks needing them build.
    fidelity = [key for spec in STATIC_ROUTES["fidelity"] for key in spec.input_schema["properties"]]
    assert [key for key in fidelity if not (key.isidentifier() and key.isascii() and key[0] != "_")] == []
    (odd,) = STATIC_ROUTES["oddkeys"]
    assert tuple(odd.input_schema["properties"]) == ODD_KEYS
    assert [key for key in ODD_KEYS if key.isidentifier() and key.isascii() and key[0] != "_"] == [
        "Key",
        "key",
        "class",
        "type",
        "properties",
        "null",
        "true",
    ]
    (raw,) = STATIC_ROUTES["rawkeys"]
    assert tuple(raw.input_schema["properties"]) == ("raw", "_raw", "value", "INVALID_JSON", "a", "k")


def test_the_argument_tests_send_only_declared_keys() -> None:
    # A runtime that forwards only declared properties is judged on decoding (tp-args-object).
    from toolproof.conformance import test_arguments as suite

    assert [key for key in suite.OBJECT if key not in ARGUMENT_KEYS] == []
    assert list(suite.ODD_OBJECT) == list(ODD_KEYS)
    # Two declared keys and two undeclared ones (tp-args-undeclared-keys).
    assert [key in ARGUMENT_KEYS for key in suite.DECLARED_AND_UNDECLARED] == [True, True, False, False]
