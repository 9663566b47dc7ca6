"""How the suite is started: the pytest arguments every toolproof command passes.

The plugin is not registered as a `pytest11` entry point: it loads only here, with `-p`, so
installing toolproof adds nothing to a runtime's own pytest sessions. And the suite takes none of
the caller's pytest configuration: its own ini file (`-c`), no conftest.py files (`--noconftest`;
the suite's fixtures come with the plugin), no cache directory in the installed package.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SUITE_PACKAGE = "toolproof.conformance"
PLUGIN = "toolproof.plugin"


def suite_dir() -> Path:
    """The installed suite's directory (found without importing the suite)."""
    spec = importlib.util.find_spec(SUITE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{SUITE_PACKAGE} is not installed (is toolproof installed from a wheel?)")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def suite_pytest_args(target: str = SUITE_PACKAGE, config: Path | None = None) -> list[str]:
    """pytest arguments that run the installed suite (or `target`, one of its modules), isolated
    from the caller's configuration; `config` replaces the suite's ini file (an opt-in)."""
    return [
        "-p",
        PLUGIN,
        "--pyargs",
        target,
        "--import-mode=importlib",
        "--noconftest",
        "-c",
        str(config if config is not None else suite_dir() / "pytest.ini"),
        "-p",
        "no:cacheprovider",
    ]
