"""`toolproof mutation report --resume`: which stopped passes may be finished, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolproof.mutation import MutationError
from toolproof.mutation.passes import check_resumable
from toolproof.mutation.run import _resumed_note, run_report

SOURCES = ["candidates/reference"]


def _copy(path: Path, source: bytes, *, started: bool = True) -> Path:
    (path / "candidates/reference").mkdir(parents=True)
    (path / "candidates/reference/a.py").write_bytes(source)
    if started:
        (path / "mutants").mkdir()
        (path / "mutants/mutmut-stats.json").write_text("{}", encoding="utf-8")
    return path


def test_a_pass_begun_on_the_same_source_may_be_resumed(tmp_path: Path) -> None:
    root = _copy(tmp_path / "root", b"X = 1\n", started=False)
    check_resumable(root, _copy(tmp_path / "pass-0-reference", b"X = 1\n"), SOURCES)


def test_a_pass_begun_on_other_source_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path / "root", b"X = 2\n", started=False)
    with pytest.raises(MutationError, match="holds other reference source"):
        check_resumable(root, _copy(tmp_path / "pass-0-reference", b"X = 1\n"), SOURCES)


def test_a_pass_that_never_collected_its_stats_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path / "root", b"X = 1\n", started=False)
    with pytest.raises(MutationError, match="the pass never started"):
        check_resumable(root, _copy(tmp_path / "pass-0-reference", b"X = 1\n", started=False), SOURCES)


def test_resume_needs_the_workdir_it_finishes(tmp_path: Path) -> None:
    with pytest.raises(MutationError, match="--resume needs the --workdir"):
        run_report(tmp_path, {"sources": SOURCES}, SOURCES, keep=False, workdir=None, resume=True)


def test_a_resumed_report_says_which_passes_it_finished() -> None:
    assert _resumed_note({}) == {}
    assert _resumed_note({"_resumed": ["reference", "reference-stream"]}) == {
        "resumed_passes": ["reference", "reference-stream"],
        "note": "Resumed (`--resume`) 2 pass(es) a stopped run began on the same reference source:"
        " reference, reference-stream. Their verdicts recorded before the stop were kept; each pass"
        " judged with the suite as copied when it first began; duration_s counts this run only.",
    }
