"""The named-probe registry: every predicate the suite classifies observations with.

A probe is one production object the suite judges with (a protocol or wire
JSON Schema, a whole-suite invariant, an observation matcher, the
differential schema check), wrapped as
`sample -> problems`. Each probe has samples it must accept (no problems)
and samples it must reject (exactly the pinned number of problems) in
`contracts/probes/<name>.json`; `pytest -p toolproof.plugin --pyargs toolproof.selftest` runs
them. The wrapper calls the production object itself (never a copy of it),
and the selftest checks that by identity (`Probe.target`).

This module is the ONE place probes are looked up (`probe`, `probes`): the
`any-typed-probe` control swaps every probe for one that accepts anything
by patching `probe()`, and the selftest must then fail.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for

from toolproof.connect import protocol
from toolproof.fakes.records import ModelRequest
from toolproof.judge import invariants, jsondiff
from toolproof.judge.contract_files import contracts_dir, load_json
from toolproof.judge.declared import CAPABILITIES, Declared, option_defaults
from toolproof.plugin import scenario

Sample = Mapping[str, Any]
Judge = Callable[[Sample], list[str]]
PROBES_DIR = "probes"


@dataclass(frozen=True)
class Probe:
    """One named predicate: `problems(sample)` is empty exactly when it accepts the sample."""

    name: str
    kind: str  # "schema" | "invariant" | "request-invariant" | "matcher"
    summary: str
    #: The production object this probe exercises (identity-checked by the selftest).
    target: Any
    judge: Judge
    #: Sample fields: required, then optional (`why` and, for rejects, `problems` come on top).
    fields: tuple[tuple[str, ...], tuple[str, ...]]

    def problems(self, sample: Sample) -> list[str]:
        """What the production object objects to in `sample` ([] = accepted)."""
        return list(self.judge(sample))


# -- sample helpers ------------------------------------------------------------------


def declared_for(sample: Sample) -> Declared:
    """A candidate claiming every capability, with the sample's `options` over the defaults."""
    stated = dict(sample.get("options") or {})
    unknown = sorted(set(stated) - set(option_defaults()))
    if unknown:
        raise ValueError(f"sample options name unknown options: {unknown}")
    return Declared(
        implementation={"name": "probe-sample", "version": "0", "language": "json"},
        capabilities=frozenset(CAPABILITIES),
        options={**option_defaults(), **stated},
        declared_options=frozenset(stated),
    )


def request_for(sample: Sample) -> ModelRequest:
    """A recorded model request built from a sample's `request` (`json` body, or `raw` text; `headers`
    as [name, value] pairs, by default only `content-type: application/json`; how the fake answered
    it, `status` (200) and `note` (""); a chained request's `resolved` conversation)."""
    spec = dict(sample["request"])
    token = str(spec.get("token", "probe0token"))
    if "raw" in spec:
        raw = str(spec["raw"]).encode("utf-8")
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
    else:
        parsed = spec.get("json")
        raw = json.dumps(parsed).encode("utf-8")
    return ModelRequest(
        token=token,
        index=0,
        method=str(spec.get("method", "POST")),
        path=str(spec.get("path", f"/{token}/v1/chat/completions")),
        query=str(spec.get("query", "")),
        headers=tuple(
            (str(n), str(v)) for n, v in spec.get("headers", [("content-type", "application/json")])
        ),
        body=raw,
        json=parsed,
        status=int(spec.get("status", 200)),
        response=None,
        note=str(spec.get("note", "")),
        resolved=spec.get("resolved"),
    )


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


# -- the probes ----------------------------------------------------------------------


def _protocol_probe(op: str, response: bool) -> Probe:
    direction = "response" if response else "request"

    def judge(sample: Sample) -> list[str]:
        # The validator object Candidate uses for every message it sends and receives.
        problem = protocol._first_error(protocol._validator(op, response), sample["instance"])
        return [] if problem is None else [problem]

    return Probe(
        name=f"protocol.{op}.{direction}",
        kind="schema",
        summary=f"protocol v1 {op} {direction} (contracts/protocol/commands/{op}.json)",
        target=protocol._validator(op, response),
        judge=judge,
        fields=(("instance",), ()),
    )


