"""Shortened reasons (toolproof/report/reasons.py) and the `--summary-md` document, from literal reports."""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.judge.catalog import load_catalog
from toolproof.report.markdown import render_summary
from toolproof.report.reasons import reason_lines


@pytest.mark.parametrize(
    ("message", "lines"),
    [
        pytest.param(
            'a text reply:\n  $.output: expected "x" got "y"\n  observed: {"output": "y"}',
            ["a text reply:", '$.output: expected "x" got "y"', 'observed: {"output": "y"}'],
            id="tp.expect",
        ),
        pytest.param(
            "offered tools:\n"
            + "".join(f"  $[{n}]: expected 1 got 2\n" for n in range(5))
            + "  observed: [2]",
            [
                "offered tools:",
                "$[0]: expected 1 got 2",
                "$[1]: expected 1 got 2",
                "$[2]: expected 1 got 2",
                "... 2 more differences",
                "observed: [2]",
            ],
            id="tp.expect, more differences than shown",
        ),
        pytest.param(
            "offered tools:\n"
            + "".join(f"  $[{n}]: expected 1 got 2\n" for n in range(4))
            + "  observed: [2]",
            [
                "offered tools:",
                "$[0]: expected 1 got 2",
                "$[1]: expected 1 got 2",
                "$[2]: expected 1 got 2",
                "... 1 more difference",
                "observed: [2]",
            ],
            id="tp.expect, one difference hidden",
        ),
        pytest.param(
            "2 of 3 requests violate: aa#0, bb#0\n"
            "requests aa#0, bb#0: tools[1] and tools[0] both declare function 'lookup'\n"
            "request bb#0: tools[2].function.name 'a.b' does not match ^[a-zA-Z0-9_-]{1,64}$",
            [
                "2 of 3 requests violate: aa#0, bb#0",
                "requests aa#0, bb#0: tools[1] and tools[0] both declare function 'lookup'",
                "request bb#0: tools[2].function.name 'a.b' does not match ^[a-zA-Z0-9_-]{1,64}$",
            ],
            id="an invariant: its count line and its problems",
        ),
        pytest.param(
            "4 of 4 requests violate: a#0, a#1, a#2, a#3\n"
            + "".join(f"request a#{n}: problem {n}\n" for n in range(4))
            + "not judged: 1 request whose body is not a JSON object (wire.request-schema judges those)",
            [
                "4 of 4 requests violate: a#0, a#1, a#2, a#3",
                *(f"request a#{n}: problem {n}" for n in range(3)),
                "... 1 more problem",
            ],
            id="an invariant, more problems than shown",
        ),
        pytest.param(
            "tool texts:\n"
            "  deviation: tool text trimmed of surrounding whitespace\n"
            '  $[0]: expected " a " got "a"\n'
            '  observed: ["a"]',
            ["tool texts:", '$[0]: expected " a " got "a"', 'observed: ["a"]'],
            id="tp.expect naming a deviation: left to the caller, which names the finding",
        ),
        pytest.param("a text reply: as expected", ["a text reply: as expected"], id="a pass"),
        pytest.param(
            "first problem:\nsecond problem, not indented", ["first problem:"], id="a heading without details"
        ),
        pytest.param("boom\n  detail", ["boom"], id="not a heading"),
        pytest.param("", [""], id="empty"),
        pytest.param("h" * 250, ["h" * 197 + "..."], id="a long first line"),
    ],
)
def test_reason_lines(message: str, lines: list[str]) -> None:
    assert reason_lines(message) == lines


SPEC = "cmd:./adapter --flag"
EXPECT = (
    "tool text (candidate said: 'a|b'):\n"
    '  $.text: expected "a|b" got "`x`"\n'
    "  $.extra: expected <missing> got 1\n"
    '  observed: {"text": "`x`", "extra": 1}'
)


