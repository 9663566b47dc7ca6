"""The three scores on literal data: raw (mutmut's), reviewed (equivalent mutants left out), over all
mutants (nothing left out), and the gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolproof import mutation
from toolproof.tools import cli

DATA = Path(__file__).parent / "data"

# The merged shards (tests/mutation/data): 8 mutants, 5 killed, 2 survived, 1 no tests.
# Reviewed: dedup_visit_order's survivor equivalent, Adapter.build's a gap, serve unreached.
REVIEW = """# Mutation review

### `candidates/reference/dedup.py::dedup_visit_order`

```diff
-    return sorted(servers, key=lambda server: server.id.encode("utf-8"))
+    return sorted(servers, key=lambda server: server.id.encode("UTF-8"))
```

Verdict: equivalent - codec names are case-insensitive in Python.

### `candidates/reference/adapter.py::Adapter.build`

```diff
-        if id in self.builds:
+        if id not in self.builds:
```

Verdict: gap - no check builds the same id twice yet.

### `candidates/reference/adapter.py::serve`

Verdict: unreached - the stdio loop runs only over cmd:.
"""

SERVE_EQUIVALENT = """
### `candidates/reference/adapter.py::serve`

```diff
-    for line in read_lines(stdin):
+    for line in read_lines(None):
```

Verdict: equivalent - (an equivalent verdict on a no-tests mutant: not in the raw denominator anyway)
"""


def _report() -> dict[str, Any]:
    shards = [
        (n, json.loads((DATA / n).read_text(encoding="utf-8")))
        for n in ("shard-dedup.json", "shard-adapter.json")
    ]
    return mutation.merge(shards)


def test_the_raw_score_is_mutmuts() -> None:
    assert _report()["score"] == {
        "formula": "killed / (total - no_tests - skipped)",
        "killed": 5,
        "denominator": 7,
        "percent": 71.43,
    }


def test_the_score_over_all_mutants_leaves_nothing_out() -> None:
    # 8 mutants: the no-tests one (serve) counts as not killed, and no review changes that.
    expected = {"formula": "killed / total", "killed": 5, "denominator": 8, "percent": 62.5}
    assert _report()["score_all"] == expected
    assert mutation.score_all(_report()["counts"]) == expected


def test_the_score_over_all_mutants_of_nothing_is_100() -> None:
    assert mutation.score_all({"total": 0}) == {
        "formula": "killed / total",
        "killed": 0,
        "denominator": 0,
        "percent": 100.0,
    }


def test_the_reviewed_score_leaves_out_the_mutants_reviewed_equivalent() -> None:
    assert mutation.reviewed_score(_report(), REVIEW) == {
        "formula": "killed / (total - no_tests - skipped - equivalent)",
        "killed": 5,
        "equivalent": 1,
        "denominator": 6,
        "percent": 83.33,
    }


def test_a_gap_verdict_stays_in_the_denominator() -> None:
    review = REVIEW.replace("Verdict: equivalent - codec", "Verdict: gap - codec")
    assert mutation.reviewed_score(_report(), review) == {
        "formula": "killed / (total - no_tests - skipped - equivalent)",
        "killed": 5,
        "equivalent": 0,
        "denominator": 7,
        "percent": 71.43,
    }


def test_a_no_tests_mutant_is_never_left_out_twice() -> None:
    assert mutation.reviewed_score(_report(), REVIEW + SERVE_EQUIVALENT)["denominator"] == 6


def test_an_unreviewed_survivor_stays_in_the_denominator() -> None:
    review = REVIEW.split("### `candidates/reference/dedup.py::dedup_visit_order`")[0]
    assert mutation.reviewed_score(_report(), review)["denominator"] == 7


def test_the_gate_is_the_reviewed_score() -> None:
    # Raw 71.43% is below 80, reviewed 83.33% is not: the check passes.
    problems, _ = mutation.check(_report(), REVIEW, "sha256:1111", threshold=80.0)
    assert problems == []
    problems, _ = mutation.check(_report(), REVIEW, "sha256:1111", threshold=95.0)
    assert problems == [
        "reviewed mutation score 83.33% (killed / (total - no_tests - skipped - equivalent) = 5 / 6)"
        " is below the threshold 95%"
    ]


def test_score_lines_name_every_formula() -> None:
    assert mutation.score_lines(_report(), REVIEW) == [
        "raw score 71.43% = killed / (total - no_tests - skipped) = 5 / 7",
        "reviewed score 83.33% = killed / (total - no_tests - skipped - equivalent) = 5 / 6"
        " (1 reviewed equivalent)",
        "score over all mutants 62.50% = killed / total = 5 / 8",
    ]
    assert mutation.score_lines(_report(), None) == [
        "raw score 71.43% = killed / (total - no_tests - skipped) = 5 / 7",
        "score over all mutants 62.50% = killed / total = 5 / 8",
    ]


def test_a_report_written_before_the_score_over_all_mutants_shows_it_too() -> None:
    report = _report()
    del report["score_all"]
    assert mutation.score_lines(report, None)[-1] == "score over all mutants 62.50% = killed / total = 5 / 8"


def test_the_markdown_shows_the_three_scores() -> None:
    markdown = mutation.render_markdown(_report(), REVIEW)
    assert "**Raw score** (mutmut's): 71.43% = killed / (total - no_tests - skipped) = 5 / 7.\n" in markdown
    assert (
        "**Reviewed score** (the gate): 83.33% = killed / (total - no_tests - skipped - equivalent) = 5 / 6"
        " (1 reviewed equivalent), from mutation-review.md" in markdown
    )
    all_mutants = (
        "**Score over all mutants**: 62.50% = killed / total = 5 / 8: no mutant leaves the denominator"
        " (no tests, skipped and equivalent ones count as not killed).\n"
    )
    assert all_mutants in markdown
    without_review = mutation.render_markdown(_report())
    assert "**Reviewed score**" not in without_review
    assert all_mutants in without_review


def test_check_command_prints_the_three_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "candidates/reference").mkdir(parents=True)
    (tmp_path / "candidates/reference/a.py").write_bytes(b"X = 1\n")
    (tmp_path / "pyproject.toml").write_text("[tool.toolproof.mutation]\nthreshold = 80\n", encoding="utf-8")
    report = _report()
    report["source"]["hash"] = mutation.source_hash(tmp_path, ["candidates/reference"])
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports/mutation.json").write_text(json.dumps(report), encoding="utf-8")
    (tmp_path / "reports/mutation-review.md").write_text(REVIEW, encoding="utf-8")
    assert cli.main(["mutation", "check", "--root", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "raw score 71.43% = killed / (total - no_tests - skipped) = 5 / 7",
        "reviewed score 83.33% = killed / (total - no_tests - skipped - equivalent) = 5 / 6"
        " (1 reviewed equivalent)",
        "score over all mutants 62.50% = killed / total = 5 / 8",
        "mutation check ok: the reviewed score is gated at threshold 80%, 0 problem(s)",
    ]
    assert cli.main(["mutation", "render", "--root", str(tmp_path)]) == 0
    markdown = (tmp_path / "reports/mutation.md").read_text(encoding="utf-8")
    assert "**Reviewed score** (the gate): 83.33%" in markdown
    assert "**Score over all mutants**: 62.50%" in markdown
