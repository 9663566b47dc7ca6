"""The conformance matrix: requirement rows x runtime columns, built from `--report-json` documents.

Input is only report documents (toolproof/report/model.py), one per runtime,
plus optional baseline reasons; so a matrix can merge reports written in other
environments. A cell is the status of the requirement's checks for that
runtime, by precedence: fail, undecided (a check that failed on a side that is
no verdict: harness, timeout, protocol), pass, not testable, not claimed, not
run. A failing cell carries a one-line reason per failing check, with the
observation the check reads and its finding (toolproof/judge/findings.py: one
observed deviation, however many checks it fails; a check marked "same
finding" points to the finding's primary check); each runtime counts its
findings beside its failing requirements. Reports of version 1 (before
findings) still load: their rows name the observation `group`, and each
failing check is a finding of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from toolproof import CONTRACT_VERSION, __version__
from toolproof.judge.catalog import load_catalog
from toolproof.judge.contract_files import contracts_dir
from toolproof.judge.declared import TRANSPORT_CAPABILITIES, renamed_capability
from toolproof.judge.expected import Expected, heading_and_first_difference
from toolproof.report.blocks import BLOCK_CHECKS, BLOCKS_NOTE, block_cell, block_kinds

MATRIX_VERSION = 2
"""2: a reason names its `observation` (was `group`), `finding` and `deviation`; runtimes count
`findings` and `expected_findings` (were `fail_groups` and `expected_groups`)."""
READABLE_REPORT_VERSIONS = (1, 2)
"""--report-json versions a matrix reads: 2 (toolproof/report/model.py) and 1, before findings."""

PRECEDENCE: tuple[str, ...] = ("fail", "undecided", "pass", "not_testable", "not_claimed", "not_run")
"""Cell statuses, worst first: a cell is the first of these that any of its checks has."""

LABELS: dict[str, str] = {
    "pass": "pass",
    "undecided": "undecided",
    "not_testable": "not testable",
    "not_claimed": "not claimed",
    "not_run": "not run",
}

REASON_WIDTH = 240

_INDEX_ROW = re.compile(r"^\| `(tp-[a-z0-9-]+)` \| (MUST|SHOULD) \| ([^|]*) \| (.*) \|\s*$")
_SECTION = re.compile(r"^## (\d+)\. ([^(]+?)\s*(\(.*)?$")
_NUMBERED = re.compile(r"^\d+\. `(tp-[a-z0-9-]+)`")


@dataclass(frozen=True)
class Column:
    """One runtime: its report (None when it could not be produced) and what is known about it."""

    name: str
    source: str
    report: dict[str, Any] | None
    error: str | None = None
    baseline: dict[str, Expected] = field(default_factory=dict)


def report_capability(row: dict[str, Any], report: dict[str, Any]) -> str:
    """The capability a report's check row names, under this contract version's names (a report of
    version 6 or older wrote `openai.*` for every model wire: `model.*` now); "—" for none, "?" for
    a row that names none (a report written before rows carried it). The matrix reads it only for a
    requirement the catalog no longer holds: every other row takes the contract's own (§17)."""
    if "capability" not in row:
        return "?"
    contract = report.get("contract_version")
    renamed = renamed_capability(row["capability"], contract if isinstance(contract, int) else 1)
    return renamed or "—"


def contract_index() -> list[tuple[str, str, str, str]]:
    """CONTRACT.md §17 rows, in contract order: (id, level, capability, one-line statement)."""
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    rows = []
    for line in text.split("## 17.", 1)[-1].splitlines():
        match = _INDEX_ROW.match(line)
        if match:
            rows.append((match[1], match[2], match[3].strip(), match[4].strip()))
    return rows


def contract_sections() -> dict[str, str]:
    """Requirement id -> the CONTRACT.md section that states it, as "§4 Tool namespacing"."""
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    section = ""
    for line in text.splitlines():
        heading = _SECTION.match(line)
        if heading:
            section = f"§{heading[1]} {heading[2]}"
            continue
        item = _NUMBERED.match(line)
        if item and section:
            out.setdefault(item[1], section)
    return out


