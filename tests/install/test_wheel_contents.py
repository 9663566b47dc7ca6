"""The installed package is the checkout, mapped: nothing the wheel should carry is left behind.

pyproject.toml lists every package by hand (setuptools maps conformance/, candidates/,
negative_controls/ and contracts/ inside `toolproof`); a new subpackage or data file the list
misses would vanish from the wheel silently, and a file deleted from the checkout can live on in
setuptools' build/ directory. Compared file by file, both ways, with git's tracked files.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import toolproof

CHECKOUT = Path(__file__).resolve().parents[2]
INSTALLED = Path(toolproof.__file__).resolve().parent
#: checkout directory -> its place in the installed package
MAPPED = {
    "toolproof": INSTALLED,
    "conformance": INSTALLED / "conformance",
    "candidates": INSTALLED / "candidates",
    "negative_controls": INSTALLED / "negative_controls",
    "contracts": INSTALLED / "contracts",
}
#: shipped kinds of files (the rest of the tree, such as a runtime's lock file, is shipped too when
#: listed here; node_modules never is)
SHIPPED_SUFFIXES = {".py", ".json", ".yaml", ".md", ".ini", ".mjs", ".txt"}


def _tracked(directory: str) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(CHECKOUT), "ls-files", "--", directory],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [name for name in listed if Path(name).suffix in SHIPPED_SUFFIXES]


def test_every_tracked_file_of_the_mapped_directories_is_installed() -> None:
    missing = [
        name
        for directory, target in MAPPED.items()
        for name in _tracked(directory)
        if not (target / Path(name).relative_to(directory)).is_file()
    ]
    assert missing == []


def test_every_installed_file_is_a_tracked_one() -> None:
    # setuptools builds through build/lib, which keeps a file deleted from the checkout: never ship one.
    tracked = {
        (target / Path(name).relative_to(directory)).resolve()
        for directory, target in MAPPED.items()
        for name in _tracked(directory)
    }
    installed = {
        path.resolve()
        for path in INSTALLED.rglob("*")
        if path.is_file() and path.suffix in SHIPPED_SUFFIXES and "__pycache__" not in path.parts
    }
    assert sorted(str(p.relative_to(INSTALLED)) for p in installed - tracked) == []


def test_the_checkout_is_not_what_the_tests_import() -> None:
    # tox runs the self-tests against the installed wheel, from a scratch directory.
    assert not INSTALLED.is_relative_to(CHECKOUT / "toolproof")
