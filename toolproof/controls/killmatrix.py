"""Render the control x check kill matrix as Markdown."""

from __future__ import annotations

from typing import Any

_CELL = {"killed": "killed", "survived": "**SURVIVED**", "not-run": "**not run**"}


def render_markdown(result: dict[str, Any]) -> str:
    """controls.md: baselines, then one row per (control, named check)."""
    lines = [f"# Negative controls ({result['mode']} mode): {'PASS' if result['ok'] else 'FAIL'}", ""]
    lines += [
        "## Baselines (no control)",
        "",
        "| profile | green | failing checks | note |",
        "|---|---|---|---|",
    ]
    for profile, base in result["baselines"].items():
        note = (base["error"] or "").splitlines()[0] if base["error"] else ""
        lines.append(
            f"| {profile} | {'yes' if base['green'] else '**no**'} | {', '.join(base['failing']) or '-'} "
            f"| {note} |"
        )
    counts = result["provenance"]
    lines += ["", "## Provenance", "", "| provenance | controls |", "|---|---|"]
    lines += [f"| {kind} | {count} |" for kind, count in counts.items()]
    lines += [
        "",
        "## Kill matrix",
        "",
        "| control | provenance | source | check | result | collateral |",
        "|---|---|---|---|---|---|",
    ]
    for control in result["controls"]:
        if control["error"]:
            first = control["error"].splitlines()[0]
            lines.append(
                f"| {control['name']} | {control['provenance']} | {control['source']} | - "
                f"| **error**: {first} | |"
            )
            continue
        for check, cell in control["cells"].items():
            shown = _CELL.get(cell, f"**{cell}**")
            lines.append(
                f"| {control['name']} | {control['provenance']} | {control['source']} | `{check}` "
                f"| {shown} | {', '.join(control['collateral']) or '-'} |"
            )
    if result["unproven_must_requirements"]:
        lines += ["", "## MUST requirements no control proves yet", ""]
        lines += [f"- `{r}`" for r in result["unproven_must_requirements"]]
    return "\n".join(lines) + "\n"
