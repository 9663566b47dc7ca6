"""What mutmut needs from the suite's plugin (mutmut aborts on pytest exit 4, toolproof's HARNESS)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from toolproof import mutation
from toolproof.invocation import suite_pytest_args
from toolproof.judge.checks import CheckResult
from toolproof.mutation import plugin


def test_collect_only_exits_0(tmp_path: Path) -> None:
    # mutmut lists the tests with `pytest --collect-only` whenever it reloads its stats; a run that
    # judged nothing because it ran nothing must not be INCOMPLETE (4) or EMPTY (5).
    command = [sys.executable, "-m", "pytest", *suite_pytest_args()]
    command += [
        "-p",
        "no:xdist",
        "-q",
        "--collect-only",
        "--candidate",
        "reference",
    ]
    done = subprocess.run(
        command,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]


def _result(status: str, side: str, level: str = "MUST") -> CheckResult:
    return CheckResult(
        check="wire.endpoint",
        requirement="tp-wire-endpoint",
        level=level,  # type: ignore[arg-type]
        status=status,  # type: ignore[arg-type]
        side=side,  # type: ignore[arg-type]
        message="",
        test="t",
    )


def test_a_kill_is_a_candidate_side_must_failure() -> None:
    assert mutation.mutant_exit_status(1, [_result("pass", "candidate"), _result("fail", "candidate")]) == 1
    # A harness-side failure (a vacuous scenario) or a SHOULD failure alone is no verdict.
    assert mutation.mutant_exit_status(1, [_result("fail", "harness")]) == 35
    assert mutation.mutant_exit_status(1, [_result("fail", "candidate", level="SHOULD")]) == 35
    # A harness error would make mutmut abort: suspicious instead.
    assert mutation.mutant_exit_status(4, []) == 35
    # The candidate crashed, broke protocol or timed out: the suite told the mutant apart.
    assert mutation.mutant_exit_status(3, []) == 3
    assert mutation.mutant_exit_status(0, [_result("pass", "candidate")]) == 0
    assert mutation.mutant_exit_status(5, []) == 5


def test_the_mutation_plugin_loads_and_leaves_a_green_run_green(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pytest", *suite_pytest_args("toolproof.conformance.test_protocol")]
    command += [
        "-p",
        "no:xdist",
        "-p",
        "toolproof.mutation.plugin",
    ]
    command += ["-q", "--candidate", "reference"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:]


def test_only_the_plugin_module_is_a_plugin() -> None:
    # The passes load the hook with `-p toolproof.mutation.plugin`; the package only re-exports names.
    assert hasattr(plugin, "pytest_sessionfinish")
    assert not [name for name in vars(mutation) if name.startswith("pytest_")]
    assert [name for name in mutation.__all__ if not hasattr(mutation, name)] == []
