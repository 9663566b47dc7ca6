# ruff: noqa
"""Verdicts outside tp.expect*: no check is recorded, the report never sees them."""

import pytest

from toolproof.plugin.scenario import Scenario, tool_texts


def test_assert_on_output(tp: Scenario) -> None:
    outcome = tp.run("x")
    assert outcome.output == "42"  # flag: bare-assert


def test_assert_on_texts(tp: Scenario) -> None:
    texts = tool_texts(tp.model_bodies()[-1], tp.declared)
    assert texts == ["ok"], texts  # flag: bare-assert


def test_fail_and_raise(tp: Scenario) -> None:
    if tp.option("tool_content") == "string":
        pytest.fail("no")  # flag: bare-assert
    raise AssertionError("no")  # flag: bare-assert


def helper(tp: Scenario) -> None:
    calls = tp.tool_calls_received()
    assert len(calls) == 1  # flag: bare-assert
