"""Contract versions (contracts/versions.yaml) and the migration of older baselines.

A baseline written for contract v1 may list a check ID that v2 retired: loading it is a usage
error naming the migration, and `toolproof baseline update --output FILE` drops exactly those
entries, keeping every other entry and its reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolproof import CONTRACT_VERSION
from toolproof.errors import UsageError
from toolproof.judge import expected as expected_module
from toolproof.judge.catalog import load_catalog
from toolproof.judge.contract_files import contracts_dir
from toolproof.judge.expected import Expected, load_baseline
from toolproof.judge.versions import Retired, load_versions
from toolproof.tools.cli import main

KEPT = "loop.completed-output"
GONE = Retired(
    check="args.retired-example",
    version=2,
    why="its meaning changed",
    replaced_by=("args.empty-arguments-give-empty-object",),
)


def test_the_versions_file_names_the_current_contract_version() -> None:
    assert (load_versions().current, CONTRACT_VERSION) == (8, 8)


def test_retired_ids_left_the_catalog_and_their_replacements_are_in_it() -> None:
    catalog = load_catalog()
    retired = load_versions().retired
    assert [check for check in retired if check in catalog.checks] == []
    assert [r for gone in retired.values() for r in gone.replaced_by if r not in catalog.checks] == []


def test_new_ids_are_in_the_catalog() -> None:
    catalog = load_catalog()
    new = [check for ids in load_versions().new.values() for check in ids]
    assert [check for check in new if check not in catalog.checks] == []


def test_contract_md_names_every_retired_and_every_new_id() -> None:
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    versions = load_versions()
    named = [*versions.retired, *(check for ids in versions.new.values() for check in ids)]
    assert [check for check in named if f"`{check}`" not in text] == []


@pytest.fixture
def one_retired(monkeypatch: pytest.MonkeyPatch) -> None:
    """A literal retirement record in place of contracts/versions.yaml's (which changes per version)."""
    table = {GONE.check: GONE}
    monkeypatch.setattr(expected_module, "retired", table.get)


V1 = (
    "# Known failures of X.\n"
    "version: 1\n"
    "candidate: cmd:python adapter.py\n"
    "expected_failures:\n"
    f"  - check: {GONE.check}\n"
    "    reason: old reason\n"
    f"  - check: {KEPT}\n"
    "    reason: kept reason\n"
    "    review_by: '2030-01-31'\n"
)


def test_a_v1_baseline_listing_a_retired_id_is_refused_with_the_migration(
    tmp_path: Path, one_retired: None
) -> None:
    path = tmp_path / "expected-failures.yaml"
    path.write_text(V1, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_baseline(path)
    assert str(caught.value) == (
        f"--expected-failures {path}: args.retired-example (retired in contract v2: its meaning"
        " changed; now judged by args.empty-arguments-give-empty-object); the baseline was written"
        f" for contract v1: `toolproof baseline update --output {path}` migrates it"
    )


def test_baseline_update_without_a_report_migrates(
    tmp_path: Path, one_retired: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "expected-failures.yaml"
    path.write_text(V1, encoding="utf-8")
    assert main(["baseline", "update", "--output", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == (
        "# Known failures of X.\n"
        "version: 1\n"
        "contract: 8\n"
        "candidate: cmd:python adapter.py\n"
        "expected_failures:\n"
        f"- check: {KEPT}\n"
        "  reason: kept reason\n"
        "  review_by: '2030-01-31'\n"
    )
    assert capsys.readouterr().out == (
        "dropped args.retired-example (retired in contract v2: its meaning changed; now judged by"
        " args.empty-arguments-give-empty-object)\n"
        f"migrated {path}: 1 entries kept, 1 retired dropped\n"
    )
    assert load_baseline(path) == {KEPT: Expected(check=KEPT, reason="kept reason", review_by="2030-01-31")}


@pytest.mark.parametrize("contract", ["9", "0", "two", "true"])
def test_a_baseline_for_an_unknown_contract_version_is_refused(tmp_path: Path, contract: str) -> None:
    path = tmp_path / "expected-failures.yaml"
    path.write_text(f"contract: {contract}\nexpected_failures: []\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_baseline(path)
    assert str(caught.value).endswith("is not a contract version this toolproof knows (1 to 8)")


def test_a_baseline_for_a_newer_contract_is_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "expected-failures.yaml"
    text = "contract: 9\nexpected_failures: []\n"
    path.write_text(text, encoding="utf-8")
    assert main(["baseline", "update", "--output", str(path)]) == 2
    assert path.read_text(encoding="utf-8") == text


def test_migrating_a_missing_baseline_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missing.yaml"
    assert main(["baseline", "update", "--output", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"toolproof: baseline update: {path} does not exist (give --report to write one)\n"
    )
