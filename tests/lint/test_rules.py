"""toolproof.lint: every rule flags exactly the marked lines of its samples and nothing in the clean ones.

A sample marks each line a rule must report with a trailing `# flag: <rule>[, <rule>]`
(or a `# flag-next: ...` comment line above it, where a trailing one would not fit);
the findings must be exactly those (line, rule) pairs, no more, no fewer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolproof.lint import RULES, lint_paths
from toolproof.lint.__main__ import main

SAMPLES = Path(__file__).parent / "samples"
MARK = re.compile(r"#\s*flag(?P<next>-next)?:\s*(?P<rules>[a-z, -]+)$")
FILES = sorted(SAMPLES.glob("*/*.py"))


def marked(path: Path) -> list[tuple[int, str]]:
    """The (line, rule) pairs a sample marks."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        found = MARK.search(line)
        if found:
            at = number + 1 if found["next"] else number
            out += [(at, rule.strip()) for rule in found["rules"].split(",")]
    return sorted(out)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_sample_findings_are_exactly_the_marked_lines(path: Path) -> None:
    findings = sorted((f.line, f.rule) for f in lint_paths([path]))
    assert findings == marked(path)


def test_every_rule_has_samples_it_must_flag_and_samples_it_must_pass() -> None:
    folders = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert folders == set(RULES)
    for rule in RULES:
        flagged = sorted((SAMPLES / rule).glob("flag_*.py"))
        clean = sorted((SAMPLES / rule).glob("pass_*.py"))
        assert flagged, rule
        assert clean, rule
        assert all(rule in {r for _, r in marked(p)} for p in flagged), rule
        assert all(marked(p) == [] for p in clean), rule


def test_the_seed_tolerant_assert_is_among_the_samples() -> None:
    seed = SAMPLES / "tolerant-alternatives" / "flag_seed_object_type.py"
    text = seed.read_text(encoding="utf-8")
    seed_line = '    if params["type"] != "OBJECT" and params["type"] != "object":'
    line = 1 + next(i for i, ln in enumerate(text.splitlines()) if ln.startswith(seed_line))
    assert (line, "tolerant-alternatives") in marked(seed)


def test_cli_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(SAMPLES / "approx" / "pass_exact_numbers.py")]) == 0
    assert main([str(SAMPLES / "approx" / "flag_approx.py")]) == 1
    assert "flag_approx.py:13:" in capsys.readouterr().out
    broken = tmp_path / "test_broken.py"
    broken.write_text("def test_x(:\n", encoding="utf-8")
    assert main([str(broken)]) == 2
    assert main([str(tmp_path / "missing")]) == 2


def test_helpers_are_resolved_across_files(tmp_path: Path) -> None:
    """An observing helper in one suite module makes its callers' values observed in another."""
    (tmp_path / "support.py").write_text(
        "def first_kind(tp):\n    return tp.run('x').kind\n", encoding="utf-8"
    )
    (tmp_path / "test_a.py").write_text(
        "from support import first_kind\n\n\ndef test_a(tp):\n"
        "    tp.expect('c.d', first_kind(tp) in ('a', 'b'), True, what='w')\n",
        encoding="utf-8",
    )
    assert [(f.path.endswith("test_a.py"), f.line, f.rule) for f in lint_paths([tmp_path])] == [
        (True, 5, "tolerant-membership")
    ]
