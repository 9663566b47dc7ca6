"""`toolproof mutation merge` on literal shard files (tests/mutation/data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolproof import mutation
from toolproof.mutation import MutationError
from toolproof.tools import cli

DATA = Path(__file__).parent / "data"


def _load(name: str) -> tuple[str, dict[str, Any]]:
    return name, json.loads((DATA / name).read_text(encoding="utf-8"))


def test_totals_add_up_and_the_score_is_recomputed_not_averaged() -> None:
    merged = mutation.merge([_load("shard-dedup.json"), _load("shard-adapter.json")])
    # dedup: 4 killed of 5 (80%); adapter: 1 killed of 2 testable (50%), 1 no tests.
    # Averaged would be 65%; recomputed from the sums: 5 / (8 - 1) = 71.43%.
    assert merged["counts"]["killed"] == 5
    assert merged["counts"]["survived"] == 2
    assert merged["counts"]["no tests"] == 1
    assert merged["counts"]["total"] == 8
    assert merged["score"] == {
        "formula": "killed / (total - no_tests - skipped)",
        "killed": 5,
        "denominator": 7,
        "percent": 71.43,
    }
    assert merged["score_all"] == {
        "formula": "killed / total",
        "killed": 5,
        "denominator": 8,
        "percent": 62.5,
    }
    assert merged["mutated"] == ["candidates/reference/adapter.py", "candidates/reference/dedup.py"]
    assert len(merged["mutants"]) == 8
    assert merged["duration_s"] == 60.5
    assert merged["source"]["hash"] == "sha256:1111"


def test_a_mutant_in_two_shards_is_an_error() -> None:
    with pytest.raises(MutationError, match=r"x_key_groups__mutmut_1 is in two shards"):
        mutation.merge([_load("shard-dedup.json"), _load("shard-overlap.json")])


def test_shards_of_other_source_do_not_merge() -> None:
    name, other = _load("shard-adapter.json")
    other["source"]["hash"] = "sha256:2222"
    with pytest.raises(MutationError, match="source"):
        mutation.merge([_load("shard-dedup.json"), (name, other)])


def test_shards_run_with_other_candidates_do_not_merge() -> None:
    name, other = _load("shard-adapter.json")
    other["candidates"] = ["reference"]
    with pytest.raises(MutationError, match="candidates"):
        mutation.merge([_load("shard-dedup.json"), (name, other)])


def test_a_shard_whose_counts_disagree_with_its_mutants_is_refused() -> None:
    name, bad = _load("shard-adapter.json")
    bad["counts"]["killed"] = 2
    bad["counts"]["total"] = 4
    with pytest.raises(MutationError, match="do not match its mutants"):
        mutation.merge([(name, bad)])


def test_merge_command_writes_json_and_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "merged.json"
    code = cli.main(
        [
            "mutation",
            "merge",
            str(DATA / "shard-dedup.json"),
            str(DATA / "shard-adapter.json"),
            "--output",
            str(out),
        ]
    )
    assert code == 0
    merged = json.loads(out.read_text(encoding="utf-8"))
    assert merged["score"]["percent"] == 71.43
    markdown = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "**Raw score** (mutmut's): 71.43% = killed / (total - no_tests - skipped) = 5 / 7." in markdown
    assert "+        if id not in self.builds:" in markdown
    assert "71.43%" in capsys.readouterr().out


def test_merge_command_exits_2_on_overlap(tmp_path: Path) -> None:
    code = cli.main(
        [
            "mutation",
            "merge",
            str(DATA / "shard-dedup.json"),
            str(DATA / "shard-overlap.json"),
            "--output",
            str(tmp_path / "m.json"),
        ]
    )
    assert code == 2
    assert not (tmp_path / "m.json").exists()
