"""`toolproof matrix` gives a bundled Node adapter the Node kit beside it.

The matrix runs a copy of candidates/<pkg> under <work>/src, where no toolproof/ sits above it; the
adapter finds the kit beside itself first (candidates/vercel_ai/adapter.mjs).
"""

from __future__ import annotations

from pathlib import Path

from toolproof.tools import matrix
from toolproof.tools.matrix import NODE_KIT, VERCEL_AI, prepare


def test_prepare_copies_the_node_kit_beside_the_adapter(tmp_path: Path) -> None:
    package = tmp_path / "src" / "candidates" / "vercel_ai"
    # A node_modules already installed for this lock file: prepare runs no npm.
    (package / "node_modules").mkdir(parents=True)
    lock = matrix.CANDIDATES_ROOT / "vercel_ai" / "package-lock.json"
    (package / "node_modules" / ".toolproof-stamp").write_text(matrix._digest(lock), encoding="utf-8")
    prepared = prepare(VERCEL_AI, tmp_path, tmp_path / "setup.log")
    assert prepared.spec == f"cmd:node {package / 'adapter.mjs'}"
    assert (package / "adapter_kit.mjs").read_bytes() == NODE_KIT.read_bytes()
    assert (tmp_path / "setup.log").exists() is False
