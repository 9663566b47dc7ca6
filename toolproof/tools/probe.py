"""`toolproof probe`: propose the `hello.options` a runtime behaves like.

For every option the candidate's claims make relevant, the tests that read it (probe_map.py) run
under the declaration (`--toolproof-variants`, toolproof/plugin/declare.py), in one pytest session
per round. An option whose tests all pass keeps its value. One whose tests fail runs them again next
round once per listed value (`--every-value`: every option, from the start), and what fits is
proposed (probe_verdicts.py reads the trials; probe_options.py holds what the probe knows of each
option). A later round runs with the earlier rounds' proposals as the declaration: options depend
on each other (the phase of a duplicate only shows under `tool_namespacing: error`). The probe
decides no check: its output is a proposal for `hello.options`, never a verdict.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from toolproof.judge.contract_files import load_yaml
from toolproof.judge.declared import Declared
from toolproof.plugin.declare import VARIANT_ID
from toolproof.report import exitcodes
from toolproof.tools.probe_map import SuiteTest, scan
from toolproof.tools.probe_options import (
    CLAIM_NEEDED,
    FROM_SOURCE,
    HARNESS_READ,
    JOINT,
    RELEVANT_WHEN,
    TELLING,
    listed_values,
)
from toolproof.tools.probe_verdicts import (
    PRECONDITION,
    TRIAL_SAFETY_CAP,
    ProbeResult,
    Trial,
    Verdict,
    as_declared,
    decide,
    joint_verdict,
    one_line,
    unfit,
)

ROUNDS = 5
"""Rounds at most: each takes the proposals of the ones before as the declaration."""


TESTS_PER_OPTION = 2
"""Tests run per option: each one reads the option to set what it expects, so two tell its values
apart (one pass under the value, one under another); more would only repeat them, at the cost of
a run per value. A parametrized test runs its first case only, for the same reason."""


def _claimed(test: SuiteTest, declared: Declared) -> bool:
    return all(declared.claims(c) for c in test.capabilities)


def _tests_for(option: str, tests: list[SuiteTest], declared: Declared, skip: int = 0) -> list[SuiteTest]:
    """The claimed tests that read `option`, the most specific first (fewer options read before
    more), TESTS_PER_OPTION of them after the first `skip`; a Hypothesis test (many builds per run)
    only when no plain test reads it."""
    names = HARNESS_READ.get(option)
    reading = [
        t for t in tests if (t.key in names if names else option in t.options) and _claimed(t, declared)
    ]
    plain = [t for t in reading if not t.drawn]
    first = TELLING.get(option, ())
    ranked = sorted(plain or reading, key=lambda t: (t.key not in first, len(t.options), t.key))
    return ranked[skip : skip + TESTS_PER_OPTION]


# -- one round ------------------------------------------------------------------------------------
@dataclass
class _Plan:
    """A round: per option, its variants and the tests that run them."""

    base: dict[str, Any]
    variants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # option -> variants
    tests: dict[str, list[SuiteTest]] = field(default_factory=dict)  # option -> tests

    def file(self) -> tuple[dict[str, Any], dict[tuple[str, int], list[tuple[str, int]]]]:
        """The --toolproof-variants document, and (test key, k) -> the (option, variant index) it
        stands for: equal declarations of one test run once."""
        per_test: dict[str, list[dict[str, Any]]] = {}
        owners: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for option, variants in self.variants.items():
            for test in self.tests[option]:
                listed = per_test.setdefault(test.key, [])
                for index, variant in enumerate(variants):
                    effective = {k: v for k, v in variant.items() if self.base.get(k, object()) != v}
                    if effective not in listed:
                        listed.append(effective)
                    owners.setdefault((test.key, listed.index(effective)), []).append((option, index))
        return {"tests": per_test, "one_case": True}, owners


_ITEM = re.compile(r"^(?P<module>[^:]+)::(?P<name>[^\[]+)\[(?:.*-)?" + VARIANT_ID + r"(?P<k>\d+)(?:-.*)?\]$")


def _runs(
    plan: _Plan, report: Mapping[str, Any], owners: dict[tuple[str, int], list[tuple[str, int]]]
) -> dict[str, list[Trial]]:
    runs = {option: [Trial(variant=v) for v in variants] for option, variants in plan.variants.items()}
    items: dict[tuple[str, int], set[str]] = {}
    for result in report.get("results", []):
        match = _ITEM.match(str(result["test"]).rsplit("/", 1)[-1])
        if match is None:
            continue
        key = (f"{match['module']}::{match['name']}", int(match["k"]))
        items.setdefault(key, set()).add(str(result["test"]))
        for option, index in owners.get(key, []):
            run = runs[option][index]
            check, status, side = result["check"], result["status"], result["side"]
            if status == "fail" and side == "candidate":
                run.failed.setdefault(check, one_line(result["message"]))
                run.observations.setdefault(check, []).append(result.get("observation"))
            elif status == "fail":
                run.unsettled.setdefault(check, f"{side}: {one_line(result['message'])}")
            elif status == "undecided":
                run.unsettled.setdefault(check, f"undecided: {one_line(result['message'])}")
            elif status == "pass" and not result.get("invariant") and check != PRECONDITION:
                run.passed.add(check)  # what the test itself judged, not what every test passes
    for key, tests in items.items():
        for option, index in owners.get(key, []):
            runs[option][index].items += len(tests)
    return runs


def _round(
    spec: str, plan: _Plan, declared: Declared, passthrough: list[str], scratch: Path, number: int
) -> dict[str, list[Trial]]:
    document, owners = plan.file()
    variants_path = scratch / f"variants-{number}.json"
    report_path = scratch / f"report-{number}.json"
    variants_path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    declare = [
        f"--toolproof-declare={name}={json.dumps(value)}"
        for name, value in plan.base.items()
        if declared.options[name] != value
    ]
    command = [
        sys.executable,
        "-c",
        "import sys; from toolproof.tools.cli import main; sys.exit(main())",
        "run",
        "--candidate",
        spec,
        "--",
        "-q",
        "-p",
        "no:cacheprovider",
        "--tb=no",
        "--toolproof-variants",
        str(variants_path),
        # A trial under a wrong cap value may loop until the harness stops it: at 16 model
        # requests, not 64 (never below the declared default cap + 4).
        "--toolproof-safety-cap",
        str(TRIAL_SAFETY_CAP),
        "--report-json",
        str(report_path),
        *declare,
        *passthrough,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=dict(os.environ))
    if done.returncode == exitcodes.USAGE or not report_path.is_file():
        raise ProbeError(
            done.returncode
            if done.returncode in (exitcodes.USAGE, exitcodes.CANDIDATE_BROKEN)
            else exitcodes.HARNESS,
            f"round {number} of the probe did not run to a report (exit {done.returncode}):\n"
            + (done.stdout[-2000:] + done.stderr[-2000:]).strip(),
        )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    return _runs(plan, report, owners)


class ProbeError(Exception):
    """The probe could not run (usage, a broken candidate, the harness): an exit code and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _variants(option: str, base: Mapping[str, Any], tried: list[Any] | None) -> list[dict[str, Any]]:
    """The declarations an option's tests run under: each listed value (a free-form option: its
    declared value, then the values read off the traffic)."""
    values = listed_values(option)
    if values is None:
        return [{option: v} for v in (tried if tried is not None else [base[option]])]
    joint = JOINT.get(option)
    out = []
    for value in values:
        if joint is not None and value == joint[0]:
            out += [{option: value, joint[1]: other} for other in listed_values(joint[1]) or []]
        else:
            out.append({option: value})
    return out


