"""`toolproof mutation report --rerun`: which mutants run again, the merge, the refusals (literal data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolproof import mutation
from toolproof.mutation import MutationError
from toolproof.tools import cli

DATA = Path(__file__).parent / "data"
BUILD_4 = "candidates.reference.adapter.xǁAdapterǁbuild__mutmut_4"
VISIT_8 = "candidates.reference.dedup.x_dedup_visit_order__mutmut_8"


def _full() -> dict[str, Any]:
    shards = [
        (n, json.loads((DATA / n).read_text(encoding="utf-8")))
        for n in ("shard-dedup.json", "shard-adapter.json")
    ]
    full = mutation.merge(shards)
    full["generated_at"] = "2026-11-29T21:00:00+00:00"
    full["note"] = "TRIAL run."
    return full


def _rerun() -> dict[str, Any]:
    return dict(json.loads((DATA / "rerun.json").read_text(encoding="utf-8")))


def test_the_rerun_runs_every_open_mutant_but_the_no_tests_ones() -> None:
    # 8 mutants: 5 killed, 2 survived, 1 no tests (adapter.py serve).
    assert mutation.rerun_names(_full()) == [BUILD_4, VISIT_8]


def test_the_merge_replaces_the_rerun_mutants_and_recomputes_the_score() -> None:
    merged = mutation.merge_rerun(_full(), _rerun())
    assert merged["counts"]["killed"] == 6
    assert merged["counts"]["survived"] == 1
    assert merged["counts"]["no tests"] == 1
    assert merged["counts"]["total"] == 8
    assert merged["score"] == {
        "formula": "killed / (total - no_tests - skipped)",
        "killed": 6,
        "denominator": 7,
        "percent": 85.71,
    }
    assert merged["score_all"] == {
        "formula": "killed / total",
        "killed": 6,
        "denominator": 8,
        "percent": 75.0,
    }
    assert merged["mutants"][BUILD_4] == {
        "file": "candidates/reference/adapter.py",
        "function": "Adapter.build",
        "status": "killed",
        "passes": {"reference": {"status": "killed", "exit_code": 1}},
        "full_run_status": "survived",
    }
    assert merged["mutants"][VISIT_8]["status"] == "survived"
    assert merged["mutants"][VISIT_8]["full_run_status"] == "survived"
    assert merged["mutants"][VISIT_8]["diff"].endswith('server.id.encode("UTF-8"))\n')
    # Untouched: killed and no-tests mutants keep their record from the full run.
    assert merged["mutants"]["candidates.reference.dedup.x_key_groups__mutmut_1"] == {
        "file": "candidates/reference/dedup.py",
        "function": "key_groups",
        "status": "killed",
        "passes": {"reference": {"status": "killed", "exit_code": 1}},
    }
    assert merged["kills_by_exit_code"] == {"1": 5, "3": 1}
    assert merged["source"]["hash"] == "sha256:1111"
    assert merged["generated_at"] == "2026-11-30T01:00:00+00:00"


def test_the_merged_report_names_both_runs_and_their_dates() -> None:
    merged = mutation.merge_rerun(_full(), _rerun())
    assert merged["runs"] == [
        {
            "run": "full",
            "generated_at": "2026-11-29T21:00:00+00:00",
            "mutants_run": 8,
            "duration_s": 60.5,
            "note": "TRIAL run.",
        },
        {
            "run": "rerun",
            "generated_at": "2026-11-30T01:00:00+00:00",
            "mutants_run": 2,
            "duration_s": 15.5,
            "note": "",
        },
    ]
    assert merged["duration_s"] == 76.0
    assert merged["note"] == (
        "TRIAL run. Rerun 2026-11-30T01:00:00+00:00 (`toolproof mutation report --rerun`): the 2 mutants"
        " the run of 2026-11-29T21:00:00+00:00 did not kill (no tests aside) were run again with the suite"
        " as it was then, on the same reference source; it killed 1 of them. Every other mutant keeps its"
        " status from the earlier run."
    )
    assert [(p["run"], p["candidate"]) for p in merged["passes"]] == [
        ("rerun", "reference"),
        ("rerun", "reference-continuation"),
    ]
    markdown = mutation.render_markdown(merged)
    assert (
        "Runs: full 2026-11-29T21:00:00+00:00, 8 mutants, 60 s; rerun 2026-11-30T01:00:00+00:00,"
        " 2 mutants, 16 s (--max-children 2)." in markdown
    )
    assert markdown.splitlines()[2] == (
        "Generated 2026-11-30T01:00:00+00:00 by `toolproof mutation report --rerun` over the full run of"
        " 2026-11-29T21:00:00+00:00 (mutmut 3.8.1); see Runs and the note."
    )


def test_a_partial_rerun_says_how_many_of_the_open_mutants_it_ran() -> None:
    rerun = _rerun()
    del rerun["mutants"][VISIT_8]
    merged = mutation.merge_rerun(_full(), rerun)
    assert "1 of the 2 mutants the run of 2026-11-29T21:00:00+00:00 did not kill" in merged["note"]
    assert merged["mutants"][VISIT_8]["status"] == "survived"
    assert "full_run_status" not in merged["mutants"][VISIT_8]


def test_a_rerun_on_other_source_is_refused() -> None:
    rerun = _rerun()
    rerun["source"]["hash"] = "sha256:2222"
    with pytest.raises(MutationError, match=r"other reference source \(sha256:2222\)"):
        mutation.merge_rerun(_full(), rerun)


def test_a_rerun_of_a_mutant_the_full_run_killed_is_refused() -> None:
    rerun = _rerun()
    rerun["mutants"]["candidates.reference.dedup.x_key_groups__mutmut_1"] = rerun["mutants"][BUILD_4]
    with pytest.raises(MutationError, match="x_key_groups__mutmut_1"):
        mutation.merge_rerun(_full(), rerun)


def test_a_rerun_of_other_files_is_refused() -> None:
    rerun = _rerun()
    rerun["mutated"] = ["candidates/reference/adapter.py"]
    with pytest.raises(MutationError, match="the rerun mutated"):
        mutation.merge_rerun(_full(), rerun)


def _project(tmp_path: Path, report_hash: str | None) -> Path:
    (tmp_path / "candidates/reference").mkdir(parents=True)
    (tmp_path / "candidates/reference/a.py").write_bytes(b"X = 1\n")
    (tmp_path / "pyproject.toml").write_text("[tool.toolproof.mutation]\nthreshold = 80\n", encoding="utf-8")
    full = _full()
    full["source"]["hash"] = report_hash or mutation.source_hash(tmp_path, ["candidates/reference"])
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports/mutation.json").write_text(json.dumps(full), encoding="utf-8")
    return tmp_path


def test_the_rerun_command_refuses_a_report_of_other_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "sha256:2222")
    report = str(root / "reports/mutation.json")
    assert cli.main(["mutation", "report", "--root", str(root), "--rerun", report]) == 2
    err = capsys.readouterr().err
    assert "was made on other reference source (sha256:2222)" in err
    assert json.loads(Path(report).read_text(encoding="utf-8"))["source"]["hash"] == "sha256:2222"


def test_the_rerun_command_refuses_a_mutant_that_is_not_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, None)
    report = str(root / "reports/mutation.json")
    killed = "candidates.reference.dedup.x_key_groups__mutmut_1"
    assert cli.main(["mutation", "report", "--root", str(root), "--rerun", report, "--mutant", killed]) == 2
    assert f"not open in {report} (killed, no tests, or unknown): ['{killed}']" in capsys.readouterr().err
