"""toolproof.tools.smoke (`toolproof smoke`): an adapter's protocol conduct, step by step."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from toolproof.connect.connectables import ConnectSettings
from toolproof.report import exitcodes
from toolproof.tools.cli import main
from toolproof.tools.smoke import Step, run_smoke

FAUX = Path(__file__).resolve().parents[1] / "fauxmplementations"
SETTINGS = ConnectSettings(timeout=20.0, startup_grace=10.0)
STEPS = ["hello", "build", "run", "close", "unknown op", "unknown id", "still alive"]


def faux(name: str) -> str:
    return f"cmd:{{python}} {FAUX / f'{name}.py'}"


def test_reference_passes_every_step() -> None:
    out = io.StringIO()
    steps = run_smoke("reference", SETTINGS, out)
    assert [(s.name, s.ok) for s in steps] == [(name, True) for name in STEPS]
    assert [s.detail for s in steps][1:] == [
        "ok",
        "one model request, output relayed",
        "ok",
        "answered with kind internal",
        "answered with kind internal",
        "the same adapter process still answers hello",
    ]
    assert [line.split(" ", 1)[0] for line in out.getvalue().splitlines()] == ["PASS"] * len(STEPS)


def test_garbage_stdout_fails_at_hello_and_stops_there() -> None:
    out = io.StringIO()
    steps = run_smoke(faux("garbage_stdout"), SETTINGS, out)
    assert [(s.name, s.ok) for s in steps] == [("hello", False)]
    assert steps[0].detail == (
        "ProtocolViolation: stdout carried a line that is not JSON (Expecting value): "
        "'garbage_stdout: starting up' -- stdout must carry protocol lines only (a stray print?)"
    )
    assert out.getvalue() == f"FAIL hello: {steps[0].detail}\n"


STOPPED = "STOP: the build failed; not run: run, close, unknown op, unknown id, still alive\n"
HELLO_LINE = "PASS hello: {'name': 'faux', 'version': '0', 'language': 'python'} claims ['openai.chat']\n"


def test_crash_on_build_stops_at_the_failed_build() -> None:
    out = io.StringIO()
    steps = run_smoke(faux("crash_on_build"), SETTINGS, out)
    # Nothing after the failed build: close would only fail on the id the build never made.
    assert [(s.name, s.ok) for s in steps] == [("hello", True), ("build", False)]
    assert steps[1].detail == (
        "ProtocolViolation: candidate exited (code 3) before answering 'build'\n"
        "--- candidate stderr during its requests ---\n"
        "crash_on_build: cannot build, giving up\n"
    )
    assert out.getvalue() == f"{HELLO_LINE}FAIL build: {steps[1].detail}\n{STOPPED}"


REFUSES_BUILD = """
import sys

sys.path.insert(0, {faux!r})
from _faux import Faux


class RefusesBuild(Faux):
    def build(self, request):
        return {{"ok": False, "error": {{"kind": "invalid_config", "message": "refused"}}}}


RefusesBuild().serve()
"""


def test_a_refused_build_stops_the_smoke_too(tmp_path: Path) -> None:
    # The adapter stays up and answers build with ok:false: still no cascade of unknown-id failures.
    script = tmp_path / "refuses_build.py"
    script.write_text(REFUSES_BUILD.format(faux=str(FAUX)), encoding="utf-8")
    out = io.StringIO()
    steps = run_smoke(f"cmd:{{python}} {script}", SETTINGS, out)
    assert [(s.name, s.ok, s.detail) for s in steps][1:] == [
        ("build", False, "AssertionError: build of a minimal valid CONFIG failed: invalid_config: refused")
    ]
    assert out.getvalue() == (
        f"{HELLO_LINE}FAIL build: AssertionError: build of a minimal valid CONFIG failed: "
        f"invalid_config: refused\n{STOPPED}"
    )
    assert main(["smoke", "--candidate", f"cmd:{{python}} {script}", "--startup-grace", "10"]) == (
        exitcodes.CANDIDATE_BROKEN
    )


def test_cli_smoke_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--candidate", faux("garbage_stdout"), "--startup-grace", "10"]) == (
        exitcodes.CANDIDATE_BROKEN
    )
    assert capsys.readouterr().out.startswith("FAIL hello: ProtocolViolation: stdout carried a line")
    assert main(["smoke", "--candidate", "bogus"]) == exitcodes.USAGE
    assert capsys.readouterr().err == (
        "toolproof: --candidate 'bogus': expected 'reference', 'reference-continuation', 'reference-prefix', "
        "'reference-stream', 'reference-responses', "
        "'reference-responses-stream', "
        "'reference-responses-chained', 'reference-responses-chained-stream', 'reference-responses-refs', "
        "'reference-anthropic', 'reference-anthropic-stream', "
        "'py:package.module:factory' or 'cmd:<shell command>'\n"
    )


def test_wellbehaved_fails_only_where_it_ignores_the_model() -> None:
    steps = run_smoke(faux("wellbehaved"), SETTINGS, io.StringIO())
    assert [(s.name, s.ok) for s in steps] == [(name, name != "run") for name in STEPS]
    assert steps[2].detail == (
        "AssertionError: expected ok/'smoke: ok'/completed, got "
        "{'ok': True, 'output': 'faux', 'stop_reason': 'completed'}"
    )


def test_a_line_written_after_the_last_answer_fails_the_end_of_the_session() -> None:
    out = io.StringIO()
    steps = run_smoke(f"{faux('twice')} end", SETTINGS, out)
    assert steps[-1] == Step(
        "end of session",
        False,
        "stdout carried a line nobody asked for, after the last answer, read once stdin was closed:"
        " '{\"ok\": true}' -- protocol v1 answers each request with exactly one line (a duplicated"
        " response, or a stray print?)",
    )
    assert out.getvalue().splitlines()[-1] == f"FAIL end of session: {steps[-1].detail}"
