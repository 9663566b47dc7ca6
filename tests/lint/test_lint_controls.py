"""Each lint control still applies to the current suite and makes its rule report one more finding.

The controls runner does this in a subprocess per control (`toolproof controls`);
here the same patch is applied to a copy and the lint runs in-process, so a
stale anchor or a rule that stopped seeing the inserted violation shows in the
ordinary self-tests.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from toolproof.controls.control import Control, all_controls, materialize_toolproof
from toolproof.lint import lint_paths

LINT_CONTROLS = [c for c in all_controls() if c.target == "toolproof" and c.runs == "lint"]


def counts(package: Path) -> Counter[str]:
    """`lint:<rule>:<file under toolproof/>` -> findings, over the package's suite."""
    return Counter(
        f"lint:{f.rule}:{Path(f.path).resolve().relative_to(package.resolve()).as_posix()}"
        for f in lint_paths([package / "conformance"])
    )


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Counter[str]:
    workdir = materialize_toolproof(None, tmp_path_factory.mktemp("baseline"))
    return counts(workdir / "toolproof")


@pytest.mark.parametrize("control", LINT_CONTROLS, ids=[c.name for c in LINT_CONTROLS])
def test_lint_control_kills_its_rule(control: Control, baseline: Counter[str], tmp_path: Path) -> None:
    patched = counts(materialize_toolproof(control, tmp_path) / "toolproof")
    grew = sorted(k for k in patched if patched[k] > baseline[k])
    assert grew == sorted(control.kills)


def test_every_rule_has_a_lint_control() -> None:
    from toolproof.lint import RULES

    killed = {kill.split(":")[1] for c in LINT_CONTROLS for kill in c.kills}
    assert killed == set(RULES)