def wire_schema_files() -> list[str]:
    """Paths (relative to contracts/) of the wire JSON Schemas."""
    folder = contracts_dir() / "wire"
    return sorted(f"wire/{p.name}" for p in folder.glob("*.json")) if folder.is_dir() else []


def _wire_schema_probe(relative: str) -> Probe:
    def judge(sample: Sample) -> list[str]:
        schema = load_json(relative)  # cached: the very document the invariants validate with
        validator = validator_for(schema)(schema)
        return [
            f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message[:300]}"
            for e in validator.iter_errors(sample["instance"])
        ]

    stem = relative.removeprefix("wire/").removesuffix(".json")
    return Probe(
        name=f"wire-schema.{stem}",
        kind="schema",
        summary=f"contracts/{relative}",
        target=load_json(relative),
        judge=judge,
        fields=(("instance",), ()),
    )


def _invariant_probe(check_id: str) -> Probe:
    def judge(sample: Sample) -> list[str]:
        # Looked up at call time: exactly what invariants.judge() runs.
        return invariants.INVARIANTS[check_id](sample["body"], declared_for(sample))

    function = invariants.INVARIANTS[check_id]
    return Probe(
        name=check_id,
        kind="invariant",
        summary=_first_line(function.__doc__),
        target=function,
        judge=judge,
        fields=(("body",), ("options",)),
    )


def _request_invariant_probe(check_id: str) -> Probe:
    def judge(sample: Sample) -> list[str]:
        return invariants.REQUEST_INVARIANTS[check_id](request_for(sample), declared_for(sample))

    function = invariants.REQUEST_INVARIANTS[check_id]
    return Probe(
        name=check_id,
        kind="request-invariant",
        summary=_first_line(function.__doc__),
        target=function,
        judge=judge,
        fields=(("request",), ("options",)),
    )


def _matcher_probes() -> list[Probe]:
    """The observation matchers tests read the fakes' records with, pinned to `expected` exactly."""

    def differences(sample: Sample) -> list[str]:
        return jsondiff.differences(sample["observed"], sample["expected"])

    def tool_text(sample: Sample) -> list[str]:
        seen = scenario.tool_text(sample["message"], declared_for(sample))
        return jsondiff.differences(seen, sample["expected"])

    def tool_texts(sample: Sample) -> list[str]:
        seen = scenario.tool_texts(sample["body"], declared_for(sample))
        return jsondiff.differences(seen, sample["expected"])

    def answers_in_call_order(sample: Sample) -> list[str]:
        seen = scenario.answers_in_call_order(sample["body"], declared_for(sample))
        return jsondiff.differences(seen, sample["expected"])

    def wire_name_for(sample: Sample) -> list[str]:
        seen = scenario.wire_name_for(sample["body"], sample["marker"])
        return jsondiff.differences(seen, sample["expected"])

    def offered_tools(sample: Sample) -> list[str]:
        return jsondiff.differences(scenario.offered_tools(sample["body"]), sample["expected"])

    def shown_markers(sample: Sample) -> list[str]:
        seen = invariants.shown_markers(sample["check"], sample["body"])
        return jsondiff.differences(seen, sample["expected"])

    def matcher(name: str, target: Any, judge: Judge, *required: str, declared: bool = False) -> Probe:
        fields = (required, ("options",) if declared else ())
        return Probe(name, "matcher", _first_line(target.__doc__), target, judge, fields)

    return [
        matcher("match.differences", jsondiff.differences, differences, "observed", "expected"),
        matcher("match.tool-text", scenario.tool_text, tool_text, "message", "expected", declared=True),
        matcher("match.tool-texts", scenario.tool_texts, tool_texts, "body", "expected", declared=True),
        matcher(
            "match.answers-in-call-order",
            scenario.answers_in_call_order,
            answers_in_call_order,
            "body",
            "expected",
            declared=True,
        ),
        matcher("match.wire-name-for", scenario.wire_name_for, wire_name_for, "body", "marker", "expected"),
        matcher("match.offered-tools", scenario.offered_tools, offered_tools, "body", "expected"),
        matcher("match.shown-markers", invariants.shown_markers, shown_markers, "check", "body", "expected"),
    ]


