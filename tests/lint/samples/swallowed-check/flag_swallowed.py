# ruff: noqa
"""Verdicts whose failure is caught and dropped."""

import contextlib

import pytest

from toolproof.judge.checks import CheckFailed
from toolproof.plugin.scenario import Scenario


def test_expect_in_try(tp: Scenario) -> None:
    outcome = tp.run("x")
    try:  # flag: swallowed-check
        tp.expect_outcome("loop.completed-output", outcome, {"ok": True}, what="w")
    except CheckFailed:
        pass


def test_assert_in_broad_try(tp: Scenario) -> None:
    try:  # flag: swallowed-check
        assert tp.run("x").ok  # flag: bare-assert
    except Exception:
        tp.not_testable("loop.completed-output", "the run failed")


def test_suppressed(tp: Scenario) -> None:
    with contextlib.suppress(AssertionError):  # flag: swallowed-check
        tp.expect("loop.completed-output", tp.run("x").output, "42", what="w")


def test_raises_assertion(tp: Scenario) -> None:
    with pytest.raises(AssertionError):  # flag: swallowed-check
        tp.expect("loop.completed-output", tp.run("x").output, "42", what="w")