def _row(check: str, requirement: str, **fields: Any) -> dict[str, Any]:
    failing = fields.get("status", "fail") == "fail"
    return {
        "id": check,
        "observation": load_catalog().checks[check].group,
        "requirement": requirement,
        "level": "MUST",
        "source_class": "spec",
        "capability": None,
        "invariant": False,
        "status": "fail",
        "expected_failure": False,
        "baseline_stale": False,
        "side": "candidate",
        "message": "m",
        "tests": ["conformance/test_a.py::test_one"],
        "occurrences": 1,
        "finding": check if failing else None,
        "same_finding_as": None,
        **fields,
    }


REPORT: dict[str, Any] = {
    "toolproof_version": "0.1.0",
    "contract_version": 1,
    "candidate": {
        "spec": SPEC,
        "hello": {"ok": True, "implementation": {"name": "my-runtime", "version": "2.0"}},
        "origin": "./adapter",
    },
    "summary": {"pass": 40, "fail": 4, "not_claimed": 2, "not_testable": 1, "expected_failures": 1},
    "checks": [
        _row(
            "result.verbatim",
            "tp-result-verbatim",
            message=EXPECT,
            tests=["conformance/test_a.py::test_one", "conformance/test_a.py::test_two[x]"],
            occurrences=2,
            deviation="python-repr",
        ),
        _row(
            "receipt.ok-verbatim",
            "tp-receipt-ok-verbatim",
            message="receipts:\n  deviation: tool text replaced by a Python repr\n  $[0]: expected 1 got 2",
            deviation="python-repr",
            finding="result.verbatim",
            same_finding_as="result.verbatim",
        ),
        _row(
            "wire.unique-function-names",
            "tp-wire-unique-names",
            invariant=True,
            message=(
                "2 of 2 requests violate: aa#0, bb#0\n"
                "requests aa#0, bb#0: tools[1] and tools[0] both declare 'lookup'"
            ),
            tests=["conformance/test_a.py::test_one", "conformance/test_a.py::test_two[x]"],
        ),
        _row("loop.cap-exact", "tp-loop-cap-exact", expected_failure=True, message="cap_*: expected 3 got 4"),
        _row("proto.unknown-build-id", "tp-proto-unknown-build", status="pass", baseline_stale=True),
        _row("proto.hello-first", "tp-proto-hello-first", status="pass"),
    ],
    "findings": [
        {"id": "loop.cap-exact", "text": None, "checks": ["loop.cap-exact"], "expected_failure": True},
        {
            "id": "result.verbatim",
            "text": "tool text replaced by a Python repr of the MCP content objects",
            "checks": ["result.verbatim", "receipt.ok-verbatim"],
            "expected_failure": False,
        },
        {
            "id": "wire.unique-function-names",
            "text": None,
            "checks": ["wire.unique-function-names"],
            "expected_failure": False,
        },
    ],
    "results": [
        {"check": "result.verbatim", "status": "pass", "test": "conformance/test_a.py::test_one"},
        {"check": "result.verbatim", "status": "fail", "test": "conformance/test_a.py::test_two[x]"},
        {"check": "wire.unique-function-names", "status": "fail", "test": "conformance/test_a.py::test_one"},
        {
            "check": "wire.unique-function-names",
            "status": "fail",
            "test": "conformance/test_a.py::test_two[x]",
        },
        {"check": "receipt.ok-verbatim", "status": "fail", "test": "conformance/test_a.py::test_two[x]"},
        {"check": "loop.cap-exact", "status": "fail", "test": "conformance/test_a.py::test_one"},
        {"check": "proto.unknown-build-id", "status": "pass", "test": "conformance/test_a.py::test_one"},
        {"check": "proto.hello-first", "status": "pass", "test": "conformance/test_a.py::test_one"},
    ],
    "dumps": {
        "conformance/test_a.py::test_one": "out/dump/test_a__test_one.json",
        "conformance/test_a.py::test_two[x]": "out/dump/test_a__test_two_x_.json",
    },
    "exit_status": 1,
    "exit_reason": (
        "2 MUST findings (3 failing MUST checks) (candidate); also 1 timeout: loop.cap_exact <2>"
    ),
}