DIFFERENTIAL = ("toolproof.conformance.test_wire", "verdict")
"""The differential schema check: how the suite classifies an instance under the `parameters` sent.

Named as a string, as the harness names the suite everywhere: the checkout has no
`toolproof/conformance/` for mypy to read (the install maps `conformance/` there)."""


def differential_verdict() -> Any:
    """The suite's own `verdict(parameters, instance)` (the production object, not a copy)."""
    module_name, attribute = DIFFERENTIAL
    return getattr(importlib.import_module(module_name), attribute)


def _differential_probe() -> Probe:
    """`verdict(parameters, instance)` must agree exactly with validity under the MCP inputSchema."""
    verdict = differential_verdict()

    def judge(sample: Sample) -> list[str]:
        oracle = Draft202012Validator(sample["input_schema"]).is_valid(sample["instance"])
        return jsondiff.differences(verdict(sample["parameters"], sample["instance"]), oracle)

    return Probe(
        name="differential.schema-verdict",
        kind="matcher",
        summary=_first_line(verdict.__doc__),
        target=verdict,
        judge=judge,
        fields=(("parameters", "input_schema", "instance"), ()),
    )


def _build() -> dict[str, Probe]:
    found = [_protocol_probe(op, response) for op in protocol.OPS for response in (False, True)]
    found += [_wire_schema_probe(relative) for relative in wire_schema_files()]
    found += [_invariant_probe(check_id) for check_id in invariants.INVARIANTS]
    found += [_request_invariant_probe(check_id) for check_id in invariants.REQUEST_INVARIANTS]
    found += _matcher_probes()
    found.append(_differential_probe())
    registry: dict[str, Probe] = {}
    for one in found:
        if one.name in registry:
            raise ValueError(f"two probes are named {one.name!r}")
        registry[one.name] = one
    return registry


@cache
def _registry() -> dict[str, Probe]:
    return _build()


def names() -> list[str]:
    """Every registered probe name, sorted."""
    return sorted(_registry())


def probe(name: str) -> Probe:
    """The probe registered under `name` (the one lookup everything goes through)."""
    return _registry()[name]


def probes() -> list[Probe]:
    """Every registered probe, by name."""
    return [probe(name) for name in names()]


# -- samples -------------------------------------------------------------------------


@dataclass(frozen=True)
class Samples:
    """What one probe must accept and must reject (reject samples pin the number of problems)."""

    probe: str
    accept: tuple[Sample, ...]
    reject: tuple[Sample, ...]


def sample_files() -> list[str]:
    """Names of the probes that have a samples file under contracts/probes/."""
    folder = contracts_dir() / PROBES_DIR
    return sorted(p.name.removesuffix(".json") for p in folder.glob("*.json")) if folder.is_dir() else []


def samples(name: str) -> Samples:
    """Load and shape-check `contracts/probes/<name>.json` against the probe's sample fields."""
    data = load_json(f"{PROBES_DIR}/{name}.json")
    if data.get("probe") != name or set(data) != {"probe", "accept", "reject"}:
        raise ValueError(f"probes/{name}.json must hold exactly probe={name!r}, accept, reject")
    required, optional = probe(name).fields
    for verdict in ("accept", "reject"):
        extra = ("why", "problems") if verdict == "reject" else ("why",)
        for index, sample in enumerate(data[verdict]):
            where = f"probes/{name}.json {verdict}[{index}]"
            missing = set(required) - set(sample) | {"why"} - set(sample)
            unknown = set(sample) - set(required) - set(optional) - set(extra)
            if missing or unknown:
                raise ValueError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
            if verdict == "reject" and not (
                isinstance(sample.get("problems"), int) and sample["problems"] > 0
            ):
                raise ValueError(f"{where}: a reject sample pins `problems`, a positive integer")
    return Samples(name, tuple(data["accept"]), tuple(data["reject"]))
