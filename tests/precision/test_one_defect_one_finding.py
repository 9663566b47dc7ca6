"""One defect, one finding (issue 22 §2): each runtime line that failed several MUST checks, put back
into a copy of the reference by its negative control, is reported as exactly one finding, charged
to its own requirement, the other checks marked "same finding" with their evidence kept.

Each case runs only the tests hosting the control's checks (`--toolproof-checks`), like the
controls runner's named mode, on the copy (toolproof/controls/control.py `materialize`).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from suite_run import run_with_control  # the precision self-tests' driver (tests/precision)

from toolproof.judge.contract_files import contracts_dir
from toolproof.report import exitcodes

REPR = "tool text replaced by a Python repr of the MCP content objects"


def run_control(tmp_path: Path, name: str, checks: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON report of the suite run against the reference with control `name` applied, on the
    tests hosting the checks it kills (or `checks`)."""
    control = importlib.import_module(f"toolproof.negative_controls.{name}").CONTROL
    code, data = run_with_control(
        tmp_path, name, "--hypothesis-profile=ci", "--toolproof-checks", ",".join(checks or control.kills)
    )
    assert code == exitcodes.CHECK_FAILED, data["summary"]
    return data


CASES = [
    pytest.param(
        "args_nulls_dropped",
        {
            "id": "args.object-arrives",
            "deviation": "nulls-dropped",
            "text": "null-valued keys dropped from object arguments",
            "checks": ["args.object-arrives", "args.object-any-ijson", "args.string-encoded-any-ijson"],
        },
        "1 MUST finding (3 failing MUST checks) (candidate)",
        id="explicit nulls dropped",
    ),
    pytest.param(
        "args_array_index_keys",
        {
            "id": "args.non-object-per-option",
            "deviation": "index-keys",
            "text": 'array arguments spread into index keys "0", "1", ...',
            "checks": ["args.non-object-per-option", "args.no-invented-keys"],
        },
        "1 MUST finding (2 failing MUST checks) (candidate)",
        id="arrays spread into index keys",
    ),
    pytest.param(
        "result_error_structured_trimmed",
        {
            "id": "result.is-error",
            "deviation": "text-trimmed",
            "text": "tool text trimmed of surrounding whitespace",
            "checks": ["result.is-error", "result.structured"],
        },
        "1 MUST finding (2 failing MUST checks) (candidate)",
        id="a trim of error and structured text",
    ),
    pytest.param(
        "args_null_raw_wrapper",
        {
            "id": "args.non-object-per-option",
            "deviation": "raw-wrapper",
            "text": 'non-object arguments wrapped as {"raw": ...}',
            "checks": ["args.non-object-per-option", "args.no-invented-keys", "args.null-per-option"],
        },
        "1 MUST finding (3 failing MUST checks) (candidate)",
        id="a raw wrapper, null included",
    ),
    pytest.param(
        "args_non_object_raw_key",
        {
            "id": "args.non-object-per-option",
            "deviation": "raw-wrapper",
            "text": 'non-object arguments wrapped as {"raw": ...}',
            "checks": ["args.non-object-per-option", "args.no-invented-keys"],
        },
        "1 MUST finding (2 failing MUST checks) (candidate)",
        id="a raw wrapper",
    ),
    pytest.param(
        "wire_invalid_names_offered_unchanged",
        {
            "id": "wire.invalid-name-alias-offered",
            "deviation": "names-unchanged",
            "text": "invalid MCP tool names offered to the model unchanged",
            "checks": ["wire.invalid-name-alias-offered", "wire.function-name-pattern"],
        },
        "1 MUST finding (2 failing MUST checks) (candidate)",
        id="invalid names offered unchanged",
    ),
    pytest.param(
        "anthropic_dotted_name_unchanged",
        {
            "id": "anthropic.invalid-name-per-option",
            "deviation": "names-unchanged-messages",
            "text": "invalid MCP tool names offered to the model unchanged on the Messages API",
            "checks": ["anthropic.invalid-name-per-option", "anthropic.tool-name-pattern"],
        },
        "1 MUST finding (2 failing MUST checks) (candidate)",
        id="a dotted name offered unchanged on the Messages API",
    ),
    pytest.param(
        "result_python_repr",
        {
            "id": "result.verbatim",
            "deviation": "python-repr",
            "text": REPR,
            "checks": [
                "result.verbatim",
                "receipt.no-synthesized-status",
                "receipt.ok-verbatim",
                "result.empty",
                "result.no-content-block",
            ],
        },
        "1 MUST finding (4 failing MUST checks) (candidate);"
        " also 1 SHOULD check failed (not failing without --toolproof-strict)",
        id="a Python repr of the content objects",
    ),
]


@pytest.mark.parametrize(("control", "finding", "reason"), CASES)
def test_one_runtime_line_is_one_finding(
    tmp_path: Path, control: str, finding: dict[str, Any], reason: str
) -> None:
    report = run_control(tmp_path, control)
    schema = json.loads((contracts_dir() / "report.json").read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(report)] == []
    assert report["findings"] == [{**finding, "level": "MUST", "expected_failure": False}]
    assert report["summary"]["findings"] == 1
    assert report["exit_reason"] == reason
    primary, *same = finding["checks"]
    rows = {r["id"]: r for r in report["checks"] if r["status"] == "fail"}
    assert {c: (r["finding"], r["same_finding_as"], r["deviation"]) for c, r in rows.items()} == {
        primary: (primary, None, finding["deviation"]),
        **{c: (primary, primary, finding["deviation"]) for c in same},
    }
    # the evidence of every check stays: a tp.expect message names the deviation (an invariant's keeps
    # its own form: the requests that violate it), its failing results the finding
    assert {c: r["message"].splitlines()[1] for c, r in rows.items() if not r["invariant"]} == {
        c: f"  deviation: {finding['text']}" for c in finding["checks"] if not rows[c]["invariant"]
    }
    failing = {(r["check"], r["finding"]) for r in report["results"] if r["status"] == "fail"}
    assert failing == {(c, primary) for c in finding["checks"]}
    # the console: one FAIL line naming the deviation, the other checks under it
    lines = report["verdict_lines"]
    assert [line for line in lines if line.startswith("FAIL ")] == [
        f"FAIL {primary} [MUST ({rows[primary]['source_class']}), candidate]: {finding['text']}"
    ]
    assert [line for line in lines if line.startswith("    same finding: ")] == [
        f"    same finding: {', '.join(same)}"
    ]


def test_a_crash_on_arrays_is_charged_once(tmp_path: Path) -> None:
    """Array arguments that crash the run (Haystack's `dict(args)`) fail args.non-object-per-option
    alone: the invented-key test sends an array too, but in a build of its own judged only by the
    keys the tool received, so it decides its check and charges no precondition (issue 22 §2, §4)."""
    report = run_control(
        tmp_path, "args_array_crashes_run", ("args.non-object-per-option", "args.no-invented-keys")
    )
    # the checks the two tests declare (the per-request invariants are judged on their own traffic)
    statuses = {r["id"]: r["status"] for r in report["checks"] if not r["invariant"]}
    assert statuses == {
        "args.non-object-per-option": "fail",
        "args.no-invented-keys": "pass",
        "proto.valid-config-builds-and-runs": "pass",
    }
    assert (report["summary"]["findings"], report["exit_reason"]) == (
        1,
        "1 MUST finding (1 failing MUST check) (candidate)",
    )
