"""Report building from literal mutmut output: names, diffs, hash, statuses, score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolproof import mutation
from toolproof.mutation import PassResult


def test_function_of_plain_function_and_method() -> None:
    assert mutation.function_of("candidates.reference.dedup.x_dedup_servers__mutmut_8") == "dedup_servers"
    assert mutation.function_of("candidates.reference.adapter.xǁAdapterǁbuild__mutmut_12") == "Adapter.build"


def test_diff_key_keeps_only_changed_lines() -> None:
    diff = (
        "--- candidates/reference/dedup.py\n"
        "+++ candidates/reference/dedup.py\n"
        "@@ -9,7 +9,7 @@\n"
        "     for server in dedup_visit_order(servers):\n"
        "-            survivors.append(server)\n"
        "+            survivors.append(None)\n"
        "             continue\n"
    )
    assert mutation.diff_key(diff) == (
        "-            survivors.append(server)",
        "+            survivors.append(None)",
    )


def test_parse_results_reads_every_status() -> None:
    text = (
        "    candidates.reference.dedup.x_key_groups__mutmut_1: killed\n"
        "    candidates.reference.dedup.x_key_groups__mutmut_2: survived\n"
        "    candidates.reference.adapter.x_serve__mutmut_1: no tests\n"
        "    candidates.reference.loop.x_run__mutmut_3: check was interrupted by user\n"
    )
    assert mutation.parse_results(text) == {
        "candidates.reference.dedup.x_key_groups__mutmut_1": "killed",
        "candidates.reference.dedup.x_key_groups__mutmut_2": "survived",
        "candidates.reference.adapter.x_serve__mutmut_1": "no tests",
        "candidates.reference.loop.x_run__mutmut_3": "check was interrupted by user",
    }


@pytest.mark.parametrize(
    ("candidate", "spec"),
    [
        ("reference", "py:candidates.reference.adapter:reference"),
        ("reference-continuation", "py:candidates.reference.adapter:reference_continuation"),
        ("reference-pipe", "pipe:candidates.reference.adapter:reference"),
        ("reference-prefix-pipe", "pipe:candidates.reference.adapter:reference_prefix"),
        ("other-pipe", "other-pipe"),
        ("cmd:{python} -m x", "cmd:{python} -m x"),
    ],
)
def test_a_pass_name_becomes_the_spec_of_the_scratch_copy(candidate: str, spec: str) -> None:
    assert mutation.pass_spec(candidate) == spec


def _tree(root: Path) -> None:
    (root / "candidates/reference/sub").mkdir(parents=True)
    (root / "candidates/reference/a.py").write_bytes(b"X = 1\n")
    (root / "candidates/reference/sub/b.py").write_bytes(b"def f():\n    return 2\n")
    (root / "candidates/reference/notes.txt").write_bytes(b"not python\n")
    (root / "candidates/reference/__pycache__").mkdir()
    (root / "candidates/reference/__pycache__/a.cpython-311.py").write_bytes(b"cache\n")


def test_source_hash_is_the_documented_sha256(tmp_path: Path) -> None:
    # Literal computed independently: printf 'candidates/reference/a.py\0' '6\0' 'X = 1\n' ... | sha256sum
    _tree(tmp_path)
    assert mutation.source_files(tmp_path, ["candidates/reference"]) == [
        "candidates/reference/a.py",
        "candidates/reference/sub/b.py",
    ]
    assert (
        mutation.source_hash(tmp_path, ["candidates/reference"])
        == "sha256:976ccf30316e1adf074dca8331d509ddf65f58fa23ff7c00d2d159e89b449ecc"
    )


def test_source_hash_changes_with_one_byte_and_with_a_rename(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = mutation.source_hash(tmp_path, ["candidates/reference"])
    (tmp_path / "candidates/reference/a.py").write_bytes(b"X = 2\n")
    edited = mutation.source_hash(tmp_path, ["candidates/reference"])
    (tmp_path / "candidates/reference/a.py").rename(tmp_path / "candidates/reference/c.py")
    renamed = mutation.source_hash(tmp_path, ["candidates/reference"])
    assert len({before, edited, renamed}) == 3


def test_mutmut_config_replaces_only_its_table() -> None:
    pyproject = (
        '[project]\nname = "toolproof"\n\n[tool.mutmut]\nsource_paths = ["old"]\n'
        'do_not_mutate = ["x"]\n\n[tool.ruff]\nline-length = 110\n'
    )
    assert mutation.mutmut_config(
        pyproject, {"source_paths": ["candidates/reference/dedup.py"], "debug": False}
    ) == (
        '[project]\nname = "toolproof"\n\n[tool.ruff]\nline-length = 110\n\n'
        '[tool.mutmut]\nsource_paths = ["candidates/reference/dedup.py"]\ndebug = false\n'
    )


def test_score_formula_excludes_no_tests_and_skipped_only() -> None:
    counts = {"killed": 90, "survived": 4, "timeout": 2, "no tests": 10, "skipped": 4, "total": 110}
    assert mutation.score(counts) == {
        "formula": "killed / (total - no_tests - skipped)",
        "killed": 90,
        "denominator": 96,
        "percent": 93.75,
    }


def test_exit_5_is_not_judged_not_no_tests() -> None:
    # mutmut labels pytest exit 5 "no tests"; for toolproof 5 means nothing was judged.
    assert mutation._status("no tests", 5) == "not judged"
    assert mutation._status("no tests", 33) == "no tests"
    assert mutation._status("killed", 3) == "killed"


def test_later_passes_can_kill_what_the_first_did_not() -> None:
    first = PassResult(
        "reference",
        Path("/nowhere"),
        {
            "m.x_f__mutmut_1": ("killed", 1),
            "m.x_f__mutmut_2": ("survived", 0),
            "m.x_g__mutmut_1": ("no tests", 33),
            "m.x_g__mutmut_2": ("survived", 0),
        },
        {},
        10.0,
        files={
            "m.x_f__mutmut_1": "m.py",
            "m.x_f__mutmut_2": "m.py",
            "m.x_g__mutmut_1": "m.py",
            "m.x_g__mutmut_2": "m.py",
        },
    )
    second = PassResult(
        "reference-continuation",
        Path("/nowhere"),
        {
            "m.x_f__mutmut_2": ("killed", 1),
            "m.x_g__mutmut_1": ("survived", 0),
            "m.x_g__mutmut_2": ("not judged", 5),
        },
        {},
        5.0,
        ran=["m.x_f__mutmut_2", "m.x_g__mutmut_1", "m.x_g__mutmut_2"],
    )
    diffs = {"m.x_g__mutmut_1": "D1\n", "m.x_g__mutmut_2": "D2\n"}
    mutants = mutation.combine_passes([first, second], diffs)
    assert {name: record["status"] for name, record in mutants.items()} == {
        "m.x_f__mutmut_1": "killed",
        "m.x_f__mutmut_2": "killed",
        "m.x_g__mutmut_1": "survived",
        "m.x_g__mutmut_2": "not judged",
    }
    assert mutants["m.x_g__mutmut_2"] == {
        "file": "m.py",
        "function": "g",
        "passes": {
            "reference": {"status": "survived", "exit_code": 0},
            "reference-continuation": {"status": "not judged", "exit_code": 5},
        },
        "status": "not judged",
        "diff": "D2\n",
    }
    assert mutation.tally(mutants)["killed"] == 2
    assert mutation.tally(mutants)["survived"] == 1
    assert mutation.tally(mutants)["not judged"] == 1
    assert mutation.tally(mutants)["total"] == 4


def test_a_source_is_taken_relative_to_the_cwd_or_to_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    elsewhere = tmp_path / ".tox" / "mutation" / "tmp"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    # tox rewrites a posarg naming an existing path relative to its change_dir
    assert (
        mutation.relative_source(tmp_path, "../../../candidates/reference/a.py")
        == "candidates/reference/a.py"
    )
    assert mutation.relative_source(tmp_path, "candidates/reference/a.py") == "candidates/reference/a.py"


def test_functions_reached_only_in_the_first_test_get_every_test(tmp_path: Path) -> None:
    # The candidate is greeted once per session, in the first test: hello-time functions shape
    # every later test, so their mutants must be judged by every test.
    (tmp_path / "mutants").mkdir()
    stats = {
        "tests_by_mangled_function_name": {
            "candidates.reference.profiles.x_declared_options": ["suite/test_a.py::test_first"],
            "candidates.reference.dedup.x_dedup_servers": [
                "suite/test_a.py::test_first",
                "suite/test_b.py::test_b",
            ],
            "candidates.reference.loop.x_run_tool_loop": ["suite/test_b.py::test_b"],
        },
        "duration_by_test": {
            "suite/test_a.py::test_first": 0.5,
            "suite/test_b.py::test_b": 0.25,
            "suite/test_c.py::test_c": 1.0,
        },
        "stats_time": 2.0,
    }
    (tmp_path / "mutants/mutmut-stats.json").write_text(json.dumps(stats), encoding="utf-8")
    assert mutation.widen_session_functions(tmp_path) == ["candidates.reference.profiles.x_declared_options"]
    after = json.loads((tmp_path / "mutants/mutmut-stats.json").read_text(encoding="utf-8"))
    assert after["tests_by_mangled_function_name"] == {
        "candidates.reference.profiles.x_declared_options": [
            "suite/test_a.py::test_first",
            "suite/test_b.py::test_b",
            "suite/test_c.py::test_c",
        ],
        "candidates.reference.dedup.x_dedup_servers": [
            "suite/test_a.py::test_first",
            "suite/test_b.py::test_b",
        ],
        "candidates.reference.loop.x_run_tool_loop": ["suite/test_b.py::test_b"],
    }
    assert after["stats_time"] == 2.0


def _pass(workdir: Path, candidate: str, source: bytes) -> PassResult:
    (workdir / "candidates/reference").mkdir(parents=True)
    (workdir / "candidates/reference/a.py").write_bytes(source)
    return PassResult(candidate, workdir, {}, {}, 1.0)


def test_the_report_hash_is_the_mutated_copys_not_the_checkouts_at_the_end(tmp_path: Path) -> None:
    # The checkout was edited during the run (X = 2); the passes mutated X = 1.
    (tmp_path / "root/candidates/reference").mkdir(parents=True)
    (tmp_path / "root/candidates/reference/a.py").write_bytes(b"X = 2\n")
    passes = [
        _pass(tmp_path / "p0", "reference", b"X = 1\n"),
        _pass(tmp_path / "p1", "reference-prefix", b"X = 1\n"),
    ]
    mutated = mutation.mutated_source_hash(tmp_path / "root", ["candidates/reference"], passes)
    assert mutated == mutation.source_hash(tmp_path / "p0", ["candidates/reference"])
    assert mutated != mutation.source_hash(tmp_path / "root", ["candidates/reference"])


def test_passes_of_other_source_are_an_error(tmp_path: Path) -> None:
    passes = [
        _pass(tmp_path / "p0", "reference", b"X = 1\n"),
        _pass(tmp_path / "p1", "reference-prefix", b"X = 2\n"),
    ]
    with pytest.raises(mutation.MutationError, match="the reference changed between the passes"):
        mutation.mutated_source_hash(tmp_path, ["candidates/reference"], passes)
