# ruff: noqa
"""The harness's own modules are fine; a candidate is reached through tp.build/tp.run."""

from toolproof.connect.candidate import Outcome
from toolproof.plugin.scenario import Scenario


def test_public(tp: Scenario) -> None:
    outcome: Outcome = tp.build(tp.config({}))
    tp.expect_outcome("dedup.balda-scoped-only", outcome, {"ok": True}, what="w")
