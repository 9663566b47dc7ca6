"""`toolproof probe`: which declared option values a runtime behaves like, from the suite's own scenarios.

For every option the candidate's claims make relevant, the tests that read it (toolproof/tools/
probe_map.py) run once per value (`--toolproof-variants`, toolproof/plugin/declare.py), in one
pytest session per round. A value fits when no check of those tests fails (on the candidate's side)
under it. One value fits: it is proposed, with the checks that told it apart. None fits: "no
declared value fits", with what failed (a defect is never declared away). Several, or a scenario
the runtime never reached: "ambiguous", nothing proposed. A free-form option (a string, a number)
is tried at its declared value; where the failure's observation shows the runtime's own value (the
tool-call count of an uncapped run, the text between two blocks), that value is tried in the next
round, and proposed only if every check then passes. What no scenario tells apart is "declare from
the runtime's source", with the question to answer.

A later round runs with the earlier rounds' proposals as the declaration (options depend on each
other: the phase of a duplicate only shows under `tool_namespacing: error`). The probe decides no
check: its output is a proposal for `hello.options`, never a verdict.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from toolproof.invocation import suite_dir
from toolproof.judge.contract_files import load_yaml
from toolproof.judge.declared import Declared
from toolproof.plugin.declare import VARIANT_ID
from toolproof.report import exitcodes
from toolproof.tools.probe_map import SuiteTest, scan

ROUNDS = 5
"""Rounds at most: each takes the proposals of the ones before as the declaration."""
TESTS_PER_OPTION = 2
"""Tests run per option: each one reads the option to set what it expects, so two tell its values
apart (one pass under the value, one under another); more would only repeat them, at the cost of
a run per value. A parametrized test runs its first case only, for the same reason."""

FROM_SOURCE: dict[str, str] = {
    "idle_answer_seconds": "How long, at most, does the runtime sit with a build, run or close pending"
    " and every model and MCP request it made already answered (its longest retry back-off or"
    " shutdown), in seconds (1 to 300)?",
}
"""Options no scenario tells apart through the protocol, and the question their value answers."""

QUESTIONS: dict[str, str] = {
    "tool_result_pointer": 'Where in a role "tool" message does the tool\'s text sit: the whole content'
    ' (""), or a JSON pointer into a JSON document (e.g. /output)?',
    "error_result_pointer": "Where does the text of an isError result sit in its tool message: as"
    " tool_result_pointer says (null), or at a JSON pointer of its own (e.g. /error)?",
    "multi_block_join": "Which literal string joins the text blocks of a multi-block tool result?",
    "turn_cap_notice": "What does a run stopped at the cap answer when the last reply's text is blank"
    " (null: that blank text; a string, with {n} for the cap)?",
    "default_max_tool_turns": "Which cap applies when max_tool_turns is absent or null?",
    "continuation": "Does the runtime insert a synthetic user message after tool rounds (null: never;"
    " else its exact text)?",
}
"""The question for a free-form option whose value the traffic did not show."""

RELEVANT_WHEN: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "turn_cap_final_call_tools": lambda o: o["turn_cap_final_call"] is True,
    "cap_stop_reason": lambda o: o["turn_cap_end"] == "graceful",
    "turn_cap_notice": lambda o: o["turn_cap_end"] == "graceful",
    "turn_cap_output": lambda o: o["turn_cap_end"] == "graceful" and o["turn_cap_final_call"] is False,
    "multi_block_join": lambda o: o["tool_result_encoding"] == "text",
    "error_result_pointer": lambda o: o["error_result_encoding"] == "text",
    "items_from_done_events": lambda o: o["model_stream"] == "always",
    "duplicate_tool_phase": lambda o: o["tool_namespacing"] == "error" or o["invalid_tool_name"] == "reject",
}
"""Options that mean something only under other options' values (contracts/options.yaml says which)."""
CONDITIONS: dict[str, str] = {
    "turn_cap_final_call_tools": "turn_cap_final_call true",
    "cap_stop_reason": "turn_cap_end graceful",
    "turn_cap_notice": "turn_cap_end graceful",
    "turn_cap_output": "turn_cap_end graceful and turn_cap_final_call false",
    "multi_block_join": "tool_result_encoding text",
    "error_result_pointer": "error_result_encoding text",
    "items_from_done_events": "model_stream always",
    "duplicate_tool_phase": "tool_namespacing error or invalid_tool_name reject",
}