def _declared_variant(option: str, base: Mapping[str, Any]) -> dict[str, Any]:
    """The declaration alone (with the option it makes matter, when it does: JOINT)."""
    joint = JOINT.get(option)
    if joint is not None and base[option] == joint[0]:
        return {option: base[option], joint[1]: base[joint[1]]}
    return {option: base[option]}


def probe(
    spec: str,
    declared: Declared,
    passthrough: list[str],
    scratch: Path,
    only: frozenset[str] | None = None,
    start: Mapping[str, Any] | None = None,
    every_value: bool = False,
) -> ProbeResult:
    """Run the rounds against `spec`, whose hello answered `declared`, from the declaration
    `start` (default: what hello declared).

    Round 1 runs every relevant option's telling tests under that declaration alone: an option
    whose tests all pass keeps its value. An option whose tests fail (or, with `every_value`,
    every option) is tried under each listed value in the next round, and what fits is proposed.
    A later round probes again only what the one before left open and can change: an option whose
    tests read an option whose value changed (a proposal, or the closest value of one that nothing
    fit), one that became relevant, a free-form value read off the traffic, an ambiguous one with
    tests not run yet.
    """
    started = time.monotonic()
    tests = scan()
    names = list(load_yaml("options.yaml")["options"])
    base = dict(start if start is not None else declared.options)
    refitted: set[str] = set()  # options nothing fit, tried once more under their closest value
    # Options tried under each listed value: all of them with every_value, else those whose tests
    # failed under the declared value (a declaration its telling tests pass needs no other trial).
    widened: set[str] = set(names) if every_value else set()
    verdicts: dict[str, Verdict] = {}
    tries: dict[str, list[Any]] = {}
    used: dict[str, int] = {}  # option -> tests already run for it (an ambiguous one gets the next ones)
    dependents = {joint[1]: parent for parent, joint in JOINT.items()}
    pending = {n for n in names if n not in FROM_SOURCE and n not in dependents}
    if only is not None:  # --only: these options (and the ones probed jointly with them)
        names = [n for n in names if n in only or dependents.get(n) in only]
        pending &= set(names)
    rounds = 0
    for number in range(1, ROUNDS + 1):
        plan = _Plan(base=dict(base))
        for name in [n for n in names if n in pending]:
            if name in CLAIM_NEEDED and not declared.claims(CLAIM_NEEDED[name]):
                verdicts[name] = Verdict(
                    name, "not-relevant", evidence=f"{CLAIM_NEEDED[name]} is not claimed"
                )
                continue
            if name in RELEVANT_WHEN and not RELEVANT_WHEN[name].holds(base):
                verdicts[name] = Verdict(
                    name, "not-relevant", evidence=f"it matters only under {RELEVANT_WHEN[name].text}"
                )
                continue
            chosen = _tests_for(name, tests, declared, used.get(name, 0))
            if not chosen:
                verdicts.setdefault(name, Verdict(name, "not-relevant", evidence="no claimed test reads it"))
                continue
            if listed_values(name) is None or name in widened:
                plan.variants[name] = _variants(name, base, tries.pop(name, None))
            else:
                plan.variants[name] = [_declared_variant(name, base)]
            plan.tests[name] = chosen
        if not plan.variants:
            break
        rounds = number
        runs = _round(spec, plan, declared, passthrough, scratch, number)
        before = dict(base)
        again: set[str] = set()
        for name, option_runs in runs.items():
            if listed_values(name) is not None and name not in widened:
                if as_declared(name, option_runs, base, verdicts):
                    continue
                widened.add(name)  # its tests failed (or told nothing) under the declaration
                again.add(name)
                verdicts[name] = unfit(name, option_runs, base)  # should no round be left
                continue
            verdict, found = decide(name, option_runs, base)
            verdicts[name] = verdict
            if found:
                tries[name] = found
                again.add(name)
            if name in JOINT:
                dependent = JOINT[name][1]
                value = verdict.value if verdict.kind == "proposed" else base[name]
                verdicts[dependent] = joint_verdict(dependent, name, option_runs, value)
                if verdicts[dependent].kind == "proposed":
                    base[dependent] = verdicts[dependent].value
            if verdict.kind == "proposed":
                base[name] = verdict.value
            elif verdict.kind == "ambiguous" and verdict.evidence.startswith("the scenarios do not tell"):
                used[name] = used.get(name, 0) + TESTS_PER_OPTION
                again.add(name)
            elif verdict.kind == "no-fit" and listed_values(name) is not None:
                # The closest value becomes the declaration next round (a coupled option may be
                # what fails it); the verdict stays no-fit unless a later round finds a fit.
                closest = min(option_runs, key=lambda r: (len(r.failed), r.variant[name] != base[name]))
                base[name] = closest.variant[name]
                if name not in refitted:  # once: a second miss under the same values adds nothing
                    refitted.add(name)
                    again.add(name)
        changed = {n for n in names if base[n] != before[n]}
        if changed & set(HARNESS_READ):  # read by the invariants of every test: every open option again
            changed |= set(names)
        for name in names:
            if name in FROM_SOURCE or name in dependents:
                continue
            open_ = verdicts.get(name) is None or verdicts[name].kind != "proposed"
            reads_changed = any(changed & t.options for t in _tests_for(name, tests, declared))
            relevance = name in RELEVANT_WHEN and RELEVANT_WHEN[name].holds(base) != RELEVANT_WHEN[
                name
            ].holds(before)
            if relevance or (open_ and reads_changed):
                again.add(name)
        pending = again
        if not pending:
            break
    for name, question in FROM_SOURCE.items():
        if name in names:
            verdicts[name] = Verdict(name, "from-source", evidence=question)
    for name in names:
        verdicts.setdefault(name, Verdict(name, "not-relevant", evidence="no scenario ran for it"))
    return ProbeResult([verdicts[n] for n in names], rounds, time.monotonic() - started)


