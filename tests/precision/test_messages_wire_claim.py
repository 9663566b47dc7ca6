"""A candidate claiming `anthropic.messages` is judged through the suite (contract v7, issue 25 §1).

The fauxmplementation `anthropic_text` speaks the Messages API with the official client, with
CONFIG's base_url (no `/v1` on this wire) and key as a user passes them: the suite serves it,
`proto.model-settings-from-config` reads its path, model, `x-api-key` and instruction, and an
`openai.*` requirement (argument text the Messages API cannot carry) reads `not_claimed` with the
family spelt out, never a failure."""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

SELECTION = "test_model_request_uses_configured_model_and_key or test_null_arguments_go_the_declared_way"


def test_a_messages_candidate_is_served_and_judged_and_openai_format_checks_are_not_claimed(
    tmp_path: Path,
) -> None:
    code, report = toolproof_run(tmp_path, "py:anthropic_text:bearer", "-k", SELECTION)
    rows = {row["id"]: row for row in report["checks"]}
    assert (rows["proto.model-settings-from-config"]["status"], code) == ("pass", 0)
    assert (rows["args.null-per-option"]["status"], rows["args.null-per-option"]["message"]) == (
        "not_claimed",
        "the candidate does not claim an OpenAI wire (openai.chat or openai.responses)",
    )
    assert {check: rows[check]["status"] for check in ("wire.endpoint", "responses.endpoint")} == {
        "wire.endpoint": "not_claimed",
        "responses.endpoint": "not_claimed",
    }
    assert rows["wire.parameters-valid-schema"]["capability"] == "model.*"


@pytest.mark.parametrize(("factory", "status"), [("x_api_key", "pass"), ("bearer_undeclared", "fail")])
def test_the_key_goes_in_the_declared_header(tmp_path: Path, factory: str, status: str) -> None:
    _, report = toolproof_run(
        tmp_path, f"py:anthropic_text:{factory}", "-k", "test_model_request_uses_configured_model_and_key"
    )
    rows = {row["id"]: row for row in report["checks"]}
    assert rows["proto.model-settings-from-config"]["status"] == status
    if status == "fail":
        assert "$[0].x-api-key: expected 1 items got 0" in rows["proto.model-settings-from-config"]["message"]