JOINT: dict[str, tuple[Any, str]] = {
    "turn_cap_final_call": (True, "turn_cap_final_call_tools"),
    "turn_cap_end": ("graceful", "cap_stop_reason"),
}
"""An option whose value makes another one matter: that value is tried with each of the other's."""

STRICTER: dict[str, Any] = {
    "json_tool_text": "verbatim",  # reserialised accepts any JSON-equal text, verbatim only the bytes
    "cap_stop_reason": "reported",  # not_exposed leaves stop_reason unjudged at the cap
}
"""Where one value judges a subset of what another judges: when both fit, the runtime meets the
stricter one, which is proposed (the other would only hide a later change)."""

PRECONDITION = "proto.valid-config-builds-and-runs"
TRIAL_SAFETY_CAP = 16

CLAIM_NEEDED: dict[str, str] = {
    "responses_state": "openai.responses",
    "items_from_done_events": "openai.responses",
}
"""Options that mean something only on one wire (read by the invariants, not by a marked test)."""

HARNESS_READ: dict[str, tuple[str, ...]] = {
    # Read by the per-request invariants (every test), not by a test body: one plain test shows them.
    "model_stream": ("test_loop.py::test_text_reply_completes_the_run",),
    "responses_state": ("test_loop.py::test_text_reply_completes_the_run",),
}


@dataclass(frozen=True)
class Verdict:
    """What the probe says about one option."""

    option: str
    kind: str  # proposed | no-fit | ambiguous | from-source | not-relevant
    value: Any = None  # the proposed value (kind proposed)
    evidence: str = ""  # one line: what was observed

    def line(self) -> str:
        """The option's line of the summary."""
        if self.kind == "proposed":
            return f"{self.option}: {json.dumps(self.value, ensure_ascii=False)}  ({self.evidence})"
        label = {
            "no-fit": "no declared value fits",
            "ambiguous": "ambiguous",
            "from-source": "declare from the runtime's source",
            "not-relevant": "not relevant",
        }[self.kind]
        return f"{self.option}: {label}: {self.evidence}"


@dataclass
class _Run:
    """The results of one variant of one option, over the items that ran it."""

    variant: dict[str, Any]
    failed: dict[str, str] = field(default_factory=dict)  # check id -> first failure's message
    unsettled: dict[str, str] = field(default_factory=dict)  # check id -> why (undecided, timeout, ...)
    observations: dict[str, list[Any]] = field(default_factory=dict)  # check id -> failing observations
    passed: set[str] = field(default_factory=set)
    items: int = 0

    @property
    def fits(self) -> bool:
        return self.items > 0 and not self.failed and not self.unsettled and bool(self.passed)


def _values(option: str) -> list[Any] | None:
    """An option's listed values (a boolean's: false, true); None for a free-form one."""
    spec = load_yaml("options.yaml")["options"][option]
    if spec.get("type") == "boolean":
        return [False, True]
    return list(spec["values"]) if "values" in spec else None


