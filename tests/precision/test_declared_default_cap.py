"""No test depends on the declared default cap unless it tests that default (issue 13 §2).

A runtime whose default cap is 1 is legitimate; before, eleven of one runtime's failures came from
tests needing two to four tool rounds under that default. The reference declaring a default of 1
must pass the whole suite exactly as the reference does.
"""

from __future__ import annotations

from pathlib import Path

from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes


def test_the_reference_with_a_default_cap_of_one_passes_the_whole_suite(tmp_path: Path) -> None:
    code, report = toolproof_run(
        tmp_path, "py:reference_cap_one:reference_cap_one", "--hypothesis-profile=ci"
    )
    assert report["candidate"]["hello"]["options"]["default_max_tool_turns"] == 1
    not_green = sorted(row["id"] for row in report["checks"] if row["status"] in ("fail", "undecided"))
    assert (code, not_green) == (exitcodes.OK, []), report["verdict_lines"][-20:]
