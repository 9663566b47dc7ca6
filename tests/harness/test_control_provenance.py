"""Every control declares where its defect comes from, and README's counts are the controls' own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolproof.controls.control import PROVENANCES, Control, all_controls, check_provenance, provenance_counts
from toolproof.controls.killmatrix import render_markdown

README = Path(__file__).resolve().parents[2] / "README.md"


def _control(provenance: str) -> Control:
    return Control(name="x", bug="b", source="s", kills=("k",), patches=(), provenance=provenance)


def test_every_control_declares_a_known_provenance() -> None:
    assert sorted({c.provenance for c in all_controls()}) == sorted(PROVENANCES)


@pytest.mark.parametrize(
    ("provenance", "shown"), [("", "(none)"), ("public", "public"), ("upstream-bug", "upstream-bug")]
)
def test_the_loader_refuses_a_missing_or_unknown_provenance(provenance: str, shown: str) -> None:
    with pytest.raises(ValueError, match=r"^controls without a provenance") as caught:
        check_provenance([_control(provenance)])
    assert str(caught.value) == f"controls without a provenance of public-bug, seed, contract: x: {shown}"


def test_readme_gives_the_controls_counts_per_provenance() -> None:
    counts = provenance_counts(all_controls())
    text = " ".join(README.read_text(encoding="utf-8").split())
    shown = re.search(
        r"Of the (\d+) controls, (\d+) put back a public bug .*?, (\d+) one of the seed bugs .*?, and (\d+) "
        r"a plausible defect the contract forbids",
        text,
    )
    assert shown is not None
    assert tuple(int(n) for n in shown.groups()) == (
        len(all_controls()),
        counts["public-bug"],
        counts["seed"],
        counts["contract"],
    )


def test_the_markdown_report_shows_each_controls_provenance_and_the_counts() -> None:
    verdict = {
        "name": "x",
        "provenance": "seed",
        "source": "s",
        "error": None,
        "cells": {"a.b": "killed"},
        "collateral": [],
    }
    result = {
        "mode": "named",
        "ok": True,
        "baselines": {},
        "controls": [verdict],
        "provenance": {"public-bug": 0, "seed": 1, "contract": 0},
        "unproven_must_requirements": [],
    }
    assert render_markdown(result).splitlines()[7:20] == [
        "## Provenance",
        "",
        "| provenance | controls |",
        "|---|---|",
        "| public-bug | 0 |",
        "| seed | 1 |",
        "| contract | 0 |",
        "",
        "## Kill matrix",
        "",
        "| control | provenance | source | check | result | collateral |",
        "|---|---|---|---|---|---|",
        "| x | seed | s | `a.b` | killed | - |",
    ]