def _one_line(message: str, width: int = 160) -> str:
    text = " ".join(message.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


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


TELLING: dict[str, tuple[str, ...]] = {
    # The plainest tests that read turn_cap_end judge only the count of tool turns, the same under
    # either value; this one judges how the run ends.
    "turn_cap_end": ("test_loop.py::test_cap_end_keeps_the_last_reply_text",),
}
"""Tests to try first for an option, where the plainest ones that read it do not tell its values apart."""


def _suite_constant(module: str, name: str) -> Any:
    """A literal constant of a suite module, read from its source (the scenario's own data)."""
    tree = ast.parse((suite_dir() / module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"{module} has no constant {name}")


# -- observers: a free-form value read off the failing observation under the declared one -----------
def _observed_cap(run: _Run) -> list[Any]:
    """The tools/call count of an uncapped run, unless the harness's safety cap ended it (then the
    count is the harness's, not the runtime's: it has no default cap at all)."""
    declared = run.variant.get("default_max_tool_turns")
    safety = max(TRIAL_SAFETY_CAP, (declared if isinstance(declared, int) else 0) + 4)
    counts = {
        o.get("tools/call requests")
        for o in run.observations.get("loop.cap-default", [])
        if isinstance(o, Mapping)
    }
    return [c for c in counts if isinstance(c, int) and not isinstance(c, bool) and 1 <= c < safety - 1]


def _observed_join(run: _Run) -> list[Any]:
    blocks = _suite_constant("test_results.py", "BLOCKS")
    out = []
    for observed in run.observations.get("result.multi-block", []):
        if not (isinstance(observed, list) and len(observed) == 1 and isinstance(observed[0], str)):
            continue
        text, joins = observed[0], len(blocks) - 1
        extra = len(text) - sum(len(b) for b in blocks)
        if joins and extra >= 0 and extra % joins == 0 and text.startswith(blocks[0]):
            start = len(blocks[0])
            out.append(text[start : start + extra // joins])
    return out


def _observed_notice(run: _Run) -> list[Any]:
    """The blank-reply output at the cap; the cap's number in it becomes {n} (each run of digits
    tried in turn: the next round keeps the one under which every check passes)."""
    out: list[Any] = []
    for observed in run.observations.get("loop.cap-end-blank", []):
        text = observed.get("output") if isinstance(observed, Mapping) else None
        if not isinstance(text, str) or not text.strip():
            continue
        digits = list(re.finditer(r"\d+", text))
        out += [text[: m.start()] + "{n}" + text[m.end() :] for m in digits] or [text]
    return out


def _observed_continuation(run: _Run) -> list[Any]:
    """The text of the user messages a run added after the first request (test_continuation.py
    shows each as "user: <text>"): a synthetic continuation."""
    out: list[Any] = []
    for observed in run.observations.get("cont.none-when-null", []):
        for added in observed if isinstance(observed, list) else []:
            for entry in added if isinstance(added, list) else []:
                if isinstance(entry, str) and entry.startswith("user: ") and entry[6:] not in out:
                    out.append(entry[6:])
    return out


OBSERVERS: dict[str, Callable[[_Run], list[Any]]] = {
    "continuation": _observed_continuation,
    "default_max_tool_turns": _observed_cap,
    "multi_block_join": _observed_join,
    "turn_cap_notice": _observed_notice,
}


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
) -> dict[str, list[_Run]]:
    runs = {option: [_Run(variant=v) for v in variants] for option, variants in plan.variants.items()}
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
                run.failed.setdefault(check, _one_line(result["message"]))
                run.observations.setdefault(check, []).append(result.get("observation"))
            elif status == "fail":
                run.unsettled.setdefault(check, f"{side}: {_one_line(result['message'])}")
            elif status == "undecided":
                run.unsettled.setdefault(check, f"undecided: {_one_line(result['message'])}")
            elif status == "pass" and not result.get("invariant") and check != PRECONDITION:
                run.passed.add(check)  # what the test itself judged, not what every test passes
    for key, tests in items.items():
        for option, index in owners.get(key, []):
            runs[option][index].items += len(tests)
    return runs


def _round(
    spec: str, plan: _Plan, declared: Declared, passthrough: list[str], scratch: Path, number: int
) -> dict[str, list[_Run]]:
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


# -- deciding -------------------------------------------------------------------------------------
def _everywhere(runs: list[_Run]) -> set[str]:
    """The checks that failed under every value tried (two values at least): what the declaration
    does not decide (a defect elsewhere in the same test, such as a missing default cap)."""
    ran = [r for r in runs if r.items]
    if len(ran) < 2:
        return set()
    return set.intersection(*(set(r.failed) for r in ran))


def _fits_beside(run: _Run, everywhere: set[str]) -> bool:
    """The run fits but for checks that failed under every value."""
    return run.items > 0 and not run.unsettled and set(run.failed) <= everywhere and bool(run.passed)


def _fitting(runs: list[_Run]) -> tuple[list[_Run], set[str]]:
    """The runs that fit, and the checks set aside to find them: none when some value fits outright;
    else the checks failed under every value, when exactly one value then fits and each other one
    fails a check of its own (no value fits beside them alike: nothing is told apart)."""
    fitting = [r for r in runs if r.fits]
    everywhere = _everywhere(runs)
    if fitting or not everywhere:
        return fitting, set()
    beside = [r for r in runs if _fits_beside(r, everywhere)]
    others = [r for r in runs if r.items and r not in beside]
    if beside and others and all(set(r.failed) - everywhere for r in others):
        return beside, everywhere
    return [], set()


def _aside(everywhere: set[str]) -> str:
    """The note on checks set aside: they fail whatever is declared, and `toolproof run` shows them."""
    if not everywhere:
        return ""
    return f"; {', '.join(sorted(everywhere))} fail under every value (not the declaration's doing)"


def _enumerated(option: str, runs: list[_Run], base: Mapping[str, Any]) -> Verdict:
    fitting, everywhere = _fitting(runs)
    values = []
    for r in fitting:
        if r.variant[option] not in values:
            values.append(r.variant[option])
    if len(values) == 1:
        value = values[0]
        told = sorted({c for r in runs if r.variant[option] != value for c in r.failed} - everywhere)
        if len(_values(option) or []) == 1:
            return Verdict(option, "proposed", value, "the only value; the checks that read it pass")
        if not told:
            return Verdict(
                option, "ambiguous", evidence=f"{_shown(value)} fits, but no scenario failed another value"
            )
        shown = ", ".join(sorted({_shown(r.variant[option]) for r in runs if r.variant[option] != value}))
        passing = len(set().union(*(r.passed for r in fitting)))
        more = " ..." if len(told) > 4 else ""
        return Verdict(
            option,
            "proposed",
            value,
            f"{passing} checks pass under it; under {shown} {', '.join(told[:4])}{more} fail"
            + _aside(everywhere),
        )
    if len(values) > 1 and STRICTER.get(option) in values:
        value = STRICTER[option]
        lesser = " and ".join(_shown(v) for v in values if v != value)
        return Verdict(option, "proposed", value, f"fits, and so does {lesser}, which judges less")
    if len(values) > 1:
        return Verdict(
            option,
            "ambiguous",
            evidence=f"the scenarios do not tell {' from '.join(_shown(v) for v in values)}",
        )
    return _unfit(option, runs, base)


def _unfit(option: str, runs: list[_Run], base: Mapping[str, Any]) -> Verdict:
    """No value fits: "no declared value fits" when every value failed a check, else ambiguous."""
    if not any(r.items for r in runs):
        return Verdict(option, "ambiguous", evidence="the runtime never reached its scenarios (no test ran)")
    unsettled = [r for r in runs if not r.failed]
    if unsettled:
        r = unsettled[0]
        why = next(iter(r.unsettled.values()), "no check passed")
        return Verdict(
            option, "ambiguous", evidence=f"under {_shown(r.variant[option])} nothing failed, but {why}"
        )
    declared_run = next((r for r in runs if r.variant.get(option) == base.get(option)), runs[0])
    everywhere = set.intersection(*(set(r.failed) for r in runs))
    check, message = next(iter(declared_run.failed.items()))
    common = f"; {', '.join(sorted(everywhere))} fail under every value" if everywhere else ""
    return Verdict(
        option,
        "no-fit",
        evidence=f"under {_shown(declared_run.variant[option])} {', '.join(sorted(declared_run.failed))} fail"
        f" ({check}: {message}){common}",
    )


def _free(option: str, runs: list[_Run], base: Mapping[str, Any]) -> tuple[Verdict, list[Any]]:
    """A free-form option's verdict this round, and the values read off the traffic to try next."""
    fitting = [r for r in runs if r.fits]
    if len(fitting) == 1:
        r = fitting[0]
        how = "declared" if r.variant[option] == base.get(option) else "read off the traffic"
        return Verdict(
            option, "proposed", r.variant[option], f"{how}; {len(r.passed)} checks pass under it"
        ), []
    if len(fitting) > 1:
        return Verdict(
            option,
            "ambiguous",
            evidence=f"the scenarios do not tell {' from '.join(_shown(r.variant[option]) for r in fitting)}",
        ), []
    observer = OBSERVERS.get(option)
    tried = [r.variant[option] for r in runs]
    found = [v for r in runs for v in (observer(r) if observer else []) if v not in tried]
    verdict = _unfit(option, runs, base)
    if verdict.kind == "no-fit" and not found and observer is None:
        verdict = Verdict(
            option, "from-source", evidence=f"{QUESTIONS.get(option, '')} Observed: {verdict.evidence}"
        )
    unique = [json.loads(text) for text in dict.fromkeys(json.dumps(v) for v in found)]
    return verdict, unique


def _variants(option: str, base: Mapping[str, Any], tried: list[Any] | None) -> list[dict[str, Any]]:
    """The declarations an option's tests run under: each listed value (a free-form option: its
    declared value, then the values read off the traffic)."""
    values = _values(option)
    if values is None:
        return [{option: v} for v in (tried if tried is not None else [base[option]])]
    joint = JOINT.get(option)
    out = []
    for value in values:
        if joint is not None and value == joint[0]:
            out += [{option: value, joint[1]: other} for other in _values(joint[1]) or []]
        else:
            out.append({option: value})
    return out


def _joint_verdict(dependent: str, parent: str, runs: list[_Run], proposed: Any) -> Verdict:
    trigger = JOINT[parent][0]
    if proposed != trigger:
        return Verdict(dependent, "not-relevant", evidence=f"{parent} is {_shown(proposed)}")
    fits, everywhere = _fitting(runs)
    fitting = [r.variant[dependent] for r in fits if r.variant.get(parent) == trigger]
    if len(fitting) == 1:
        return Verdict(
            dependent,
            "proposed",
            fitting[0],
            f"with {parent} {_shown(trigger)}, only it fits" + _aside(everywhere),
        )
    if len(fitting) > 1 and STRICTER.get(dependent) in fitting:
        return Verdict(dependent, "proposed", STRICTER[dependent], "fits, and so do values that judge less")
    return Verdict(
        dependent, "ambiguous", evidence=f"with {parent} {_shown(trigger)}, {len(fitting)} values fit"
    )


@dataclass
class ProbeResult:
    """Every option's verdict (in options.yaml order) and the proposed hello.options."""

    verdicts: list[Verdict]
    rounds: int
    seconds: float

    def proposed(self) -> dict[str, Any]:
        """The proposed `hello.options`: every proposed value, nothing else."""
        return {v.option: v.value for v in self.verdicts if v.kind == "proposed"}


def _declared_variant(option: str, base: Mapping[str, Any]) -> dict[str, Any]:
    """The declaration alone (with the option it makes matter, when it does: JOINT)."""
    joint = JOINT.get(option)
    if joint is not None and base[option] == joint[0]:
        return {option: base[option], joint[1]: base[joint[1]]}
    return {option: base[option]}


def _as_declared(
    option: str, runs: list[_Run], base: Mapping[str, Any], verdicts: dict[str, Verdict]
) -> bool:
    """Settle an option tried under its declared value alone, when its tests all pass there (and so
    the option JOINT makes matter); False when they do not: every value is tried next."""
    (run,) = runs
    if not run.fits:
        return False
    verdicts[option] = Verdict(
        option, "proposed", base[option], f"as declared: {len(run.passed)} checks pass under it"
    )
    joint = JOINT.get(option)
    if joint is not None:
        dependent = joint[1]
        verdicts[dependent] = (
            Verdict(
                dependent, "proposed", base[dependent], f"as declared, with {option} {_shown(base[option])}"
            )
            if base[option] == joint[0]
            else Verdict(dependent, "not-relevant", evidence=f"{option} is {_shown(base[option])}")
        )
    return True


def _decide(name: str, runs: list[_Run], base: Mapping[str, Any]) -> tuple[Verdict, list[Any]]:
    """One option's verdict after a round, and the free-form values to try next."""
    if _values(name) is None:
        return _free(name, runs, base)
    return _enumerated(name, runs, base), []


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
            if name in RELEVANT_WHEN and not RELEVANT_WHEN[name](base):
                verdicts[name] = Verdict(
                    name, "not-relevant", evidence=f"it matters only under {CONDITIONS[name]}"
                )
                continue
            chosen = _tests_for(name, tests, declared, used.get(name, 0))
            if not chosen:
                verdicts.setdefault(name, Verdict(name, "not-relevant", evidence="no claimed test reads it"))
                continue
            if _values(name) is None or name in widened:
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
            if _values(name) is not None and name not in widened:
                if _as_declared(name, option_runs, base, verdicts):
                    continue
                widened.add(name)  # its tests failed (or told nothing) under the declaration
                again.add(name)
                verdicts[name] = _unfit(name, option_runs, base)  # should no round be left
                continue
            verdict, found = _decide(name, option_runs, base)
            verdicts[name] = verdict
            if found:
                tries[name] = found
                again.add(name)
            if name in JOINT:
                dependent = JOINT[name][1]
                value = verdict.value if verdict.kind == "proposed" else base[name]
                verdicts[dependent] = _joint_verdict(dependent, name, option_runs, value)
                if verdicts[dependent].kind == "proposed":
                    base[dependent] = verdicts[dependent].value
            if verdict.kind == "proposed":
                base[name] = verdict.value
            elif verdict.kind == "ambiguous" and verdict.evidence.startswith("the scenarios do not tell"):
                used[name] = used.get(name, 0) + TESTS_PER_OPTION
                again.add(name)
            elif verdict.kind == "no-fit" and _values(name) is not None:
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
            relevance = name in RELEVANT_WHEN and RELEVANT_WHEN[name](base) != RELEVANT_WHEN[name](before)
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
