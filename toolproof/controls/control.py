"""What a control is, and how it is applied to a fresh copy of the reference."""

from __future__ import annotations

import importlib
import pkgutil
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import toolproof
from toolproof.connect.connectables import REFERENCE_PROFILES, reference_spec


class StaleControl(Exception):
    """A control's patch no longer matches the reference source exactly once."""


@dataclass(frozen=True)
class Patch:
    """Replace `old` (which must occur exactly once) by `new` in `file` (relative to candidates/reference)."""

    file: str
    old: str
    new: str


PROVENANCES = {
    "public-bug": (
        "a public upstream bug, cited: an issue or pull request, an upstream entry of "
        "contracts/sources.md, or a released runtime's source"
    ),
    "seed": (
        "one of the seed bugs of contracts/sources.md: the Go ADK dedup incident and its review, "
        "the HomeAgent QQ output loop"
    ),
    "contract": "a plausible defect the contract forbids, with no historical instance cited",
}
"""Where a control's bug comes from: every control declares one (`all_controls` refuses one that does not)."""


@dataclass(frozen=True)
class Control:
    """One defect put back into a copy of the reference: a historical bug, or one the contract forbids."""

    name: str
    bug: str
    source: str
    kills: tuple[str, ...]
    patches: tuple[Patch, ...]
    #: One of PROVENANCES, decided from `source` and the control's text.
    provenance: str = ""
    profile: str = "reference"
    collateral: tuple[str, ...] = field(default=())
    #: "py" runs the patched copy in-process; "cmd" runs it as a JSON Lines subprocess
    #: (for adapter-conduct checks that only exist on a wire).
    transport: str = "py"
    #: "reference": patches apply to candidates/reference and the suite judges the copy.
    #: "toolproof": patches apply to a copy of the installed `toolproof` package (the suite
    #: and harness themselves), and `runs` says what judges the copy.
    target: str = "reference"
    #: For target "toolproof": "selftest" (`pytest -p toolproof.plugin --pyargs toolproof.selftest`, kills are
    #: `selftest:<test id>`) or "lint" (`python -m toolproof.lint` over the copy's suite,
    #: kills are `lint:<rule>:<file under toolproof/>`, killed when that count rises).
    runs: str = "selftest"
    #: Named mode only: a pytest -k expression narrowing the tests run for this control.
    #: For controls naming an invariant check (hosted by every test), name the tests that
    #: exercise the bug, or the control reruns the whole suite.
    select: str | None = None
    #: Extra pytest arguments of every suite run of this control (e.g. a short `--toolproof-timeout`
    #: for a control whose bug is a hang, so that it does not slow the whole controls run).
    pytest_args: tuple[str, ...] = ()


# The patched copy is imported as the top-level package `candidates` of its scratch directory, not
# as `toolproof.candidates`: the reference imports itself relatively, so it runs under either name,
# and the installed harness never shadows the copy.
def candidate_spec(profile: str, transport: str) -> str:
    """The --candidate spec of a profile of the (patched) reference copy."""
    if transport == "cmd":
        return f"cmd:{{python}} -m candidates.reference.adapter --profile {profile}"
    return PROFILES[profile]


PROFILES = {profile: reference_spec(profile, package="candidates") for profile in REFERENCE_PROFILES}
"""Each reference profile -> the `py:` spec of the copy's factory (the copy is `candidates`)."""


def candidates_root() -> Path:
    """The installed `toolproof.candidates` package (the reference a control copies)."""
    # By name: the checkout keeps candidates/ beside the package, the wheel maps it inside (HACKING.md).
    return Path(importlib.import_module("toolproof.candidates").__file__ or "").resolve().parent


def materialize(control: Control | None, workdir: Path) -> Path:
    """Copy the reference (only it: not the other adapters or their node_modules) into
    `workdir/candidates` and apply the control's patches; return workdir."""
    source = candidates_root()
    target = workdir / "candidates"
    target.mkdir(parents=True)
    shutil.copy2(source / "__init__.py", target / "__init__.py")
    shutil.copytree(
        source / "reference", target / "reference", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    for patch in control.patches if control else ():
        path = target / "reference" / patch.file
        text = path.read_text(encoding="utf-8")
        count = text.count(patch.old)
        if count != 1:
            raise StaleControl(
                f"control {control.name if control else '?'}: {patch.file} contains the text to replace "
                f"{count} times (must be exactly once): {patch.old[:120]!r}"
            )
        path.write_text(text.replace(patch.old, patch.new), encoding="utf-8")
    return workdir


def toolproof_root() -> Path:
    """The directory of the installed `toolproof` package (the suite and harness a control copies)."""
    return Path(toolproof.__file__).resolve().parent


def materialize_toolproof(control: Control | None, workdir: Path) -> Path:
    """Copy the `toolproof` package (with its contracts) into `workdir`, apply the patches; return workdir.

    Patch files are relative to the copied package (`selftest/probes.py`, `conformance/test_protocol.py`).
    """
    from toolproof.judge.contract_files import contracts_dir

    target = workdir / "toolproof"
    shutil.copytree(toolproof_root(), target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if not (target / "contracts" / "options.yaml").is_file():
        # An editable install keeps contracts/ beside the package: carry it to where a wheel has it.
        shutil.copytree(contracts_dir(), target / "contracts", ignore=shutil.ignore_patterns("__pycache__"))
    for patch in control.patches if control else ():
        path = target / patch.file
        text = path.read_text(encoding="utf-8")
        count = text.count(patch.old)
        if count != 1:
            raise StaleControl(
                f"control {control.name if control else '?'}: toolproof/{patch.file} contains the text to "
                f"replace {count} times (must be exactly once): {patch.old[:120]!r}"
            )
        path.write_text(text.replace(patch.old, patch.new), encoding="utf-8")
    return workdir


def check_provenance(controls: list[Control]) -> None:
    """ValueError naming every control whose provenance is missing or not one of PROVENANCES."""
    undeclared = sorted(
        f"{c.name}: {c.provenance or '(none)'}" for c in controls if c.provenance not in PROVENANCES
    )
    if undeclared:
        raise ValueError(
            f"controls without a provenance of {', '.join(PROVENANCES)}: {'; '.join(undeclared)}"
        )


def all_controls() -> list[Control]:
    """Every module of `toolproof.negative_controls` that defines CONTROL, sorted by name."""
    package = importlib.import_module("toolproof.negative_controls")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        control = getattr(module, "CONTROL", None)
        if isinstance(control, Control):
            found.append(control)
    check_provenance(found)
    names = [c.name for c in found]
    if len(names) != len(set(names)):
        raise ValueError(f"duplicate control names: {sorted(names)}")
    return sorted(found, key=lambda c: c.name)


def declared_kills() -> dict[str, tuple[str, ...]]:
    """Each control's name -> the checks it declares it kills (what the traceability table shows)."""
    return {control.name: control.kills for control in all_controls()}


def provenance_counts(controls: list[Control]) -> dict[str, int]:
    """How many of `controls` are of each provenance (every kind listed, in PROVENANCES' order)."""
    return {kind: sum(c.provenance == kind for c in controls) for kind in PROVENANCES}
