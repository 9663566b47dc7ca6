"""`toolproof probe` (toolproof/tools/probe.py): the reference's profiles probe back to their own
declarations exactly, a defect gets "no declared value fits", a wrong declaration is corrected.

Each probe runs the suite's scenarios several times, so CI probes one profile of the reference
(`reference`, from every option's default: each of its non-default values must be found) and the
faux candidates with --only; TOOLPROOF_PROBE_ALL_PROFILES=1 probes every profile from both starts
(the defaults, and its own declaration; 15 to 30 s each on an idle machine).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from toolproof.candidates.reference.profiles import PROFILES, declared_options

from toolproof.controls.forkserver import run_python
from toolproof.judge.declared import option_defaults
from toolproof.report import exitcodes
from toolproof.tools import probe_options

HERE = Path(__file__).resolve().parent
ALL_PROFILES = os.environ.get("TOOLPROOF_PROBE_ALL_PROFILES") == "1"

# `python -c` of the command line, forked from a preloaded interpreter (toolproof.controls.forkserver).
CLI = "import sys; from toolproof.tools.cli import main; sys.exit(main())"


def toolproof_probe(tmp_path: Path, candidate: str, *args: str) -> tuple[int, str, dict[str, Any]]:
    """(exit status, stdout, the proposed hello.options) of `toolproof probe` in a subprocess."""
    output = tmp_path / "options.json"
    done = run_python(
        CLI,
        [
            "probe",
            "--candidate",
            candidate,
            "--output",
            str(output),
            *args,
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(HERE)},
        timeout=600,
    )
    proposed = json.loads(output.read_text(encoding="utf-8")) if output.is_file() else {}
    return done.returncode, done.stdout + done.stderr, proposed


def relevant(declared: dict[str, Any], wire: str) -> set[str]:
    """The options a scenario can tell apart for a reference profile: all but the ones only the
    runtime's source answers, and those that do not matter under the profile's declaration."""
    out = set(declared) - set(probe_options.FROM_SOURCE)
    out -= {name for name, when in probe_options.RELEVANT_WHEN.items() if not when.holds(declared)}
    return out - {name for name, claim in probe_options.CLAIM_NEEDED.items() if claim != f"openai.{wire}"}


@pytest.mark.parametrize(
    ("profile", "start"),
    [
        pytest.param(
            name,
            start,
            marks=[]
            if (name, start) == ("reference", "defaults") or ALL_PROFILES
            else [pytest.mark.skip(reason="set TOOLPROOF_PROBE_ALL_PROFILES=1 (slow)")],
        )
        for name in PROFILES
        for start in ("defaults", "declared")
    ],
)
def test_a_reference_profile_probes_back_to_its_declaration(tmp_path: Path, profile: str, start: str) -> None:
    """From every option's default (what a fresh `toolproof init` declares: each non-default value of
    the profile must be found), or from the profile's own declaration."""
    declared = {**option_defaults(), **declared_options(PROFILES[profile])}
    args = ["--from-defaults"] if start == "defaults" else []
    code, out, proposed = toolproof_probe(tmp_path, profile, *args)
    expected = {name: declared[name] for name in sorted(relevant(declared, PROFILES[profile].wire))}
    assert (code, proposed) == (exitcodes.OK, expected), out


def test_every_options_tests_tell_its_values_apart(tmp_path: Path) -> None:
    """With --every-value, each option is tried under every listed value: on the reference each
    proposal must name a check another value failed. What makes a declaration whose tests pass
    enough (the default mode): the tests it runs tell the option's values apart."""
    declared = {**option_defaults(), **declared_options(PROFILES["reference"])}
    code, out, proposed = toolproof_probe(tmp_path, "reference", "--every-value")
    expected = {name: declared[name] for name in sorted(relevant(declared, "chat"))}
    untold = [line for line in out.splitlines() if "no scenario failed another value" in line]
    assert (code, proposed, untold) == (exitcodes.OK, expected, []), out


def test_a_defect_fits_no_declared_value(tmp_path: Path) -> None:
    code, out, proposed = toolproof_probe(tmp_path, "py:faux_probe:cap_output_lost", "--only", "turn_cap_end")
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("turn_cap_end:")]
    assert (code, proposed, [line.split(": ")[1] for line in lines]) == (
        exitcodes.OK,
        {},
        ["no declared value fits"],
    ), out


def test_a_wrong_declaration_is_corrected(tmp_path: Path) -> None:
    code, out, proposed = toolproof_probe(tmp_path, "py:faux_probe:cap_stop_hidden", "--only", "turn_cap_end")
    assert (code, proposed) == (
        exitcodes.OK,
        {"turn_cap_end": "graceful", "cap_stop_reason": "not_exposed"},
    ), out


def test_a_candidate_that_cannot_start_fails_closed(tmp_path: Path) -> None:
    code, out, proposed = toolproof_probe(tmp_path, "cmd:false")
    assert (code, proposed) == (exitcodes.CANDIDATE_BROKEN, {}), out
    assert "did not answer hello" in out


def test_an_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    code, out, _ = toolproof_probe(tmp_path, "reference", "--only", "no_such_option")
    assert code == exitcodes.USAGE, out
