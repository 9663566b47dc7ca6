"""The conformance matrix from literal small report documents: cells, footnotes, renderers, CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from toolproof.errors import UsageError
from toolproof.judge.catalog import load_catalog
from toolproof.judge.expected import Expected
from toolproof.report import exitcodes
from toolproof.report.html import render_html
from toolproof.report.matrix import Column, build_matrix, counts, one_line, render_markdown
from toolproof.tools import matrix as matrix_tool
from toolproof.tools.cli import main
from toolproof.tools.matrix import (
    BUNDLED,
    CANDIDATES_ROOT,
    Target,
    add_arguments,
    baselines_from,
    targets_from,
)

HELLO_A = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "runtime-a", "version": "1.2.3", "language": "go"},
    "capabilities": ["openai.chat", "loop.turn_cap"],
    "options": {"turn_cap_end": "graceful"},
}
HELLO_B = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "runtime-b", "version": "9.0", "language": "typescript"},
    "capabilities": ["openai.chat"],
}


def row(
    check: str,
    requirement: str,
    status: str,
    *,
    level: str = "MUST",
    side: str = "candidate",
    message: str = "",
    expected_failure: bool = False,
    finding: str | None = None,
) -> dict[str, Any]:
    """One `checks` row of a --report-json document, as report/model.py writes it; a failing row is
    its own finding unless `finding` names the primary check it is the same finding as."""
    own = finding or (check if status == "fail" else None)
    return {
        "id": check,
        "observation": load_catalog().checks[check].group,
        "requirement": requirement,
        "level": level,
        "capability": None,
        "invariant": False,
        "status": status,
        "expected_failure": expected_failure,
        "baseline_stale": False,
        "side": side,
        "message": message,
        "tests": ["test_x.py::test_y"],
        "occurrences": 1,
        "finding": own,
        "same_finding_as": own if own != check else None,
    }


def report(
    hello: dict[str, Any],
    checks: list[dict[str, Any]],
    *,
    spec: str = "cmd:./x",
    findings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A minimal --report-json document; `findings`: primary check -> the deviation it names."""
    return {
        "report_version": 2,
        "toolproof_version": "0.1.0",
        "contract_version": 1,
        "candidate": {"spec": spec, "hello": hello, "origin": ""},
        "summary": {"checks": len(checks), "stale_baseline_entries": 0},
        "checks": checks,
        "findings": [{"id": primary, "text": text} for primary, text in (findings or {}).items()],
        "results": [],
        "notes": [],
        "exit_status": 1,
        "verdict_lines": [],
    }


REPORT_A = report(
    HELLO_A,
    [
        row("loop.cap-exact", "tp-loop-cap-exact", "pass"),
        row("loop.cap-property", "tp-loop-cap-exact", "pass"),
        row(
            "loop.cap-negative-not-run",
            "tp-loop-cap-negative",
            "fail",
            message="build with max_tool_turns -1:\n  $.ok: expected false got true\n  observed: {}",
            expected_failure=True,
        ),
        row(
            "wire.tool-answers-in-call-order",
            "tp-wire-answer-order",
            "fail",
            level="SHOULD",
            message='tool messages out of call order:\n  $[0]: expected "a" got "b"',
        ),
        row(
            "proto.unknown-op", "tp-proto-unknown-op", "fail", side="timeout", message="timed out after 60 s"
        ),
    ],
    spec="cmd:./a",
)
REPORT_B = report(
    HELLO_B,
    [
        row("loop.cap-exact", "tp-loop-cap-exact", "not_claimed"),
        row("loop.cap-property", "tp-loop-cap-exact", "not_claimed"),
        row("loop.cap-negative-not-run", "tp-loop-cap-negative", "not_claimed"),
        row("wire.tool-answers-in-call-order", "tp-wire-answer-order", "pass", level="SHOULD"),
        row(
            "proto.unknown-op",
            "tp-proto-unknown-op",
            "fail",
            message='the answer to an unknown op:\n  $.kind: expected "internal" got "<b>bad</b>"',
        ),
    ],
    spec="cmd:./b",
)
BASELINE_A = {
    "loop.cap-negative-not-run": Expected(
        check="loop.cap-negative-not-run", reason="no validation of the cap"
    )
}