def write_summary(result: ProbeResult, spec: str, out: TextIO) -> None:
    """The stdout summary: one line per option, then the proposed hello.options."""
    print(f"toolproof probe of {spec}: {result.rounds} round(s), {result.seconds:.1f} s", file=out)
    for kind in ("proposed", "no-fit", "ambiguous", "from-source", "not-relevant"):
        for verdict in result.verdicts:
            if verdict.kind == kind:
                print(f"  {verdict.line()}", file=out)
    print("proposed hello.options (a proposal, not a verdict: `toolproof run` judges it):", file=out)
    print(json.dumps(result.proposed(), indent=2, ensure_ascii=False), file=out)


def main(
    spec: str,
    declared: Declared,
    passthrough: list[str],
    output: Path | None,
    out: TextIO,
    only: frozenset[str] | None = None,
    start: Mapping[str, Any] | None = None,
    every_value: bool = False,
) -> int:
    """Probe, print the summary, write `output`; the exit status (0: the probe ran)."""
    with tempfile.TemporaryDirectory(prefix="toolproof-probe-") as scratch:
        kept = os.environ.get("TOOLPROOF_PROBE_SCRATCH")  # debugging: keep the rounds' files there
        try:
            result = probe(spec, declared, passthrough, Path(kept or scratch), only, start, every_value)
        except ProbeError as exc:
            print(f"toolproof probe: {exc}", file=sys.stderr)
            return exc.status
    write_summary(result, spec, out)
    if output is not None:
        output.write_text(
            json.dumps(result.proposed(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return exitcodes.OK
