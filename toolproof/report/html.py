"""reports/matrix.html: the conformance matrix as one static page (inline CSS, no JavaScript).

Colour-coded cells, the runtime versions in the column headers, each failing
cell's reasons in its `title` (hover) and as numbered footnotes below the table.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from toolproof.judge.declared import TRANSPORT_CAPABILITIES
from toolproof.report.blocks import BLOCK_CHECKS, BLOCKS_NOTE, block_cell
from toolproof.report.matrix import TRANSPORT_NOTE, counts, transport_cell

AREAS: dict[str, str] = {  # fallback titles for requirements CONTRACT.md does not number
    "proto": "Protocol conduct",
    "ns": "Tool namespacing",
    "dedup": "Explicit dedup",
    "wire": "Wire format",
    "args": "Tool-call arguments",
    "result": "Tool results",
    "hist": "History",
    "err": "Errors and validation",
    "loop": "Tool loop bound",
    "cont": "Continuation messages",
    "receipt": "Receipts",
}

_CSS = """
:root { --pass:#1a7f37; --pass-bg:#dafbe1; --must:#b42318; --must-bg:#ffd8d3; --should:#9a6700;
  --should-bg:#fff1c2; --undecided:#6f42c1; --undecided-bg:#ede4ff; --grey:#57606a; --grey-bg:#eef0f2;
  --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:#1f2328;
  margin: 24px; background:#fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
p.meta { color: var(--grey); margin: 0 0 16px; }
.legend { display:flex; flex-wrap:wrap; gap:8px 14px; margin: 8px 0 18px; align-items:center; }
.legend span.chip { display:inline-block; padding:2px 8px; border-radius:4px; font-weight:600;
  font-size:12px; }
table { border-collapse: separate; border-spacing: 0; }
table.runtimes th .rt-ver { max-width: 260px; word-break: break-all; }
table.runtimes td.caps { max-width: 360px; }
table.runtimes td, table.runtimes th { border-bottom:1px solid var(--line); padding:6px 10px; text-align:left;
  vertical-align: top; }
table.runtimes td.impl { min-width: 240px; max-width: 360px; }
table.runtimes td.num { text-align:right; font-variant-numeric: tabular-nums; }
table.runtimes th { background:#f6f8fa; font-size:12px; }
.caps code { background:#f6f8fa; border:1px solid var(--line); border-radius:3px; padding:0 4px;
  font-size:12px; margin:1px 3px 1px 0; white-space:nowrap; display:inline-block; }
details summary { cursor: pointer; color: var(--grey); font-size:12px; }
details pre { font-size:12px; margin:4px 0 0; white-space:pre-wrap; }
table.matrix { border-top:1px solid var(--line); border-left:1px solid var(--line); }
table.matrix th, table.matrix td { border-bottom:1px solid var(--line); border-right:1px solid var(--line);
  padding:5px 8px; }
table.matrix thead th { position: sticky; top: 0; background:#f6f8fa; z-index: 2; vertical-align: bottom;
  width: 150px; min-width: 120px; max-width: 190px; text-align:center; }
table.matrix thead th.req { text-align:left; min-width: 360px; max-width: none; width: auto; }
table.matrix td.req { max-width: 480px; }
table.matrix tr.area th { background:#f6f8fa; text-align:left; font-size:12px; text-transform:uppercase;
  letter-spacing:.04em; color:var(--grey); }
td.req code { font-size:12px; font-weight:600; }
td.req .stmt { display:block; color:var(--grey); font-size:12px; }
td.req .stmt code { font-size:11px; background:#f6f8fa; border-radius:3px; padding:0 3px; }
td.req .lvl { font-size:11px; font-weight:700; margin-left:6px; color:var(--grey); }
.rt-name { font-size:14px; }
.rt-ver { display:block; font-weight:400; font-size:11px; color:var(--grey); }
td.cell { text-align:center; font-size:12px; font-weight:600; white-space:nowrap; }
td.cell sup { font-weight:400; margin-left:3px; }
td.cell sup a { color: inherit; }
.s-pass { background: var(--pass-bg); color: var(--pass); }
.s-fail-must { background: var(--must-bg); color: var(--must); }
.s-fail-should { background: var(--should-bg); color: var(--should); }
.s-expected { background: repeating-linear-gradient(135deg, #fff 0 6px, var(--must-bg) 6px 12px);
  color: var(--must); }
.s-expected.s-fail-should {
  background: repeating-linear-gradient(135deg, #fff 0 6px, var(--should-bg) 6px 12px);
  color: var(--should); }
.s-undecided { background: var(--undecided-bg); color: var(--undecided); }
.s-not_testable { background: var(--grey-bg); color: var(--grey); font-weight:400; }
.s-not_claimed { background: #fff; color: #8c959f; font-weight:400; }
.s-not_run { background: #fff; color: #8c959f; font-weight:400; font-style: italic; }
ol.notes { padding-left: 28px; }
ol.notes li { margin: 3px 0; }
ol.notes li:target { background: #fff8c5; }
ol.notes .rt { font-weight:600; }
ol.notes code { font-size:12px; }
ol.notes .known { color: var(--grey); }
.err { color: var(--must); }
"""

_LEGEND = (
    ("s-pass", "pass", "every judged check passed"),
    ("s-fail-must", "fail MUST", "a MUST check failed: the runtime breaks the contract"),
    ("s-fail-should", "fail SHOULD", "a SHOULD check failed"),
    ("s-expected s-fail-must", "fail · expected", "failing, and listed in the runtime's baseline"),
    ("s-undecided", "undecided", "a check could not be decided (harness, timeout or protocol error)"),
    ("s-not_testable", "not testable", "the declared option makes the check inapplicable"),
    ("s-not_claimed", "not claimed", "the runtime does not claim the capability"),
    ("s-not_run", "not run", "no check of this requirement ran for the runtime"),
)


def _anchor(title: str) -> str:
    """An id for a section row: "§4 Tool namespacing" -> "s4-tool-namespacing"."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower().replace("§", "s")).strip("-")


def _code_spans(text: str) -> str:
    """Escape `text`, turning its Markdown `code` spans into <code> elements."""
    parts = escape(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as it is
        return escape(text)
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _classes(cell: dict[str, Any], level: str) -> str:
    status = cell["status"]
    if status == "fail":
        classes = f"s-fail-{level.lower()}"
        return classes + " s-expected" if cell["expected"] else classes
    return f"s-{status}"


def _cell(cell: dict[str, Any], level: str, runtime: str, requirement: str) -> str:
    label = cell["label"]
    if cell["status"] == "fail":
        label = label.replace("fail", "FAIL") + (" · expected" if cell["expected"] else "")
    tips = [f"{runtime} · {requirement}: {cell['label']}"]
    for reason in cell["reasons"]:
        tip = f"{reason['check']}: {reason['reason']}"
        if reason["known_reason"]:
            tip += f" (known: {reason['known_reason']})"
        tips.append(tip)
    marks = "".join(f'<a href="#n{n}">{n}</a> ' for n in cell["notes"]).strip()
    sup = f"<sup>{marks}</sup>" if marks else ""
    title = escape("\n".join(tips), quote=True)
    return f'<td class="cell {_classes(cell, level)}" title="{title}">{escape(label)}{sup}</td>'


def _runtime_rows(document: dict[str, Any]) -> list[str]:
    rows = []
    for runtime in document["runtimes"]:
        impl = runtime["implementation"]
        c = counts(document, runtime["name"])
        if runtime["error"]:
            version = f'<span class="err">not run: {escape(runtime["error"])}</span>'
        else:
            version = escape(f"{impl.get('name', '?')} {impl.get('version', '')}".strip())
            if impl.get("language"):
                version += f" <span class='rt-ver'>{escape(impl['language'])}</span>"
        caps = "".join(f"<code>{escape(cap)}</code>" for cap in runtime["capabilities"]) or "—"
        options = "\n".join(f"{k}: {v!r}" for k, v in sorted(runtime["options"].items())) or "(all defaults)"
        rows.append(
            "<tr>"
            f'<th title="{escape(runtime["spec"], quote=True)}">{escape(runtime["name"])}</th>'
            f"<td class='impl'>{version}</td>"
            f"<td class='caps'>{caps}<details><summary>declared options</summary>"
            f"<pre>{escape(options)}</pre></details></td>"
            f"<td class='num'>{c['pass']}</td><td class='num'>{c['findings']}</td>"
            f"<td class='num'>{c['fail_must']}</td><td class='num'>{c['fail_should']}</td>"
            f"<td class='num'>{c['expected_findings']}</td><td class='num'>{c['expected']}</td>"
            f"<td class='num'>{c['undecided']}</td><td class='num'>{c['not_claimed']}</td>"
            "</tr>"
        )
    return rows


def _transport_rows(document: dict[str, Any]) -> list[str]:
    """The transport table's rows: one per column, "yes" cells in the pass colour."""
    rows = []
    for runtime in document["runtimes"]:
        cells = []
        for transport in TRANSPORT_CAPABILITIES:
            text = transport_cell(runtime, transport)
            cls = {"yes": "s-pass", "no": "s-not_claimed"}.get(text, "s-not_run")
            cells.append(f'<td class="cell {cls}">{escape(text)}</td>')
        rows.append(f"<tr><th>{escape(runtime['name'])}</th>{''.join(cells)}</tr>")
    return rows


def _block_rows(document: dict[str, Any]) -> list[str]:
    """The block-kind table's rows: one per column, each cell coloured by its check's status."""
    rows = []
    for runtime in document["runtimes"]:
        cells = []
        for kind in BLOCK_CHECKS:
            known = runtime.get("blocks")
            status = known[kind]["status"] if known else "not_run"
            cls = "s-fail-must" if status == "fail" else f"s-{status}"  # every block check is a MUST
            cells.append(f'<td class="cell {escape(cls)}">{escape(block_cell(runtime, kind))}</td>')
        rows.append(f"<tr><th>{escape(runtime['name'])}</th>{''.join(cells)}</tr>")
    return rows


def _matrix_rows(document: dict[str, Any], names: list[str]) -> list[str]:
    rows = []
    area = None
    for requirement in document["requirements"]:
        prefix = requirement["id"].split("-")[1]
        this_area = requirement.get("section") or AREAS.get(prefix, prefix)
        if this_area != area:
            area = this_area
            rows.append(
                f'<tr class="area" id="{_anchor(area)}"><th colspan="{len(names) + 1}">'
                f"{escape(area)}</th></tr>"
            )
        cells = "".join(
            _cell(requirement["cells"][n], requirement["level"], n, requirement["id"]) for n in names
        )
        rows.append(
            f'<tr><td class="req"><code>{escape(requirement["id"])}</code>'
            f'<span class="lvl">{escape(requirement["level"])}</span>'
            f'<span class="stmt">{_code_spans(requirement["statement"])}</span></td>{cells}</tr>'
        )
    return rows


def _notes(document: dict[str, Any]) -> list[str]:
    items = []
    for note in document["footnotes"]:
        tag = " <em>(expected)</em>" if note["expected_failure"] else ""
        side = "" if note["side"] == "candidate" else f" <em>[{escape(note['side'])}]</em>"
        known = (
            f' <span class="known">— known: {escape(note["known_reason"])}</span>'
            if note["known_reason"]
            else ""
        )
        items.append(
            f'<li id="n{note["n"]}"><span class="rt">{escape(note["runtime"])}</span> · '
            f"<code>{escape(note['requirement'])}</code> · <code>{escape(note['check'])}</code>"
            + (
                f" (same finding as <code>{escape(note['finding'])}</code>)"
                if note["finding"] != note["check"]
                else ""
            )
            + f"{tag}{side}: "
            + (f"<strong>{escape(note['deviation'])}</strong>" if note["deviation"] else "")
            + (": " if note["deviation"] and note["reason"] else "")
            + f"{escape(note['reason'])}{known}</li>"
        )
    return items


def render_html(document: dict[str, Any]) -> str:
    """The whole page."""
    names = [r["name"] for r in document["runtimes"]]
    head_cells = []
    for runtime in document["runtimes"]:
        impl = runtime["implementation"]
        version = (
            "not run" if runtime["error"] else f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
        )
        head_cells.append(
            f'<th title="{escape(runtime["spec"], quote=True)}">'
            f'<span class="rt-name">{escape(runtime["name"])}</span>'
            f'<span class="rt-ver">{escape(version)}</span></th>'
        )
    legend = "".join(
        f'<span><span class="chip {cls}">{escape(label)}</span> {escape(text)}</span>'
        for cls, label, text in _LEGEND
    )
    unchecked = document["requirements_without_checks"]
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>toolproof conformance matrix</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>toolproof conformance matrix</h1>",
        f'<p class="meta">Contract v{escape(str(document["contract_version"]))} · toolproof '
        f"{escape(str(document['toolproof_version']))} · {len(document['requirements'])} requirements × "
        f"{len(names)} runtimes. A cell is the worst status of the requirement's checks for that runtime; "
        "hover a cell for its reasons, or follow its number to the list below.</p>",
        f'<div class="legend">{legend}</div>',
        "<h2>Runtimes</h2>",
        '<table class="runtimes"><thead><tr><th>runtime</th><th>implementation (hello)</th>'
        "<th>capabilities</th><th>pass</th>"
        '<th title="observed deviations with a failing check: one that fails several checks counts once">'
        "findings</th>"
        "<th>fail MUST</th><th>fail SHOULD</th>"
        '<th title="findings whose failing checks are all expected">expected findings</th>'
        "<th>expected</th>"
        "<th>undecided</th><th>not claimed</th></tr></thead><tbody>",
        *_runtime_rows(document),
        "</tbody></table>",
        "<h2>MCP transports</h2>",
        f'<p class="meta">{_code_spans(TRANSPORT_NOTE)}</p>',
        '<table class="runtimes transports"><thead><tr><th>runtime</th>'
        + "".join(f"<th>{escape(t)}</th>" for t in TRANSPORT_CAPABILITIES)
        + "</tr></thead><tbody>",
        *_transport_rows(document),
        "</tbody></table>",
        "<h2>Non-text result blocks</h2>",
        f'<p class="meta">{_code_spans(BLOCKS_NOTE)}</p>',
        '<table class="runtimes blocks"><thead><tr><th>runtime</th>'
        + "".join(f"<th>{escape(k)}</th>" for k in BLOCK_CHECKS)
        + "</tr></thead><tbody>",
        *_block_rows(document),
        "</tbody></table>",
        "<h2>Requirements</h2>",
        '<table class="matrix"><thead><tr><th class="req">requirement</th>',
        *head_cells,
        "</tr></thead><tbody>",
        *_matrix_rows(document, names),
        "</tbody></table>",
    ]
    notes = _notes(document)
    if notes:
        parts += ["<h2>Reasons</h2>", '<ol class="notes">', *notes, "</ol>"]
    if unchecked:
        parts.append(
            '<p class="meta">Requirements with no check yet (not in the matrix): '
            + ", ".join(f"<code>{escape(r)}</code>" for r in unchecked)
            + ".</p>"
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
