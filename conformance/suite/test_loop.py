"""The tool loop: how runs end (contracts/requirements/loop.yaml)."""

from __future__ import annotations

import pytest

from conformance.fakes import Call, Text
from conformance.scenario import Scenario


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_text_reply_completes_the_run(tp: Scenario) -> None:
    tp.script(Call("alpha/lookup", '{"q": "weather"}'), Text("  The answer is 42.\n"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    outcome = tp.run("What is the answer?")
    tp.expect_outcome(
        "loop.completed-output",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": "  The answer is 42.\n"},
        what="a tool round, then a text reply",
    )
