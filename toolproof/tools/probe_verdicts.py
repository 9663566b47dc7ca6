"""How `toolproof probe` reads its trials: an option's runs under each value it tried become one
verdict (proposed, no declared value fits, ambiguous, declare from the source, not relevant), and a
free-form value is read off a failing observation (the observers)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolproof.invocation import suite_dir
from toolproof.tools.probe_options import JOINT, QUESTIONS, STRICTER, listed_values

PRECONDITION = "proto.valid-config-builds-and-runs"


TRIAL_SAFETY_CAP = 16


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
class Trial:
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


def one_line(message: str, width: int = 160) -> str:
    text = " ".join(message.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


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
def _observed_cap(run: Trial) -> list[Any]:
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


def _observed_join(run: Trial) -> list[Any]:
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


def _observed_notice(run: Trial) -> list[Any]:
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


def _observed_continuation(run: Trial) -> list[Any]:
    """The text of the user messages a run added after the first request (test_continuation.py
    shows each as "user: <text>"): a synthetic continuation."""
    out: list[Any] = []
    for observed in run.observations.get("cont.none-when-null", []):
        for added in observed if isinstance(observed, list) else []:
            for entry in added if isinstance(added, list) else []:
                if isinstance(entry, str) and entry.startswith("user: ") and entry[6:] not in out:
                    out.append(entry[6:])
    return out


OBSERVERS: dict[str, Callable[[Trial], list[Any]]] = {
    "continuation": _observed_continuation,
    "default_max_tool_turns": _observed_cap,
    "multi_block_join": _observed_join,
    "turn_cap_notice": _observed_notice,
}


# -- deciding -------------------------------------------------------------------------------------
def _everywhere(runs: list[Trial]) -> set[str]:
    """The checks that failed under every value tried (two values at least): what the declaration
    does not decide (a defect elsewhere in the same test, such as a missing default cap)."""
    ran = [r for r in runs if r.items]
    if len(ran) < 2:
        return set()
    return set.intersection(*(set(r.failed) for r in ran))


def _fits_beside(run: Trial, everywhere: set[str]) -> bool:
    """The run fits but for checks that failed under every value."""
    return run.items > 0 and not run.unsettled and set(run.failed) <= everywhere and bool(run.passed)


def _fitting(runs: list[Trial]) -> tuple[list[Trial], set[str]]:
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


def enumerated(option: str, runs: list[Trial], base: Mapping[str, Any]) -> Verdict:
    fitting, everywhere = _fitting(runs)
    values = []
    for r in fitting:
        if r.variant[option] not in values:
            values.append(r.variant[option])
    if len(values) == 1:
        value = values[0]
        told = sorted({c for r in runs if r.variant[option] != value for c in r.failed} - everywhere)
        if len(listed_values(option) or []) == 1:
            return Verdict(option, "proposed", value, "the only value; the checks that read it pass")
        if not told:
            return Verdict(
                option,
                "ambiguous",
                evidence=f"{show(value)} fits, but no scenario failed another value",
            )
        shown = ", ".join(sorted({show(r.variant[option]) for r in runs if r.variant[option] != value}))
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
        lesser = " and ".join(show(v) for v in values if v != value)
        return Verdict(option, "proposed", value, f"fits, and so does {lesser}, which judges less")
    if len(values) > 1:
        return Verdict(
            option,
            "ambiguous",
            evidence=f"the scenarios do not tell {' from '.join(show(v) for v in values)}",
        )
    return unfit(option, runs, base)


def unfit(option: str, runs: list[Trial], base: Mapping[str, Any]) -> Verdict:
    """No value fits: "no declared value fits" when every value failed a check, else ambiguous."""
    if not any(r.items for r in runs):
        return Verdict(option, "ambiguous", evidence="the runtime never reached its scenarios (no test ran)")
    unsettled = [r for r in runs if not r.failed]
    if unsettled:
        r = unsettled[0]
        why = next(iter(r.unsettled.values()), "no check passed")
        return Verdict(
            option, "ambiguous", evidence=f"under {show(r.variant[option])} nothing failed, but {why}"
        )
    declared_run = next((r for r in runs if r.variant.get(option) == base.get(option)), runs[0])
    everywhere = _everywhere(runs)  # none when only the declared value was tried
    check, message = next(iter(declared_run.failed.items()))
    common = f"; {', '.join(sorted(everywhere))} fail under every value" if everywhere else ""
    return Verdict(
        option,
        "no-fit",
        evidence=f"under {show(declared_run.variant[option])} {', '.join(sorted(declared_run.failed))} fail"
        f" ({check}: {message}){common}",
    )


def free_form(option: str, runs: list[Trial], base: Mapping[str, Any]) -> tuple[Verdict, list[Any]]:
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
            evidence=f"the scenarios do not tell {' from '.join(show(r.variant[option]) for r in fitting)}",
        ), []
    observer = OBSERVERS.get(option)
    tried = [r.variant[option] for r in runs]
    found = [v for r in runs for v in (observer(r) if observer else []) if v not in tried]
    verdict = unfit(option, runs, base)
    if verdict.kind == "no-fit" and not found and observer is None:
        verdict = Verdict(
            option, "from-source", evidence=f"{QUESTIONS.get(option, '')} Observed: {verdict.evidence}"
        )
    unique = [json.loads(text) for text in dict.fromkeys(json.dumps(v) for v in found)]
    return verdict, unique


def joint_verdict(dependent: str, parent: str, runs: list[Trial], proposed: Any) -> Verdict:
    trigger = JOINT[parent][0]
    if proposed != trigger:
        return Verdict(dependent, "not-relevant", evidence=f"{parent} is {show(proposed)}")
    fits, everywhere = _fitting(runs)
    fitting = [r.variant[dependent] for r in fits if r.variant.get(parent) == trigger]
    if len(fitting) == 1:
        return Verdict(
            dependent,
            "proposed",
            fitting[0],
            f"with {parent} {show(trigger)}, only it fits" + _aside(everywhere),
        )
    if len(fitting) > 1 and STRICTER.get(dependent) in fitting:
        return Verdict(dependent, "proposed", STRICTER[dependent], "fits, and so do values that judge less")
    return Verdict(
        dependent, "ambiguous", evidence=f"with {parent} {show(trigger)}, {len(fitting)} values fit"
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


def as_declared(
    option: str, runs: list[Trial], base: Mapping[str, Any], verdicts: dict[str, Verdict]
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
                dependent,
                "proposed",
                base[dependent],
                f"as declared, with {option} {show(base[option])}",
            )
            if base[option] == joint[0]
            else Verdict(dependent, "not-relevant", evidence=f"{option} is {show(base[option])}")
        )
    return True


def decide(name: str, runs: list[Trial], base: Mapping[str, Any]) -> tuple[Verdict, list[Any]]:
    """One option's verdict after a round, and the free-form values to try next."""
    if listed_values(name) is None:
        return free_form(name, runs, base)
    return enumerated(name, runs, base), []
