# ruff: noqa
"""Key presence, one-element membership in declared data, and branching on test parameters."""

from typing import Any

import pytest

from toolproof.plugin.scenario import ABSENT, Scenario


@pytest.mark.parametrize("value", [ABSENT, None])
def test_param_alternatives(tp: Scenario, value: Any) -> None:
    shown = "absent" if value in (ABSENT, None) else "other"
    offers = ["tools" in (r.json or {}) for r in tp.model_requests()]
    tp.expect("loop.cap-default", offers, [True, True], what=shown)


def test_declared_capability(tp: Scenario) -> None:
    if "loop.turn_cap" in tp.declared.capabilities:
        tp.expect("loop.cap-default", len(tp.tool_calls_received()), 3, what="w")
    else:
        tp.not_testable("loop.cap-default", "no cap")
