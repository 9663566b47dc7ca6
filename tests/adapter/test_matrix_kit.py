"""The matrix runs a bundled Python adapter from a copy in the runtime's own venv (no toolproof
there): the copy's directory holds the kit too, where `from toolproof import adapter` finds it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from toolproof import adapter as kit
from toolproof.tools import matrix


def test_prepare_puts_the_kit_where_the_copied_adapters_import_it(tmp_path: Path) -> None:
    bundled = matrix.Bundled("haystack-ai", "python", package="haystack_ai")
    venv = tmp_path / "venvs" / "haystack-ai"
    venv.mkdir(parents=True)
    # A venv stamped as up to date for these requirements: prepare creates nothing.
    requirements = matrix.CANDIDATES_ROOT / "haystack_ai" / "requirements.txt"
    (venv / ".toolproof-stamp").write_text(matrix._digest(requirements), encoding="utf-8")
    prepared = matrix.prepare(bundled, tmp_path, tmp_path / "setup.log")
    assert prepared.cwd == tmp_path / "src"
    assert (tmp_path / "src" / "toolproof" / "adapter.py").read_bytes() == Path(kit.__file__).read_bytes()
    # -S: no site-packages, so no installed toolproof: the copy in src/ is what the import finds.
    done = subprocess.run(
        [sys.executable, "-S", "-c", "from toolproof import adapter; print(adapter.__file__)"],
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert Path(done.stdout.strip()).resolve() == (tmp_path / "src" / "toolproof" / "adapter.py").resolve()
