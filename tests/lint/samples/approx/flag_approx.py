# ruff: noqa
"""Comparing within a tolerance."""

import math

import pytest

from toolproof.plugin.scenario import Scenario


def test_approx(tp: Scenario) -> None:
    count = len(tp.tool_calls_received())
    tp.expect("loop.cap-exact", count == pytest.approx(3, abs=1), True, what="w")  # flag: approx


def test_isclose(tp: Scenario) -> None:
    tp.expect("loop.cap-exact", math.isclose(len(tp.model_requests()), 3.0), True, what="w")  # flag: approx
