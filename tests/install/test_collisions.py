"""Installing toolproof beside a runtime breaks nothing of the runtime's own.

The built wheel (the one tox installed into this env, `TOOLPROOF_WHEEL_DIR`) goes into a scratch
venv, offline: pip from the standard library's ensurepip, the wheel with --no-deps, and the
dependencies through a .pth file naming this env's site-packages (after the venv's own, so the
scratch copy of toolproof is the one imported). In a directory that holds its own `conformance`,
`candidates` and `negative_controls` packages, a conftest.py adding a `--candidate` option and an
ini file whose addopts use it, as a runtime's repository may:
- that directory's own pytest run passes, with toolproof installed;
- `toolproof run --candidate reference` passes there, taking none of that configuration (its own
  test is never collected);
- a start-up failure of the suite is a usage or harness exit, never 1 ("a check failed").
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

RUN_TIMEOUT = 300.0

ONE_PASSED_REST_DESELECTED = re.compile(r"^=+ 1 passed, \d+ deselected in [\d.]+s", re.MULTILINE)
"""pytest's summary line when one selected test passed and every other was deselected: the count of
the others is the suite's, so it is not pinned."""

OWN_PACKAGES = {
    "conformance/__init__.py": 'WHOSE = "the runtime\'s conformance"\n',
    "candidates/__init__.py": 'WHOSE = "the runtime\'s candidates"\n',
    "negative_controls/__init__.py": 'WHOSE = "the runtime\'s negative_controls"\n',
}

OWN_CONFTEST = """
def pytest_addoption(parser):
    parser.addoption("--candidate", default="none", help="the runtime's own option")
"""

OWN_INI = """
[pytest]
addopts = --candidate=ours -p no:cacheprovider
"""

OWN_TEST = """
import candidates
import conformance
import negative_controls


def test_own_packages_and_option(pytestconfig):
    assert conformance.WHOSE == "the runtime's conformance"
    assert candidates.WHOSE == "the runtime's candidates"
    assert negative_controls.WHOSE == "the runtime's negative_controls"
    assert pytestconfig.getoption("candidate") == "ours"
    assert not pytestconfig.pluginmanager.has_plugin("toolproof.plugin")
"""


def _wheel() -> Path:
    where = os.environ.get("TOOLPROOF_WHEEL_DIR")
    if not where:
        pytest.skip("TOOLPROOF_WHEEL_DIR is not set (tox -e tests sets it to the wheel tox built)")
    wheels = sorted(Path(where).glob("toolproof-*.whl"))
    assert len(wheels) == 1, f"expected exactly one toolproof wheel in {where}, found {wheels}"
    return wheels[0]


@pytest.fixture(scope="module")
def scratch_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the built wheel installed (offline) and this env's packages as its dependencies."""
    venv = tmp_path_factory.mktemp("venv")
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--clear", str(venv)], check=True, timeout=RUN_TIMEOUT)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(_wheel())],
        check=True,
        timeout=RUN_TIMEOUT,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "zz_toolproof_test_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return venv


@pytest.fixture
def runtime_repo(tmp_path: Path) -> Path:
    for name, text in OWN_PACKAGES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(OWN_CONFTEST, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(OWN_INI, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_own.py").write_text(OWN_TEST, encoding="utf-8")
    return tmp_path


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TOOLPROOF_"))}
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False
    )


def test_the_scratch_venv_imports_toolproof_from_the_wheel(scratch_venv: Path) -> None:
    done = _run(
        [str(scratch_venv / "bin" / "python"), "-c", "import toolproof; print(toolproof.__file__)"], Path("/")
    )
    assert done.stdout.startswith(str(scratch_venv)), done.stdout + done.stderr


def test_the_runtimes_own_pytest_passes_beside_toolproof(scratch_venv: Path, runtime_repo: Path) -> None:
    done = _run([str(scratch_venv / "bin" / "python"), "-m", "pytest", "-p", "no:xdist"], runtime_repo)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 passed" in done.stdout


def test_toolproof_run_takes_none_of_the_runtimes_configuration(
    scratch_venv: Path, runtime_repo: Path
) -> None:
    # One suite test, and the runtime's own test by name: were the runtime's rootdir, ini or
    # conftest taken, its own test would be collected and run (or its `--candidate=ours` would pick
    # no candidate at all). The whole suite from an installed wheel is what tox's conformance envs run.
    command = [str(scratch_venv / "bin" / "toolproof"), "run", "--candidate", "reference"]
    selection = "test_tool_text_reaches_the_model_byte_for_byte or test_own_packages_and_option"
    done = _run([*command, "-p", "no:xdist", "-k", selection], runtime_repo)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert ONE_PASSED_REST_DESELECTED.search(done.stdout), done.stdout[-3000:]
    assert "toolproof: exit 0: every MUST check passed" in done.stdout


def test_a_suite_that_cannot_start_is_a_usage_error_not_a_failed_check(
    scratch_venv: Path, runtime_repo: Path
) -> None:
    command = [str(scratch_venv / "bin" / "toolproof"), "run", "--candidate", "reference"]
    done = _run([*command, "--no-such-pytest-option"], runtime_repo)
    assert done.returncode == 2, done.stdout[-3000:] + done.stderr[-3000:]
    assert "toolproof: the suite did not run to a verdict (pytest status 4)" in done.stderr


def test_a_pytest_config_is_taken_only_when_asked(scratch_venv: Path, runtime_repo: Path) -> None:
    (runtime_repo / "toolproof.ini").write_text(
        "[pytest]\naddopts = -k test_run_on_unknown_build_id_is_an_internal_error\n", encoding="utf-8"
    )
    command = [str(scratch_venv / "bin" / "toolproof"), "run", "--candidate", "reference"]
    done = _run([*command, "--pytest-config", "toolproof.ini", "-p", "no:xdist"], runtime_repo)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert ONE_PASSED_REST_DESELECTED.search(done.stdout), done.stdout[-3000:]
