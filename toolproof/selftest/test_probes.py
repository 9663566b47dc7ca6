"""Every probe accepts what it must accept and rejects what it must reject (contracts/probes/).

A probe that accepts everything (a JSON Schema `{}`, a predicate that never
reports a problem: the Python form of the seed's `ProcessRequest(ctx any,
req any)`) fails `test_probe_rejects`; one that rejects everything fails
`test_probe_accepts`. The registry must cover every production probe, and
each registered probe must wrap the production object itself, never a copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolproof.connect import protocol
from toolproof.judge import invariants, jsondiff
from toolproof.judge.contract_files import contracts_dir, load_json
from toolproof.judge.jsondiff import render
from toolproof.plugin import scenario
from toolproof.selftest import probes

NAMES = probes.names()


@pytest.mark.parametrize("name", NAMES)
def test_probe_accepts(name: str) -> None:
    """No accept sample draws a problem."""
    probe, samples = probes.probe(name), probes.samples(name)
    wrong = {s["why"]: probe.problems(s) for s in samples.accept if probe.problems(s)}
    assert samples.accept, f"{name} has no sample it must accept"
    assert wrong == {}, f"{name} rejected samples it must accept"


@pytest.mark.parametrize("name", NAMES)
def test_probe_rejects(name: str) -> None:
    """Each reject sample draws exactly its pinned number of problems."""
    probe, samples = probes.probe(name), probes.samples(name)
    counts = {s["why"]: len(probe.problems(s)) for s in samples.reject}
    pinned = {s["why"]: s["problems"] for s in samples.reject}
    assert samples.reject, f"{name} has no sample it must reject"
    assert counts == pinned, (
        f"{name}: problems per reject sample differ: {jsondiff.differences(counts, pinned)}"
    )


def test_every_probe_has_samples_and_every_samples_file_a_probe() -> None:
    assert probes.sample_files() == NAMES


def test_sample_whys_are_unique() -> None:
    """A `why` names one sample: duplicates would hide one of them in the failure listing."""
    duplicated = {}
    for name in NAMES:
        samples = probes.samples(name)
        whys = [s["why"] for s in (*samples.accept, *samples.reject)]
        if len(whys) != len(set(whys)):
            duplicated[name] = sorted({w for w in whys if whys.count(w) > 1})
    assert duplicated == {}


def test_registry_covers_every_production_probe() -> None:
    """New invariants, protocol commands and wire schemas cannot land without samples."""
    commands = sorted(p.stem for p in (contracts_dir() / "protocol" / "commands").glob("*.json"))
    assert commands == sorted(protocol.OPS)
    expected = {f"protocol.{op}.{d}" for op in protocol.OPS for d in ("request", "response")}
    expected |= set(invariants.INVARIANTS) | set(invariants.REQUEST_INVARIANTS)
    expected |= {f"wire-schema.{Path(p).stem}" for p in probes.wire_schema_files()}
    expected |= {"match.differences", "match.tool-text", "match.tool-texts", "match.wire-name-for"}
    expected |= {"match.offered-tools", "match.answers-in-call-order", "differential.schema-verdict"}
    expected |= {"match.shown-markers"}
    assert sorted(expected) == NAMES


def test_probes_wrap_the_production_objects() -> None:
    """The seed's copied-loop test, ruled out: each probe's target IS what the harness runs."""
    targets = {name: probes.probe(name).target for name in NAMES}
    production: dict[str, object] = {
        **invariants.INVARIANTS,
        **invariants.REQUEST_INVARIANTS,
        **{
            f"protocol.{op}.{d}": protocol._validator(op, d == "response")
            for op in protocol.OPS
            for d in ("request", "response")
        },
        **{f"wire-schema.{Path(p).stem}": load_json(p) for p in probes.wire_schema_files()},
        "match.differences": jsondiff.differences,
        "match.tool-text": scenario.tool_text,
        "match.tool-texts": scenario.tool_texts,
        "match.wire-name-for": scenario.wire_name_for,
        "match.offered-tools": scenario.offered_tools,
        "match.answers-in-call-order": scenario.answers_in_call_order,
        "match.shown-markers": invariants.shown_markers,
        "differential.schema-verdict": probes.differential_verdict(),
    }
    not_identical = sorted(n for n in NAMES if targets[n] is not production.get(n))
    assert not_identical == [], f"probes not wrapping the production object: {render(not_identical)}"
