"""`turn_cap_final_call: true` (request N+1 after the cap, tools withheld as
`turn_cap_final_call_tools` declares): no bundled runtime makes that request, so the suite's
final-call branch is shown here to pass when declared and acted out, and to fail when acted out
undeclared, declared and not acted out, or withheld the other way.

An undeclared final call meets the scripted runaway model with no tool offered; the harness
answers it 400 ("no offered tool carries marker"), so the counting checks of those tests are
undecided behind the failed precondition, while the cap-end checks fail on their own scenarios.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

SELECTION = "test_cap_end or test_runaway_model_gets_exactly_n_batches or test_absent_or_null_cap"
CHECKS = (
    "loop.cap-default",
    "loop.cap-end-blank",
    "loop.cap-end-text",
    "loop.cap-exact",
    "proto.valid-config-builds-and-runs",
)
ALL_PASS = dict.fromkeys(CHECKS, "pass")


@pytest.mark.parametrize(
    ("factory", "statuses"),
    [
        ("final_call_omit", ALL_PASS),
        ("final_call_tool_choice_none", ALL_PASS),
        (
            "final_call_withheld_the_other_way",
            {**ALL_PASS, "loop.cap-default": "fail", "loop.cap-exact": "fail"},
        ),
        (
            "final_call_undeclared",
            {
                "loop.cap-default": "undecided",
                "loop.cap-end-blank": "fail",
                "loop.cap-end-text": "fail",
                "loop.cap-exact": "undecided",
                "proto.valid-config-builds-and-runs": "fail",
            },
        ),
        (
            "final_call_declared_only",
            {**dict.fromkeys(CHECKS, "fail"), "proto.valid-config-builds-and-runs": "pass"},
        ),
    ],
)
def test_the_final_call_is_judged_exactly(tmp_path: Path, factory: str, statuses: dict[str, str]) -> None:
    code, report = toolproof_run(tmp_path, f"py:reference_final_call:{factory}", "-k", SELECTION)
    observed = {row["id"]: row["status"] for row in report["checks"] if row["id"] in CHECKS}
    expected_code = exitcodes.OK if statuses == ALL_PASS else exitcodes.CHECK_FAILED
    assert (observed, code) == (statuses, expected_code)