def matrix() -> dict[str, Any]:
    return build_matrix(
        [Column("a", "cmd:./a", REPORT_A, baseline=BASELINE_A), Column("b", "cmd:./b", REPORT_B)]
    )


def requirement(document: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(r for r in document["requirements"] if r["id"] == rid)


def test_cell_is_the_worst_status_of_its_checks() -> None:
    document = matrix()
    cells = {
        rid: requirement(document, rid)["cells"] for rid in ("tp-loop-cap-exact", "tp-wire-answer-order")
    }
    assert {k: {n: c["label"] for n, c in v.items()} for k, v in cells.items()} == {
        "tp-loop-cap-exact": {"a": "pass", "b": "not claimed"},
        "tp-wire-answer-order": {"a": "fail SHOULD", "b": "pass"},
    }


def test_fail_on_a_non_candidate_side_is_undecided_not_a_verdict() -> None:
    cells = requirement(matrix(), "tp-proto-unknown-op")["cells"]
    assert (cells["a"]["status"], cells["a"]["label"]) == ("undecided", "undecided")
    assert (cells["b"]["status"], cells["b"]["label"]) == ("fail", "fail MUST")


def test_a_requirement_without_results_for_a_runtime_is_not_run() -> None:
    cells = requirement(matrix(), "tp-dedup-collapse-to-one")["cells"]
    assert [cells["a"]["label"], cells["b"]["label"]] == ["not run", "not run"]


def test_expected_failures_are_marked_and_carry_the_baseline_reason() -> None:
    cell = requirement(matrix(), "tp-loop-cap-negative")["cells"]["a"]
    assert (cell["label"], cell["expected"]) == ("fail MUST", True)
    assert cell["reasons"] == [
        {
            "check": "loop.cap-negative-not-run",
            "observation": "turn-cap-validation",
            "finding": "loop.cap-negative-not-run",
            "deviation": "",
            "side": "candidate",
            "expected_failure": True,
            "reason": "build with max_tool_turns -1: $.ok: expected false got true",
            "known_reason": "no validation of the cap",
        }
    ]


def test_a_baseline_given_to_the_matrix_marks_failures_expected() -> None:
    baseline = {"proto.unknown-op": Expected(check="proto.unknown-op", reason="known")}
    document = build_matrix([Column("b", "cmd:./b", REPORT_B, baseline=baseline)])
    cell = requirement(document, "tp-proto-unknown-op")["cells"]["b"]
    observed = (cell["label"], cell["expected"], cell["reasons"][0]["known_reason"])
    assert observed == ("fail MUST", True, "known")


def test_footnotes_are_numbered_in_reading_order() -> None:
    document = matrix()
    assert [(n["n"], n["runtime"], n["check"]) for n in document["footnotes"]] == [
        (1, "a", "proto.unknown-op"),
        (2, "b", "proto.unknown-op"),
        (3, "a", "wire.tool-answers-in-call-order"),
        (4, "a", "loop.cap-negative-not-run"),
    ]
    assert requirement(document, "tp-proto-unknown-op")["cells"]["b"]["notes"] == [2]


def test_rows_follow_the_contract_index_order() -> None:
    ids = [r["id"] for r in matrix()["requirements"]]
    assert (
        ids.index("tp-proto-unknown-op") < ids.index("tp-wire-answer-order") < ids.index("tp-loop-cap-exact")
    )


def test_rows_carry_their_contract_section() -> None:
    document = matrix()
    sections = {
        rid: requirement(document, rid)["section"] for rid in ("tp-proto-unknown-op", "tp-loop-cap-exact")
    }
    assert sections == {
        "tp-proto-unknown-op": "§3 Protocol conduct",
        "tp-loop-cap-exact": "§11 Tool loop bound",
    }
    assert '<tr class="area" id="s11-tool-loop-bound">' in render_html(document)


def test_counts_per_runtime() -> None:
    document = matrix()
    assert {k: v for k, v in counts(document, "a").items() if k != "not_run"} == {
        "pass": 1,
        "fail_must": 0,
        "fail_should": 1,
        "expected": 1,
        "undecided": 1,
        "not_testable": 0,
        "not_claimed": 0,
        # the answer order fails; the negative cap only where expected; the timeout is no verdict
        "findings": 1,
        "expected_findings": 1,
    }


REPR = "tool text replaced by a Python repr of the MCP content objects"
NULLS = "null-valued keys dropped from object arguments"
# One deviation (a Python repr of the tool's text) failing checks of two requirements, a second
# failing only where expected (in two requirements too), and a third where only one check is expected.
REPORT_C = report(
    HELLO_B,
    [
        row("result.verbatim", "tp-result-verbatim", "fail", message="verbatim"),
        row("receipt.ok-verbatim", "tp-receipt-ok-verbatim", "fail", message="ok", finding="result.verbatim"),
        row("args.object-arrives", "tp-args-object", "fail", expected_failure=True),
        row(
            "args.string-encoded-levels",
            "tp-args-string-encoded",
            "fail",
            expected_failure=True,
            finding="args.object-arrives",
        ),
        row("wire.tools-never-empty", "tp-wire-no-empty-tools", "fail", expected_failure=True),
        row("wire.no-tool-keys-without-tools", "tp-wire-no-empty-tools", "fail"),
    ],
    spec="cmd:./c",
    findings={"result.verbatim": REPR, "args.object-arrives": NULLS},
)


def test_findings_count_observed_deviations_beside_failing_requirements() -> None:
    document = build_matrix([Column("c", "cmd:./c", REPORT_C)])
    c = counts(document, "c")
    # three failing MUST requirements but two findings (no-tools-request fails beside its expected
    # check); two expected requirements, one finding (null-valued keys dropped), and the expected
    # check beside the failing one is a finding of its own
    assert (c["fail_must"], c["findings"], c["expected"], c["expected_findings"]) == (3, 2, 2, 2)
    text = render_markdown(document)
    assert "| **c** | runtime-b 9.0 | openai.chat | 0 | 2 | 3 | 0 | 2 | 2 | 0 | 0 |" in text
    assert f"5. **c** `result.verbatim`: {REPR}: verbatim\n" in text
    assert f"6. **c** `receipt.ok-verbatim` (same finding as `result.verbatim`): {REPR}: ok\n" in text
    assert "4. **c** `args.string-encoded-levels` (same finding as `args.object-arrives`) (expected):" in text
    page = render_html(document)
    assert ">findings</th>" in page and ">expected findings</th>" in page
    assert "<td class='num'>0</td><td class='num'>2</td><td class='num'>3</td>" in page
    assert "(same finding as <code>result.verbatim</code>)" in page


def test_a_report_written_before_findings_takes_its_group_and_each_check_as_a_finding() -> None:
    old = {"observation", "finding", "same_finding_as"}
    rows = [
        {**{k: v for k, v in r.items() if k not in old}, "group": r["observation"]}
        for r in REPORT_C["checks"]
    ]
    version_1 = {k: v for k, v in REPORT_C.items() if k != "findings"} | {"report_version": 1, "checks": rows}
    document = build_matrix([Column("c", "cmd:./c", version_1)])
    cell = requirement(document, "tp-result-verbatim")["cells"]["c"]
    assert [(r["observation"], r["finding"], r["deviation"]) for r in cell["reasons"]] == [
        ("tool-result-text", "result.verbatim", "")
    ]
    assert (counts(document, "c")["findings"], counts(document, "c")["expected_findings"]) == (3, 3)


def test_a_report_written_before_groups_takes_the_catalog_group() -> None:
    drop = {"observation", "finding", "same_finding_as"}
    rows = [{k: v for k, v in r.items() if k not in drop} for r in REPORT_C["checks"]]
    document = build_matrix([Column("c", "cmd:./c", {**REPORT_C, "checks": rows, "findings": []})])
    cell = requirement(document, "tp-result-verbatim")["cells"]["c"]
    assert [r["observation"] for r in cell["reasons"]] == ["tool-result-text"]


def test_runtime_header_carries_hello_implementation() -> None:
    runtimes = matrix()["runtimes"]
    assert [(r["name"], r["implementation"]["version"], r["capabilities"]) for r in runtimes] == [
        ("a", "1.2.3", ["loop.turn_cap", "openai.chat"]),
        ("b", "9.0", ["openai.chat"]),
    ]


def test_duplicate_runtime_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        build_matrix([Column("a", "x", REPORT_A), Column("a", "y", REPORT_B)])


def test_one_line_keeps_the_heading_and_the_first_difference() -> None:
    message = "what the tool got:\n  $[1]: expected {} got null\n  $[2]: expected 1 got 2\n  observed: [1]"
    assert one_line(message) == "what the tool got: $[1]: expected {} got null"
    assert one_line("not decided: Boom\nTraceback ...") == "not decided: Boom"
    assert one_line("x" * 300, width=10) == "xxxxxxxxx…"


def test_markdown_rows_and_reasons() -> None:
    text = render_markdown(matrix())
    assert "| requirement | level | a | b |" in text
    assert "| **fail MUST** *(expected)* [4] | not claimed |" in text
    assert (
        "4. **a** `loop.cap-negative-not-run` (expected):"
        " build with max_tool_turns -1: $.ok: expected false got true — known: no validation of the cap"
    ) in text
    assert (
        "| runtime | implementation | capabilities | pass | findings | fail MUST | fail SHOULD"
        " | expected findings | expected | undecided | not claimed |"
    ) in text
    assert "| **a** | runtime-a 1.2.3 | loop.turn_cap, openai.chat | 1 | 1 | 0 | 1 | 1 | 1 | 1 | 0 |" in text


def test_html_is_static_escaped_and_colour_coded() -> None:
    page = render_html(matrix())
    assert "<script" not in page
    assert "&lt;b&gt;bad&lt;/b&gt;" in page and "<b>bad</b>" not in page
    assert 'class="cell s-fail-must s-expected"' in page
    assert 'class="cell s-fail-should"' in page
    assert '<li id="n4">' in page and '<a href="#n4">4</a>' in page
    assert "runtime-b 9.0" in page


def test_a_column_without_report_is_shown_as_not_run() -> None:
    document = build_matrix([Column("a", "cmd:./a", REPORT_A), Column("gone", "x", None, error="no report")])
    assert document["runtimes"][1]["error"] == "no report"
    assert requirement(document, "tp-loop-cap-exact")["cells"]["gone"]["label"] == "not run"
    assert "not run: no report" in render_html(document)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def test_targets_keep_command_line_order() -> None:
    args = parse("--from-reports", "x=/r.json", "--candidate", "vercel-ai", "--candidate", "mine=cmd:./a b")
    targets = targets_from(args)
    assert [(t.name, t.spec, t.report, t.bundled.name if t.bundled else None) for t in targets] == [
        ("x", "", Path("/r.json"), None),
        ("vercel-ai", "", None, "vercel-ai"),
        ("mine", "cmd:./a b", None, None),
    ]


def test_a_bundled_name_brings_its_own_baseline() -> None:
    args = parse(
        "--from-reports",
        "vercel-ai=/r.json",
        "--from-reports",
        "vercel-ai-stream=/t.json",
        "--from-reports",
        "x=/s.json",
    )
    baselines = baselines_from(args, targets_from(args))
    assert {k: v.relative_to(CANDIDATES_ROOT).as_posix() for k, v in baselines.items()} == {
        "vercel-ai": "vercel_ai/expected-failures.yaml",
        "vercel-ai-stream": "vercel_ai/expected-failures-stream.yaml",
    }


def test_a_streaming_profile_runs_the_same_adapter_with_its_profile() -> None:
    (profile,) = [b for b in BUNDLED if b.name == "vercel-ai-stream"]
    assert (profile.package, profile.arguments) == ("vercel_ai", " --profile vercel-ai-stream")
    (python_profile,) = [b for b in BUNDLED if b.name == "pydantic-ai-stream"]
    assert (python_profile.env, python_profile.arguments) == ("pydantic-ai", " --profile pydantic-ai-stream")


def test_no_targets_means_every_bundled_runtime() -> None:
    assert targets_from(parse()) == [Target(b.name, bundled=b) for b in BUNDLED]
    assert [b.name for b in BUNDLED] == [
        "reference",
        "reference-continuation",
        "reference-prefix",
        "reference-stream",
        "reference-responses",
        "reference-responses-stream",
        "reference-responses-chained",
        "reference-responses-chained-stream",
        "reference-responses-refs",
        "reference-anthropic",
        "reference-anthropic-stream",
        "reference-stdio",
        "reference-sse",
        "openai-agents",
        "openai-agents-stream",
        "openai-agents-responses",
        "openai-agents-responses-chained",
        "openai-agents-stdio",
        "pydantic-ai",
        "pydantic-ai-stream",
        "pydantic-ai-responses",
        "pydantic-ai-anthropic",
        "pydantic-ai-stdio",
        "agno",
        "agno-stream",
        "agno-anthropic",
        "agno-stdio",
        "strands-agents",
        "strands-agents-stdio",
        "agent-framework",
        "agent-framework-stdio",
        "haystack-ai",
        "haystack-ai-stdio",
        "langchain",
        "langchain-anthropic",
        "langchain-stdio",
        "vercel-ai",
        "vercel-ai-stream",
        "vercel-ai-responses",
        "vercel-ai-anthropic",
        "vercel-ai-stdio",
    ]


def test_a_responses_profile_runs_the_same_adapter_with_its_profile_and_baseline() -> None:
    (profile,) = [b for b in BUNDLED if b.name == "openai-agents-responses"]
    assert (profile.package, profile.env, profile.arguments, profile.baseline) == (
        "openai_agents",
        "openai-agents",
        " --profile openai-agents-responses",
        "expected-failures-responses.yaml",
    )


def test_an_anthropic_profile_runs_the_same_adapter_with_its_profile_and_baseline() -> None:
    (python, node) = [b for b in BUNDLED if b.name in ("agno-anthropic", "vercel-ai-anthropic")]
    assert (python.package, python.env, python.arguments, python.baseline) == (
        "agno",
        "agno",
        " --profile agno-anthropic",
        "expected-failures-anthropic.yaml",
    )
    assert (node.package, node.env, node.arguments, node.baseline) == (
        "vercel_ai",
        "",
        " --profile vercel-ai-anthropic",
        "expected-failures-anthropic.yaml",
    )


def test_a_transport_column_runs_the_default_profile_over_that_transport() -> None:
    (python,) = [b for b in BUNDLED if b.name == "agno-stdio"]
    assert (python.package, python.env, python.arguments, python.baseline, python.pytest_args) == (
        "agno",
        "agno",
        "",
        "expected-failures-stdio.yaml",
        ("--toolproof-mcp-transport", "stdio", "-k", "toolsets"),
    )
    (node,) = [b for b in BUNDLED if b.name == "vercel-ai-stdio"]
    assert (node.kind, node.package, node.env, node.arguments) == ("node", "vercel_ai", "", "")
    (reference,) = [b for b in BUNDLED if b.name == "reference-sse"]
    assert (reference.kind, reference.spec, reference.pytest_args) == (
        "inprocess",
        "reference",
        ("--toolproof-mcp-transport", "sse", "-k", "toolsets"),
    )


def test_every_python_and_node_transport_column_has_its_baseline_file() -> None:
    """A transport column's baseline is a file even when empty, so a new failure is never read as
    'no baseline given'."""
    missing = [
        f"{b.package}/{b.baseline}"
        for b in BUNDLED
        if b.pytest_args and b.package and not (CANDIDATES_ROOT / b.package / b.baseline).is_file()
    ]
    assert missing == []


def test_a_transport_column_adds_its_pytest_args_before_the_command_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, ...]] = []

    def run_suite(name: str, prepared: Any, baseline: Any, work: Path, jobs: int, extra: Any = ()) -> Column:
        seen.append(tuple(extra))
        return Column(name, prepared.spec, None, error="not run here")

    monkeypatch.setattr(matrix_tool, "run_suite", run_suite)
    (reference,) = [b for b in BUNDLED if b.name == "reference-stdio"]
    matrix_tool.produce(Target(reference.name, bundled=reference), None, tmp_path, 1, ("-x",))
    assert seen == [("--toolproof-mcp-transport", "stdio", "-k", "toolsets", "-x")]


