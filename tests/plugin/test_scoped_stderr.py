"""The stderr a failure shows is what the candidate wrote during that test's own requests (issue 22 §5).

One `cmd:` adapter serves both tests of a worker; tests/fauxmplementations/stderr_per_test.py writes a
stderr line naming each build, run and close, and crashes in the second test's run. The second
test's failure (its message, hence the console, the summary and the JSON report) and its
`--toolproof-dump` carry its own lines, labelled as such, and none of the first test's.
"""

from __future__ import annotations

import json
import re

import pytest
from test_plugin import Suite, faux

from toolproof.report import exitcodes

TWO_TESTS = r"""
import pytest


@pytest.mark.checks("proto.unknown-build-id")
def test_a_first(tp):
    tp.build(tp.config({}))
    tp.expect_outcome("proto.unknown-build-id", tp.close(), {"ok": True}, what="close")
    outcome = tp.run("hi", judged=True)
    tp.expect_outcome("proto.unknown-build-id", outcome, {"ok": False, "kind": "internal"}, what="closed")


@pytest.mark.checks("proto.unknown-build-id")
def test_b_second(tp):
    tp.build(tp.config({}))
    tp.run("hi")
"""
DUMP = "out/dump"


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def test_a_failure_shows_only_the_stderr_of_its_own_test(suite: Suite) -> None:
    suite.write(test_two=TWO_TESTS)
    run = suite.run("--candidate", faux("stderr_per_test"), "--toolproof-dump", DUMP)
    assert run.ret == exitcodes.CANDIDATE_BROKEN, run.output
    (failure,) = [r for r in run.data["results"] if r["status"] == "fail"]
    assert (failure["check"], failure["side"], failure["test"]) == (
        "proto.valid-config-builds-and-runs",
        "adapter-protocol",
        "test_two.py::test_b_second",
    )
    found = re.match(r"build ([0-9a-f]{12}): ", failure["message"])
    assert found is not None, failure["message"]
    token = found.group(1)
    assert failure["message"] == (
        f"build {token}: a step this test needs did not succeed, so its other checks are undecided: run"
        " raised ProtocolViolation: candidate exited (code 3) before answering 'run'\n"
        "--- candidate stderr during this test's requests ---\n"
        f"faux stderr: build {token}\n"
        f"faux stderr: run {token}, crashing\n"
    )
    dump = json.loads((suite.pytester.path / DUMP / "test_two__test_b_second.json").read_text("utf-8"))
    assert dump["candidate_stderr"] == {
        # The fixture's close of the build at the end of the test is the test's own request too.
        "lines": [
            f"faux stderr: build {token}",
            f"faux stderr: run {token}, crashing",
            f"faux stderr: close {token} (unknown)",
        ],
        "note": "candidate stderr during this test's requests",
    }
    assert [line for line in dump["protocol"]["lines"] if "faux stderr" in line] == []
