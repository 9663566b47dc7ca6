"""--toolproof-checks takes requirement IDs as well as check IDs (issue 12).

A requirement ID (`tp-...`) selects the tests hosting any check nested under it; an unknown ID of
either kind stays a usage error (exit 2) naming the likely typo among the IDs of its kind.
"""

from __future__ import annotations

import pytest
from test_plugin import SUITE, Suite, faux  # the plugin tests' pytester driver (tests/plugin)

from toolproof.errors import UsageError
from toolproof.judge.catalog import load_catalog
from toolproof.plugin.hooks import wanted_checks
from toolproof.report import exitcodes


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def test_a_requirement_id_stands_for_its_checks() -> None:
    catalog = load_catalog()
    assert wanted_checks("tp-wire-parameters-json-schema", catalog) == frozenset(
        {"wire.parameters-valid-schema", "wire.parameters-lowercase-types"}
    )
    assert wanted_checks(" tp-loop-completed , proto.unknown-build-id,", catalog) == frozenset(
        {"loop.completed-output", "loop.completed-empty-output", "proto.unknown-build-id"}
    )
    assert wanted_checks("wire.endpoint", catalog) == frozenset({"wire.endpoint"})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            "tp-proto-unknown-buidl",
            "unknown requirement id 'tp-proto-unknown-buidl' (did you mean 'tp-proto-unknown-build'?)",
        ),
        ("tp-zzzz", "unknown requirement id 'tp-zzzz'"),
        (
            "proto.unknown-build-ib",
            "unknown check id 'proto.unknown-build-ib' (did you mean 'proto.unknown-build-id'?)",
        ),
    ],
)
def test_an_unknown_id_names_the_likely_typo(raw: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        wanted_checks(f"wire.endpoint,{raw}", load_catalog())
    assert str(caught.value) == message


def test_a_requirement_id_selects_the_tests_hosting_its_checks(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    run = suite.run("--candidate", faux("wellbehaved"), "--toolproof-checks", "tp-proto-unknown-build")
    assert run.ret == exitcodes.OK, run.output
    assert run.outcomes() == {"passed": 1, "deselected": 1}
    assert sorted(check for check, row in run.rows.items() if not row["invariant"]) == [
        "proto.unknown-build-id"
    ]
    assert run.rows["proto.unknown-build-id"]["tests"] == ["test_small.py::test_unknown_id"]
    assert (run.data["summary"]["collected_tests"], run.data["summary"]["reported_tests"]) == (1, 1)


def test_requirement_and_check_ids_mix(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    run = suite.run(
        "--candidate",
        faux("strips_output"),
        "--toolproof-checks",
        "tp-loop-completed,proto.unknown-build-id",
    )
    # strips_output trims the reply: test_text_reply (hosting loop.completed-output) ran and failed.
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert run.outcomes() == {"passed": 1, "failed": 1}
    assert {check: row["status"] for check, row in run.rows.items() if not row["invariant"]} == {
        "loop.completed-output": "fail",
        "proto.unknown-build-id": "pass",
        "proto.valid-config-builds-and-runs": "pass",  # test_text_reply's build and run succeeded
    }


@pytest.mark.parametrize(
    "raw",
    ["tp-proto-unknown-buidl", "proto.unknown-build-id,tp-proto-unknown-buidl"],
)
def test_an_unknown_requirement_id_is_a_usage_error(suite: Suite, raw: str) -> None:
    suite.write(test_small=SUITE)
    run = suite.run("--candidate", faux("wellbehaved"), "--toolproof-checks", raw)
    assert run.ret == exitcodes.USAGE, run.output
    assert run.report is None
    assert run.result.errlines[-1] == (
        "Exit: toolproof: unknown requirement id 'tp-proto-unknown-buidl' "
        "(did you mean 'tp-proto-unknown-build'?)"
    )