def test_transports_are_read_from_each_columns_hello() -> None:
    sse_only = report(HELLO_B | {"capabilities": ["openai.chat", "mcp.sse"]}, [])
    document = build_matrix(
        [
            Column("a", "cmd:./a", report(HELLO_A | {"capabilities": ["openai.chat", "mcp.stdio"]}, [])),
            Column("b", "cmd:./b", sse_only),
            Column("c", "cmd:./c", REPORT_B),
            Column("gone", "x", None, error="no report"),
        ]
    )
    assert [r["transports"] for r in document["runtimes"]] == [
        {"http": True, "sse": False, "stdio": True},
        {"http": True, "sse": True, "stdio": False},
        {"http": True, "sse": False, "stdio": False},
        None,
    ]
    text = render_markdown(document)
    assert (
        "| runtime | http | sse | stdio |\n|---|---|---|---|\n"
        "| **a** | yes | no | yes |\n| **b** | yes | yes | no |\n| **c** | yes | no | no |\n"
        "| **gone** | — | — | — |\n"
    ) in text
    page = render_html(document)
    assert (
        '<tr><th>b</th><td class="cell s-pass">yes</td><td class="cell s-pass">yes</td>'
        '<td class="cell s-not_claimed">no</td></tr>'
    ) in page
    assert '<tr><th>gone</th><td class="cell s-not_run">—</td>' in page


