"""An optional participant `name` on replayed assistant messages (issue 22 §3): the published
chat-completions schema makes it optional metadata (contracts/sources.md `openai-message-name`), so
no history check compares it.

The reference naming every assistant message it replays (tests/fauxmplementations/
reference_named_replay.py) failed hist.append-only, hist.runs-per-build and its text-less twin
before; it passes the whole suite. negative_controls/hist_replay_name_* show that a replay which
also changes what was said still fails.
"""

from __future__ import annotations

from pathlib import Path

from suite_run import toolproof_run  # the precision self-tests' driver (tests/precision)

from toolproof.report import exitcodes

HISTORY = ("hist.append-only", "hist.runs-per-build", "hist.runs-per-build-textless-reply")


def test_a_name_added_on_replay_passes_the_whole_history_area(tmp_path: Path) -> None:
    # The history and continuation areas (and the invariants over their traffic): where a replayed
    # message can show; the whole suite takes minutes.
    code, report = toolproof_run(
        tmp_path,
        "py:reference_named_replay:names_replayed_messages",
        "-k",
        "test_history or test_continuation",
    )
    not_green = sorted(row["id"] for row in report["checks"] if row["status"] in ("fail", "undecided"))
    decided = {row["id"]: row["status"] for row in report["checks"] if row["id"] in HISTORY}
    assert (code, not_green, decided) == (
        exitcodes.OK,
        [],
        {check: "pass" for check in HISTORY},
    ), report["verdict_lines"][-20:]
