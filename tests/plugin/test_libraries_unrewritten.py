"""toolproof.plugin.libraries: in a toolproof run pytest rewrites the suite's asserts, never those of
the plugin libraries the harness imports (hypothesis, anyio, xdist: about 2 s per pytest process)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

from toolproof.plugin.libraries import LIBRARIES, UnrewrittenLibraries

# A fresh interpreter, not a fork of a preloaded one: there hypothesis would be imported already.
# Collection imports the suite's modules and, through the plugin, hypothesis and anyio.
PROGRAM = """
import json, sys
from _pytest.assertion.rewrite import AssertionRewritingHook
from toolproof.tools.cli import main
main(["run", "--candidate", "reference", "--", "--collect-only", "-q", "-p", "no:cacheprovider"])
print(json.dumps(sorted(
    name for name, module in list(sys.modules.items())
    if isinstance(getattr(getattr(module, "__spec__", None), "loader", None), AssertionRewritingHook)
)))
"""


def test_a_run_rewrites_the_suite_and_no_plugin_library(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    rewritten = json.loads(done.stdout.strip().splitlines()[-1])
    libraries = [name for name in rewritten if name.partition(".")[0] in LIBRARIES]
    suite = [name for name in rewritten if name.rpartition(".")[2].startswith("test_")]
    assert (libraries, bool(suite)) == ([], True), done.stderr[-3000:]


def test_the_finder_answers_for_the_libraries_only() -> None:
    finder = UnrewrittenLibraries()
    spec = finder.find_spec("hypothesis", None)
    assert isinstance(spec, ModuleSpec)
    assert (spec.name, finder.find_spec("json", None), finder.find_spec("toolproof", None)) == (
        "hypothesis",
        None,
        None,
    )
