"""A run a harness safety net ended never passes a check about how the runtime ended it.

The model endpoint's safety cap and its "script exhausted" 400 end what a
runtime did not end itself (issue 12: a runtime retried 12 times and stopped
only on the script-exhausted answer, and err.model-error-kind passed). Small
suites run by pytester in a subprocess, against in-process candidates that
retry a failing model: `tp.expect_outcome` fails (side candidate, the nets
named in the message) whatever the outcome reads, and passes when the
runtime gives up on its own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_vacuity import forked_pytest  # the vacuity self-tests' pytester driver (tests/vacuity)

from toolproof.report import exitcodes

CANDIDATES = '''
import json
import urllib.error
import urllib.request


class Retries:
    """Asks the model until an answer is not a 500 (or `attempts` ran out); fails the run as model_error."""

    def __init__(self, attempts):
        self.attempts = attempts
        self.configs = {}

    def hello(self):
        return {
            "ok": True,
            "protocol": 1,
            "implementation": {"name": "retries", "version": "0", "language": "python"},
            "capabilities": ["openai.chat"],
        }

    def build(self, id, config):
        self.configs[id] = config
        return {"ok": True}

    def run(self, id, input):
        model = self.configs[id]["model"]
        body = {"model": model["name"], "messages": [{"role": "user", "content": input}]}
        status = 500
        attempt = 0
        while status == 500 and attempt != self.attempts:
            attempt += 1
            request = urllib.request.Request(
                model["base_url"] + "/chat/completions",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + model["api_key"]},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
        return {"ok": False, "error": {"kind": "model_error", "message": f"gave up: HTTP {status}"}}

    def close(self, id):
        self.configs.pop(id, None)
        return {"ok": True}


def forever():
    return Retries(attempts=-1)


def three_attempts():
    return Retries(attempts=3)
'''

TESTS = """
import pytest

from toolproof.fakes import AlwaysFail, HttpError

ERROR = HttpError(500, {"error": {"message": "down", "type": "server_error"}})


@pytest.mark.checks("err.model-error-kind")
@pytest.mark.capability("openai.chat")
def test_always_failing(tp):
    tp.script(AlwaysFail(ERROR))
    tp.build(tp.config({}))
    outcome = tp.run("q", judged=True)
    tp.expect_outcome("err.model-error-kind", outcome, {"ok": False, "kind": "model_error"}, what="run")


@pytest.mark.checks("err.model-error-kind")
@pytest.mark.capability("openai.chat")
def test_two_failures_scripted(tp):
    tp.script(ERROR, ERROR)
    tp.build(tp.config({}))
    outcome = tp.run("q", judged=True)
    tp.expect_outcome("err.model-error-kind", outcome, {"ok": False, "kind": "model_error"}, what="run")
"""


def run_suite(pytester: pytest.Pytester, factory: str, test: str) -> tuple[int, str, list[dict[str, Any]]]:
    """Exit status, output and the report's results of one subprocess run of one test of TESTS."""
    pytester.makeconftest("# toolproof's plugin is loaded with -p toolproof.plugin\n")
    (pytester.path / "net_candidates.py").write_text(CANDIDATES, encoding="utf-8")
    pytester.makepyfile(test_suite=TESTS)
    report = pytester.path / "report.json"
    ret, output = forked_pytest(
        pytester,
        "-p",
        "toolproof.plugin",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        "--report-json",
        str(report),
        f"--candidate=py:net_candidates:{factory}",
        "-k",
        test,
    )
    assert report.is_file(), output
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    return ret, output, [r for r in results if r["check"] == "err.model-error-kind"]


def test_the_safety_cap_fails_an_outcome_that_reads_as_expected(pytester: pytest.Pytester) -> None:
    ret, output, (result,) = run_suite(pytester, "forever", "test_always_failing")
    assert ret == exitcodes.CHECK_FAILED, output
    assert (result["status"], result["side"]) == ("fail", "candidate")
    lines = result["message"].splitlines()
    assert lines[0] == (
        "run (candidate said: 'gave up: HTTP 400'): a harness safety net fired, so the harness, not the "
        "runtime, ended this run (such a run cannot pass a check about how the runtime ended it):"
    )
    assert lines[1].endswith(": toolproof: safety cap of 64 model requests reached")
    assert lines[1].startswith("  build ")
    assert lines[2] == '  observed: {"ok": false, "kind": "model_error"}'


def test_script_exhausted_fails_it_too(pytester: pytest.Pytester) -> None:
    ret, output, (result,) = run_suite(pytester, "forever", "test_two_failures_scripted")
    assert ret == exitcodes.CHECK_FAILED, output
    assert (result["status"], result["side"]) == ("fail", "candidate")
    assert result["message"].splitlines()[1].endswith(": toolproof: script exhausted after 2 replies")


def test_a_runtime_that_gives_up_by_itself_passes(pytester: pytest.Pytester) -> None:
    """Positive control: three attempts, all answered 500 by the endpoint that always fails."""
    ret, output, (result,) = run_suite(pytester, "three_attempts", "test_always_failing")
    assert ret == exitcodes.OK, output
    assert result["status"] == "pass"