def test_the_summary_shows_the_exit_reason_the_differences_and_the_dumps() -> None:
    repro = "toolproof run --candidate 'cmd:./adapter --flag' -- --toolproof-checks"
    assert render_summary(REPORT) == (
        "# toolproof: my-runtime 2.0\n"
        "\n"
        "Candidate `cmd:./adapter --flag`, contract v1, toolproof 0.1.0.\n"
        "\n"
        "**40 pass, 4 fail, 0 undecided, 2 not claimed, 1 not testable** (1 expected failures).\n"
        "\n"
        "**Exit 1**: 2 MUST findings (3 failing MUST checks) (candidate);"
        " also 1 timeout: loop.cap\\_exact \\<2\\>\n"
        "\n"
        "**Findings: 2** (one observed deviation each, however many checks it fails;"
        " expected failures apart)\n"
        "\n"
        "- `result.verbatim`: tool text replaced by a Python repr of the MCP content objects;"
        " same finding: `receipt.ok-verbatim`\n"
        "- `wire.unique-function-names`\n"
        "\n"
        "| finding | check | requirement | level | side | reason | reproduce |\n"
        "|---|---|---|---|---|---|---|\n"
        "| `loop.cap-exact` | `loop.cap-exact` | `tp-loop-cap-exact` | MUST (spec) | candidate"
        " | (expected) cap\\_\\*: expected 3 got 4"
        f" | `{repro} loop.cap-exact -k test_one`"
        "<br>dump: [`out/dump/test_a__test_one.json`](<out/dump/test_a__test_one.json>) |\n"
        "| — | `proto.unknown-build-id` | `tp-proto-unknown-build` | MUST (spec)"
        " | candidate | baseline entry is stale: the check passes"
        f" | `{repro} proto.unknown-build-id -k test_one` |\n"
        "| `result.verbatim` | `result.verbatim` | `tp-result-verbatim` | MUST (spec) | candidate"
        " | tool text (candidate said: 'a\\|b'):"
        '<br>`` $.text: expected "a\\|b" got "`x`" ``'
        "<br>`$.extra: expected <missing> got 1`"
        '<br>`` observed: {"text": "`x`", "extra": 1} ``'
        f" | `{repro} result.verbatim -k 'test_two[x]'`"
        "<br>dump: [`out/dump/test_a__test_two_x_.json`](<out/dump/test_a__test_two_x_.json>) |\n"
        "| same as `result.verbatim` | `receipt.ok-verbatim` | `tp-receipt-ok-verbatim` | MUST (spec)"
        " | candidate | receipts:<br>`$[0]: expected 1 got 2`"
        f" | `{repro} receipt.ok-verbatim -k 'test_two[x]'`"
        "<br>dump: [`out/dump/test_a__test_two_x_.json`](<out/dump/test_a__test_two_x_.json>) |\n"
        "| `wire.unique-function-names` | `wire.unique-function-names` | `tp-wire-unique-names` | MUST (spec)"
        " | candidate"
        " | 2 of 2 requests violate: aa#0, bb#0"
        "<br>`requests aa#0, bb#0: tools[1] and tools[0] both declare 'lookup'`"
        f" | `{repro} wire.unique-function-names`"
        "<br>dump: [`out/dump/test_a__test_one.json`](<out/dump/test_a__test_one.json>)"
        " (+1 more in the JSON report) |\n"
        "\n"
        "Reasons are shortened; the JSON report (`--report-json`) has every message in full.\n"
    )


def test_a_green_summary_says_so() -> None:
    green = {
        **REPORT,
        "checks": [REPORT["checks"][-1]],
        "exit_status": 0,
        "exit_reason": "every MUST check passed (1 passing check)",
    }
    assert render_summary(green) == (
        "# toolproof: my-runtime 2.0\n"
        "\n"
        "Candidate `cmd:./adapter --flag`, contract v1, toolproof 0.1.0.\n"
        "\n"
        "**40 pass, 4 fail, 0 undecided, 2 not claimed, 1 not testable** (1 expected failures).\n"
        "\n"
        "**Exit 0**: every MUST check passed (1 passing check)\n"
        "\n"
        "No failing checks.\n"
    )