def one_line(message: str, width: int = REASON_WIDTH) -> str:
    """A check message as one line: its heading plus its first JSON-path difference."""
    text = heading_and_first_difference(message)
    return text if len(text) <= width else text[: width - 1] + "…"


def _verdict_side(check_id: str) -> str:
    """The side on which a failure of this check is a verdict (conduct checks: adapter-protocol)."""
    spec = load_catalog().checks.get(check_id)
    return spec.side if spec is not None else "candidate"


def _observation(row: dict[str, Any]) -> str:
    """The observation a row's check reads: the report's (`group` in a version 1 report), else the
    catalog's, else the row's own ID."""
    if row.get("observation") or row.get("group"):
        return str(row.get("observation") or row["group"])
    spec = load_catalog().checks.get(row["id"])
    return spec.group if spec is not None else str(row["id"])


def _finding(row: dict[str, Any]) -> str:
    """A failing row's finding (its primary check); a report without findings: the row's own ID."""
    return str(row.get("finding") or row["id"])


def _check_status(row: dict[str, Any]) -> str:
    if row["status"] == "fail" and row["side"] != _verdict_side(row["id"]):
        return "undecided"
    return str(row["status"])


def _cell(
    level: str, rows: list[dict[str, Any]], baseline: dict[str, Expected], texts: dict[str, str]
) -> dict[str, Any]:
    statuses = [_check_status(row) for row in rows]
    status = min(statuses, key=PRECEDENCE.index) if statuses else "not_run"
    failing = [row for row, s in zip(rows, statuses, strict=True) if s in ("fail", "undecided")]
    reasons = [
        {
            "check": row["id"],
            "observation": _observation(row),
            "finding": _finding(row),
            # the deviation the finding names ("" when none was recognised)
            "deviation": texts.get(_finding(row), ""),
            "side": row["side"],
            # The report's flag (its run had a baseline), or the baseline given to the matrix.
            "expected_failure": bool(row["expected_failure"]) or row["id"] in baseline,
            "reason": one_line(row["message"]),
            "known_reason": baseline[row["id"]].reason if row["id"] in baseline else "",
        }
        for row in failing
    ]
    expected = status == "fail" and all(
        r["expected_failure"] for r in reasons if r["side"] == _verdict_side(r["check"])
    )
    label = f"fail {level}" if status == "fail" else LABELS[status]
    return {
        "status": status,
        "label": label,
        "expected": expected,
        "checks": {row["id"]: s for row, s in zip(rows, statuses, strict=True)},
        "reasons": reasons,
    }


def transports(hello: dict[str, Any]) -> dict[str, bool] | None:
    """Which CONFIG server types (contracts/config.json) a runtime accepts, from its hello: `stdio` and
    `sse` when it claims `mcp.stdio` / `mcp.sse`, streamable `http` always (it needs no capability).
    None without a hello: nothing is known."""
    if not hello:
        return None
    claimed = set(hello.get("capabilities", []))
    return {
        transport: capability is None or capability in claimed
        for transport, capability in TRANSPORT_CAPABILITIES.items()
    }


def _runtime(column: Column) -> dict[str, Any]:
    report = column.report or {}
    hello = (report.get("candidate") or {}).get("hello") or {}
    return {
        "name": column.name,
        "source": column.source,
        "spec": (report.get("candidate") or {}).get("spec", ""),
        "implementation": hello.get("implementation", {}),
        "capabilities": sorted(hello.get("capabilities", [])),
        "transports": transports(hello),
        "blocks": block_kinds(report, hello),
        "options": hello.get("options", {}),
        "summary": report.get("summary", {}),
        "exit_status": report.get("exit_status"),
        "verdict_lines": report.get("verdict_lines", []),
        "contract_version": report.get("contract_version"),
        "toolproof_version": report.get("toolproof_version"),
        "error": column.error,
    }