def test_block_kinds_are_read_from_each_columns_hello_and_checks() -> None:
    both_wires = HELLO_A | {
        "capabilities": ["openai.chat", "openai.responses"],
        "options": {"binary_result_chat": "user_message", "binary_result_responses": "output_parts"},
    }
    checks = [
        row("result.block-image", "tp-result-binary-block", "pass"),
        row("result.block-audio", "tp-result-binary-block", "fail"),
        row("result.block-text-resource", "tp-result-text-resource", "pass"),
    ]
    whole = HELLO_B | {
        "options": {"tool_result_encoding": "call_tool_result", "resource_link_result": "placeholder"}
    }
    document = build_matrix(
        [
            Column("a", "cmd:./a", report(both_wires, checks)),
            Column("b", "cmd:./b", report(whole, [])),
            Column("gone", "x", None, error="no report"),
        ]
    )
    assert document["runtimes"][0]["blocks"] == {
        "image": {"declared": "chat: user_message, responses: output_parts", "status": "pass"},
        "audio": {"declared": "chat: user_message, responses: output_parts", "status": "fail"},
        "embedded blob": {"declared": "chat: user_message, responses: output_parts", "status": "not_run"},
        "embedded text": {"declared": "text", "status": "pass"},
        "resource_link": {"declared": "json_block", "status": "not_run"},
    }
    assert document["runtimes"][2]["blocks"] is None
    text = render_markdown(document)
    assert (
        "| runtime | image | audio | embedded blob | embedded text | resource_link |\n"
        "|---|---|---|---|---|---|\n"
        "| **a** | chat: user_message, responses: output_parts: pass "
        "| chat: user_message, responses: output_parts: fail "
        "| chat: user_message, responses: output_parts: not run | text: pass | json_block: not run |\n"
        "| **b** | MCP JSON: not run | MCP JSON: not run | MCP JSON: not run | MCP JSON: not run "
        "| MCP JSON: not run |\n"
        "| **gone** | — | — | — | — | — |\n"
    ) in text
    page = render_html(document)
    assert '<td class="cell s-fail-must">chat: user_message, responses: output_parts: fail</td>' in page
    assert '<tr><th>gone</th><td class="cell s-not_run">—</td>' in page


