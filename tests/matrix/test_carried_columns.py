"""`toolproof matrix --from-matrix NAME=PATH`: a column of an earlier matrix, kept as it was.

A carried column rebuilt into a new matrix shows every cell exactly as the earlier
matrix did; a requirement the earlier matrix did not have reads `not run`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from toolproof.judge.contract_files import contracts_dir
from toolproof.report.matrix import build_matrix, carried_column
from toolproof.tools import matrix as matrix_tool

COMMITTED = contracts_dir().parent.parent / "reports" / "matrix.json"


def committed() -> dict[str, Any]:
    path = COMMITTED if COMMITTED.is_file() else Path(__file__).parents[2] / "reports" / "matrix.json"
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def test_every_column_of_the_committed_matrix_is_rebuilt_cell_for_cell() -> None:
    earlier = committed()
    names = [runtime["name"] for runtime in earlier["runtimes"]]
    rebuilt = build_matrix([carried_column(earlier, name, "m.json") for name in names])
    cells = {r["id"]: r["cells"] for r in rebuilt["requirements"]}
    differing = [
        (requirement["id"], name)
        for requirement in earlier["requirements"]
        for name in names
        if cells[requirement["id"]][name] != requirement["cells"][name]
    ]
    assert differing == []
    kept = ("implementation", "capabilities", "options", "summary", "exit_status", "contract_version")
    assert [{k: r[k] for k in kept} for r in rebuilt["runtimes"]] == [
        {k: r[k] for k in kept} for r in earlier["runtimes"]
    ]


def test_a_requirement_the_earlier_matrix_lacked_reads_not_run() -> None:
    earlier = committed()
    name = earlier["runtimes"][0]["name"]
    without = {
        **earlier,
        "requirements": [r for r in earlier["requirements"] if r["id"] != "tp-resp-endpoint"],
    }
    rebuilt = build_matrix([carried_column(without, name, "m.json")])
    (cell,) = [r["cells"][name] for r in rebuilt["requirements"] if r["id"] == "tp-resp-endpoint"]
    assert (cell["status"], cell["checks"], cell["reasons"]) == ("not_run", {}, [])


def test_a_carried_failure_keeps_its_side_reason_and_baseline_reason() -> None:
    earlier: dict[str, Any] = {
        "runtimes": [
            {
                "name": "rt",
                "source": "/tmp/rt.json",
                "spec": "cmd:rt",
                "implementation": {"name": "rt", "version": "1", "language": "python"},
                "capabilities": ["openai.chat"],
                "options": {},
                "summary": {"checks": 1},
                "exit_status": 0,
                "verdict_lines": [],
                "contract_version": 7,
                "toolproof_version": "0.1.0",
                "error": None,
            }
        ],
        "requirements": [
            {
                "id": "tp-wire-endpoint",
                "level": "MUST",
                "cells": {
                    "rt": {
                        "status": "fail",
                        "label": "fail MUST",
                        "expected": True,
                        "checks": {"wire.endpoint": "fail"},
                        "reasons": [
                            {
                                "check": "wire.endpoint",
                                "observation": "wire-endpoint",
                                "finding": "wire.endpoint",
                                "deviation": "",
                                "side": "candidate",
                                "expected_failure": True,
                                "reason": "1 of 1 request violates: t#0",
                                "known_reason": "[spec; runtime defect] posts elsewhere",
                            }
                        ],
                    }
                },
            }
        ],
    }
    column = carried_column(earlier, "rt", "old.json")
    assert (column.name, column.source, column.error) == ("rt", "old.json (carried; run: /tmp/rt.json)", None)
    assert {k: v.reason for k, v in column.baseline.items()} == {
        "wire.endpoint": "[spec; runtime defect] posts elsewhere"
    }
    (cell,) = [
        r["cells"]["rt"] for r in build_matrix([column])["requirements"] if r["id"] == "tp-wire-endpoint"
    ]
    # `notes` numbers the matrix's footnotes (the known reason); the rest is the earlier cell.
    assert {key: value for key, value in cell.items() if key != "notes"} == earlier["requirements"][0][
        "cells"
    ]["rt"]


def test_from_matrix_targets_keep_command_line_order(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    matrix_tool.add_arguments(parser)
    args = parser.parse_args(
        ["--from-reports", "a=a.json", "--from-matrix", "b=old.json", "--candidate", "reference"]
    )
    targets = matrix_tool.targets_from(args)
    assert [(t.name, t.report, t.carried) for t in targets] == [
        ("a", Path("a.json"), None),
        ("b", None, Path("old.json")),
        ("reference", None, None),
    ]


def test_a_missing_matrix_or_column_is_an_error_column(tmp_path: Path) -> None:
    missing = matrix_tool.carry_column("rt", tmp_path / "none.json")
    (tmp_path / "m.json").write_text(json.dumps({"runtimes": [], "requirements": []}), encoding="utf-8")
    unknown = matrix_tool.carry_column("rt", tmp_path / "m.json")
    assert [(c.report, c.error) for c in (missing, unknown)] == [
        (None, f"matrix not found: {tmp_path / 'none.json'}"),
        (None, f"{tmp_path / 'm.json'} has no column 'rt'"),
    ]