def carried_column(document: dict[str, Any], name: str, source: str) -> Column:
    """Column `name` of an earlier matrix document (reports/matrix.json), as a column of a new one.

    The matrix keeps each check's status and each failure's side, observation,
    finding, deviation and reason, not the report it was built from: this
    rebuilds a report of exactly those rows (and the baseline reasons the
    cells showed), so that a column whose run is not repeated keeps its
    verdicts when the contract grows. A requirement the earlier matrix did not
    have reads `not run` in it. KeyError when the document has no such column.
    """
    runtimes = {runtime["name"]: runtime for runtime in document.get("runtimes", [])}
    runtime = runtimes[name]
    rows: list[dict[str, Any]] = []
    findings: dict[str, str] = {}
    baseline: dict[str, Expected] = {}
    for requirement in document.get("requirements", []):
        cell = requirement["cells"].get(name)
        if cell is None:
            continue
        reasons = {reason["check"]: reason for reason in cell.get("reasons", [])}
        for check_id, status in cell.get("checks", {}).items():
            reason = reasons.get(check_id)
            side = reason["side"] if reason else _verdict_side(check_id)
            shown = status
            if status == "undecided" and reason and side != _verdict_side(check_id):
                shown = "fail"  # a failure on another side than its verdict's: undecided again
            row = {
                "id": check_id,
                "requirement": requirement["id"],
                "level": requirement["level"],
                "status": shown,
                "side": side,
                "message": reason["reason"] if reason else "",
                "expected_failure": bool(reason and reason["expected_failure"]),
            }
            if reason:
                row["observation"] = reason["observation"]
                row["finding"] = reason["finding"]
                if reason.get("deviation"):
                    findings[reason["finding"]] = reason["deviation"]
                if reason.get("known_reason"):
                    baseline[check_id] = Expected(check=check_id, reason=reason["known_reason"])
            rows.append(row)
    hello = (
        {
            "implementation": runtime["implementation"],
            "capabilities": runtime["capabilities"],
            "options": runtime["options"],
        }
        if runtime.get("implementation")
        else {}
    )
    report = {
        "candidate": {"spec": runtime.get("spec", ""), "hello": hello},
        "summary": runtime.get("summary", {}),
        "exit_status": runtime.get("exit_status"),
        "verdict_lines": runtime.get("verdict_lines", []),
        "contract_version": runtime.get("contract_version"),
        "toolproof_version": runtime.get("toolproof_version"),
        "checks": rows,
        "findings": [{"id": finding, "text": text} for finding, text in findings.items()],
    }
    origin = f"{source} (carried; run: {runtime.get('source', '')})"
    return Column(
        name, origin, report if runtime.get("error") is None else None, runtime.get("error"), baseline
    )


def build_matrix(columns: list[Column]) -> dict[str, Any]:
    """The matrix document (reports/matrix.json) from one report per runtime."""
    names = [c.name for c in columns]
    if len(set(names)) != len(names):
        raise ValueError(f"runtime names must be unique: {names}")
    by_requirement: dict[str, dict[str, list[dict[str, Any]]]] = {}
    levels: dict[str, str] = {}
    reported: dict[str, str] = {}
    for column in columns:
        for row in (column.report or {}).get("checks", []):
            by_requirement.setdefault(row["requirement"], {}).setdefault(column.name, []).append(row)
            levels[row["requirement"]] = row["level"]
            reported.setdefault(row["requirement"], report_capability(row, column.report or {}))
    catalog = load_catalog()
    index = contract_index()
    sections = contract_sections()
    known = {rid for rid, *_ in index}
    ordered = [(rid, level, cap, text) for rid, level, cap, text in index]
    for rid in sorted(set(catalog.requirements) | set(by_requirement)):
        if rid not in known:
            spec = catalog.requirements.get(rid)
            level = spec.level if spec else levels.get(rid, "MUST")
            cap = (spec.capability or "—") if spec else reported.get(rid, "?")
            ordered.append((rid, level, cap, spec.statement if spec else ""))
    texts = {
        column.name: {f["id"]: f["text"] for f in (column.report or {}).get("findings", []) if f.get("text")}
        for column in columns
    }
    with_checks = set(by_requirement) | {r.id for r in catalog.requirements.values() if r.checks}
    requirements = []
    for rid, level, capability, statement in ordered:
        if rid not in with_checks:
            continue
        cells = {
            column.name: _cell(
                level, by_requirement.get(rid, {}).get(column.name, []), column.baseline, texts[column.name]
            )
            for column in columns
        }
        requirements.append(
            {
                "id": rid,
                "level": level,
                "capability": capability,
                "statement": statement,
                "section": sections.get(rid, ""),
                "cells": cells,
            }
        )
    unchecked = [rid for rid, *_ in index if rid not in with_checks]
    return {
        "matrix_version": MATRIX_VERSION,
        "toolproof_version": __version__,
        "contract_version": CONTRACT_VERSION,
        "precedence": list(PRECEDENCE),
        "runtimes": [_runtime(c) for c in columns],
        "requirements": requirements,
        "requirements_without_checks": unchecked,
        "footnotes": _footnotes(requirements, names),
    }