@pytest.mark.parametrize(
    "argv",
    [
        ("--candidate", "nonesuch"),
        ("--from-reports", "x"),
        ("--candidate", "a=cmd:x", "--from-reports", "a=/r.json"),
    ],
)
def test_bad_targets_are_usage_errors(argv: tuple[str, ...]) -> None:
    with pytest.raises(UsageError):
        targets_from(parse(*argv))


def test_cli_merges_reports_into_three_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.json").write_text(json.dumps(REPORT_A), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(REPORT_B), encoding="utf-8")
    out = tmp_path / "out"
    status = main(
        [
            "matrix",
            "--from-reports",
            f"a={tmp_path / 'a.json'}",
            "--from-reports",
            f"b={tmp_path / 'b.json'}",
            "--out-dir",
            str(out),
            "--work-dir",
            str(tmp_path / "work"),
        ]
    )
    assert status == exitcodes.OK
    written = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    assert [r["name"] for r in written["runtimes"]] == ["a", "b"]
    assert (out / "matrix.md").read_text(encoding="utf-8").startswith("# toolproof conformance matrix")
    assert (out / "matrix.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    assert "wrote" in capsys.readouterr().out


def test_cli_missing_report_is_a_not_run_column_and_exit_3(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(REPORT_A), encoding="utf-8")
    out = tmp_path / "out"
    status = main(
        [
            "matrix",
            "--from-reports",
            f"a={tmp_path / 'a.json'}",
            "--from-reports",
            f"gone={tmp_path / 'nope.json'}",
            "--out-dir",
            str(out),
        ]
    )
    assert status == exitcodes.CANDIDATE_BROKEN
    written = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    assert written["runtimes"][1]["error"] == f"report not found: {tmp_path / 'nope.json'}"


def test_cli_run_of_a_broken_candidate_still_writes_the_matrix(tmp_path: Path) -> None:
    """A real (short) suite run: a candidate whose hello breaks the schema aborts; its column is kept."""
    faux = Path(__file__).resolve().parent.parent / "fauxmplementations" / "bad_hello.py"
    out = tmp_path / "out"
    status = main(
        [
            "matrix",
            "--candidate",
            f"bad=cmd:{{python}} {faux}",
            "--out-dir",
            str(out),
            "--work-dir",
            str(tmp_path / "work"),
            "--jobs",
            "1",
            "--",
            "--toolproof-checks",
            "proto.unknown-op",
        ]
    )
    written = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    runtime = written["runtimes"][0]
    assert (status, runtime["name"]) == (exitcodes.OK, "bad")
    assert runtime["exit_status"] == exitcodes.CANDIDATE_BROKEN


def retired_row(**fields: Any) -> dict[str, Any]:
    """A row of a check the catalog no longer holds (retired in v2), as an old report wrote it."""
    base = row("args.null-per-option", "tp-args-null", "pass")
    gone = {"id": "args.empty-and-null-give-empty-object", "requirement": "tp-args-empty-null"}
    return {**base, **gone, "observation": "tool-arguments", **fields}


def test_a_report_of_contract_6_reads_its_capabilities_under_the_names_of_version_7() -> None:
    # Version 7 split `openai.*` (then: every model wire) into `model.*` and `openai.*` (either
    # OpenAI wire). A v6 report stays readable: a requirement still in the contract takes its
    # capability from §17; one the contract no longer holds reads the report's, renamed.
    rows = [
        {**row("loop.completed-output", "tp-loop-completed", "pass"), "capability": "openai.*"},
        {**row("args.null-per-option", "tp-args-null", "pass"), "capability": "openai.*"},
        retired_row(capability="openai.*"),
    ]
    for contract, retired in ((6, "model.*"), (7, "openai.*")):
        document = build_matrix(
            [Column("v", "cmd:./v", {**report(HELLO_B, rows), "contract_version": contract})]
        )
        assert [
            requirement(document, rid)["capability"]
            for rid in ("tp-loop-completed", "tp-args-null", "tp-args-empty-null")
        ] == ["model.*", "openai.*", retired]


def test_a_report_row_without_a_capability_reads_unknown() -> None:
    stripped = retired_row()
    del stripped["capability"]
    document = build_matrix([Column("v", "cmd:./v", report(HELLO_B, [stripped]))])
    assert requirement(document, "tp-args-empty-null")["capability"] == "?"