def _footnotes(requirements: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """Number every failing cell's reasons in reading order (rows, then columns); mark the cells."""
    notes: list[dict[str, Any]] = []
    for requirement in requirements:
        for name in names:
            cell = requirement["cells"][name]
            cell["notes"] = []
            for reason in cell["reasons"]:
                number = len(notes) + 1
                cell["notes"].append(number)
                notes.append({"n": number, "runtime": name, "requirement": requirement["id"], **reason})
    return notes


def counts(document: dict[str, Any], runtime: str) -> dict[str, int]:
    """How many requirement cells of `runtime` have each status (expected failures apart), and how
    many findings fail: `findings` (one with a failing check not in the baseline) and
    `expected_findings` (every failing check in the baseline)."""
    out = {"pass": 0, "fail_must": 0, "fail_should": 0, "expected": 0, "undecided": 0}
    out |= {"not_testable": 0, "not_claimed": 0, "not_run": 0}
    failing: set[str] = set()
    expected: set[str] = set()
    for requirement in document["requirements"]:
        cell = requirement["cells"][runtime]
        if cell["status"] == "fail":
            key = "expected" if cell["expected"] else f"fail_{requirement['level'].lower()}"
        else:
            key = cell["status"]
        out[key] += 1
        for reason in cell["reasons"]:
            if cell["checks"].get(reason["check"]) == "fail":
                (expected if reason["expected_failure"] else failing).add(reason["finding"])
    out["findings"] = len(failing)
    out["expected_findings"] = len(expected - failing)
    return out


def _same(note: dict[str, Any]) -> str:
    """ " (same finding as `X`)" for a check its finding charges to another check; "" otherwise."""
    return f" (same finding as `{note['finding']}`)" if note["finding"] != note["check"] else ""


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _version(runtime: dict[str, Any]) -> str:
    impl = runtime["implementation"]
    if not impl:
        return "(no hello)"
    return f"{impl.get('name', '?')} {impl.get('version', '')}".strip()


TRANSPORT_NOTE = (
    "The CONFIG server types each runtime accepts, as its hello claims them: `stdio` with `mcp.stdio`, "
    "`sse` (legacy HTTP+SSE) with `mcp.sse`, streamable `http` always (no capability). A column named "
    "`<runtime>-stdio` or `<runtime>-sse` ran its toolsets tests with every server on that transport."
)
"""The words above the transport table (markdown and HTML)."""


def transport_cell(runtime: dict[str, Any], transport: str) -> str:
    """One cell of the transport table: "yes", "no", or "—" (no hello: nothing known)."""
    known = runtime.get("transports")
    if known is None:
        return "—"
    return "yes" if known[transport] else "no"


def _transport_table(runtimes: list[dict[str, Any]]) -> list[str]:
    """The markdown transport table: one row per column, one column per server type."""
    names = list(TRANSPORT_CAPABILITIES)
    lines = [TRANSPORT_NOTE, "", "| runtime | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for runtime in runtimes:
        cells = " | ".join(transport_cell(runtime, t) for t in names)
        lines.append(f"| **{_md(runtime['name'])}** | {cells} |")
    return lines


def _blocks_table(runtimes: list[dict[str, Any]]) -> list[str]:
    """The markdown block-kind table: one row per column, one column per non-text block kind."""
    kinds = list(BLOCK_CHECKS)
    lines = [BLOCKS_NOTE, "", "| runtime | " + " | ".join(kinds) + " |", "|---|" + "---|" * len(kinds)]
    for runtime in runtimes:
        cells = " | ".join(_md(block_cell(runtime, k)) for k in kinds)
        lines.append(f"| **{_md(runtime['name'])}** | {cells} |")
    return lines


def render_markdown(document: dict[str, Any]) -> str:
    """reports/matrix.md: runtimes, the matrix with footnote numbers, then the footnotes."""
    runtimes = document["runtimes"]
    names = [r["name"] for r in runtimes]
    lines = [
        "# toolproof conformance matrix",
        "",
        f"Contract v{document['contract_version']}, toolproof {document['toolproof_version']}. "
        "A cell is the worst status of the requirement's checks for that runtime "
        "(fail > undecided > pass > not testable > not claimed > not run); "
        "*(expected)* marks a failure listed in that runtime's baseline. Numbers point to the reasons below. "
        "Findings count observed deviations: one deviation that fails several checks is one finding "
        "(the others are marked *same finding* below), beside the failing requirements.",
        "",
        "| runtime | implementation | capabilities | pass | findings | fail MUST | fail SHOULD "
        "| expected findings | expected | undecided | not claimed |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for runtime in runtimes:
        c = counts(document, runtime["name"])
        impl = _version(runtime) if not runtime["error"] else f"not run: {runtime['error']}"
        lines.append(
            f"| **{_md(runtime['name'])}** | {_md(impl)} | {_md(', '.join(runtime['capabilities']))} | "
            f"{c['pass']} | {c['findings']} | {c['fail_must']} | {c['fail_should']} | "
            f"{c['expected_findings']} | {c['expected']} | {c['undecided']} | {c['not_claimed']} |"
        )
    lines += ["", *_transport_table(runtimes)]
    lines += ["", *_blocks_table(runtimes)]
    lines += ["", "| requirement | level | " + " | ".join(_md(n) for n in names) + " |"]
    lines.append("|---|---|" + "---|" * len(names))
    for requirement in document["requirements"]:
        cells = []
        for name in names:
            cell = requirement["cells"][name]
            text = f"**{cell['label']}**" if cell["status"] == "fail" else cell["label"]
            if cell["expected"]:
                text += " *(expected)*"
            if cell["notes"]:
                text += " " + " ".join(f"[{n}]" for n in cell["notes"])
            cells.append(text)
        lines.append(
            f"| `{requirement['id']}` {_md(requirement['statement'])} | {requirement['level']} | "
            + " | ".join(cells)
            + " |"
        )
    if document["footnotes"]:
        lines += ["", "## Reasons", ""]
        for note in document["footnotes"]:
            tag = " (expected)" if note["expected_failure"] else ""
            side = "" if note["side"] == "candidate" else f" [{note['side']}]"
            check = f"`{note['check']}`" + _same(note)
            reason = ": ".join(part for part in (note["deviation"], note["reason"]) if part)
            text = f"{note['n']}. **{_md(note['runtime'])}** {check}{tag}{side}: {_md(reason)}"
            if note["known_reason"]:
                text += f" — known: {_md(note['known_reason'])}"
            lines.append(text)
    if document["requirements_without_checks"]:
        lines += [
            "",
            "Requirements with no check yet (not in the matrix): "
            + ", ".join(f"`{r}`" for r in document["requirements_without_checks"])
            + ".",
        ]
    return "\n".join(lines) + "\n"
