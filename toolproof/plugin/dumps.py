"""`--toolproof-dump DIR`: the full traffic of every failing test, one JSON file each.

A dump holds the test's failed checks (messages in full), what the fakes
recorded (`toolproof.judge.transcripts.traffic`: model requests and answers,
MCP requests) and, for a `cmd:` candidate, its protocol lines and its stderr.
The protocol lines come from the `--trace-protocol` trace, which writes to
stderr, where pytest captures it per test: the option turns the trace on,
takes the captured lines into the dump and, unless `--trace-protocol` was
given too, keeps them off the console. With `-s` (no capture) the trace is not
turned on and the dump has no protocol lines; an in-process (`py:`) candidate
is called, not traced, and has none either. The stderr is what the candidate
wrote during this test's own requests, as the connection stamped it
(`StdioConnection.scope_stderr`), never another test's: the trace's
`[candidate stderr]` lines, placed only by when pytest captured them, are left
out of the protocol lines.

Dumps are written where the test ran (an xdist worker); the file's path
travels to the controller on the teardown report, into the JSON report's
`dumps` and the summaries.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect.connectables import resolve
from toolproof.judge import transcripts
from toolproof.plugin.session import RECORDER, STATE
from toolproof.report import exitcodes

DUMP_VERSION = 2
DUMP_PROPERTY = "toolproof_dump"
DUMP_ERROR_PROPERTY = "toolproof_dump_error"
# What StdioConnection's trace writes: "> " sent, "< " received, the candidate's stderr.
_TRACE_LINE = re.compile(r"(> |< |\[candidate stderr\] )")
_PROTOCOL_LINE = re.compile(r"(> |< )")
_CAPTURED_STDERR = "Captured stderr "
_NOT_RECORDED = "MCP responses: the fake MCP servers record each request's HTTP status, not its body"


@dataclass
class Dumps:
    """The session's dump settings; also a plugin that collects, on the controller, what was written."""

    directory: Path
    #: pytest captures stderr, so the trace's lines can be taken into the dumps.
    captured: bool
    #: The trace was turned on for the dumps alone: its lines stay off the console.
    hide_trace: bool
    written: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep the dump written for a test (teardown reports carry it, from any worker)."""
        for name, value in report.user_properties:
            if name == DUMP_PROPERTY:
                self.written[report.nodeid] = str(value)
            elif name == DUMP_ERROR_PROPERTY:
                self.errors.append(str(value))


DUMPS = pytest.StashKey[Dumps]()
TRAFFIC = pytest.StashKey[dict[str, Any]]()
"""One test's traffic, snapshotted by the `tp` fixture before the fakes forget it."""
STDERR = pytest.StashKey[str | None]()
"""What the candidate wrote to stderr during the test's own requests (None in-process), snapshotted
by the `tp` fixture."""
STDERR_NOTE = "candidate stderr during this test's requests"


def configure(config: pytest.Config) -> None:
    """Set up --toolproof-dump (turning the protocol trace on where pytest captures it)."""
    directory = config.getoption("toolproof_dump")
    if not directory:
        return
    record = config.getoption("wire_record")
    if record and Path(record).resolve() == Path(directory).resolve():
        # Both name their files after the test: one would overwrite the other.
        pytest.exit(
            "toolproof: --toolproof-dump and --wire-record need different directories",
            returncode=exitcodes.USAGE,
        )
    # Only where pytest keeps captured output to itself: with -s or tee-sys the trace floods the terminal.
    captured = config.getoption("capture", "no") in ("fd", "sys")
    traced = resolve(config.stash[STATE].spec).startswith("cmd:")  # a py: candidate is never traced
    hide_trace = traced and captured and not config.getoption("trace_protocol")
    if hide_trace:
        config.option.trace_protocol = True
    dumps = Dumps(directory=Path(directory), captured=captured, hide_trace=hide_trace)
    config.stash[DUMPS] = dumps
    config.pluginmanager.register(dumps, "toolproof-dumps")


def wanted(config: pytest.Config) -> bool:
    """Whether this run dumps failing tests (the `tp` fixture then snapshots each test's traffic)."""
    return DUMPS in config.stash


def _protocol(config: pytest.Config, dumps: Dumps, sections: list[tuple[str, str]]) -> dict[str, Any]:
    if not resolve(config.stash[STATE].spec).startswith("cmd:"):
        return {"lines": None, "note": "an in-process (py:) candidate is called, not traced: run it as cmd:"}
    if not dumps.captured:
        return {"lines": None, "note": "pytest did not capture stderr for itself (-s, tee-sys): no trace"}
    lines = [
        line
        for title, content in sections
        if title.startswith(_CAPTURED_STDERR)
        for line in content.splitlines()
        if _PROTOCOL_LINE.match(line)
    ]
    return {
        "lines": lines,
        "note": "traced during this test's setup, call and teardown: '>' sent, '<' received (the"
        " candidate's stderr is under candidate_stderr)",
    }


def _stderr(item: pytest.Item) -> dict[str, Any]:
    text = item.stash.get(STDERR, None)
    if text is None:
        note = "an in-process (py:) candidate writes to the harness's own stderr"
        if TRAFFIC not in item.stash:
            note = "the test failed before its tp fixture finished"
        return {"lines": None, "note": note}
    return {"lines": text.splitlines(), "note": STDERR_NOTE}


def _write(item: pytest.Item, dumps: Dumps, report: pytest.TestReport) -> None:
    recorder = item.stash.get(RECORDER, None)
    failed = [r for r in recorder.results if r.status == "fail"] if recorder is not None else []
    if not failed:
        return
    document = {
        "dump_version": DUMP_VERSION,
        "test": item.nodeid,
        "candidate": item.config.stash[STATE].spec,
        "failed_checks": [
            {"check": r.check, "level": r.level, "side": r.side, "message": r.message} for r in failed
        ],
        # None: the test failed before its `tp` fixture finished (nothing was snapshotted).
        "traffic": item.stash.get(TRAFFIC, None),
        "protocol": _protocol(item.config, dumps, report.sections),
        "candidate_stderr": _stderr(item),
        "not_recorded": [_NOT_RECORDED],
    }
    # The node id's path part depends on the rootdir; module stem + test name does not.
    path = transcripts.file_for(dumps.directory, f"{item.path.stem}::{item.name}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document, indent=2, ensure_ascii=False, default=repr) + "\n", "utf-8")
    except OSError as exc:  # a diagnostic aid: reported, never a crash of the run
        report.user_properties.append((DUMP_ERROR_PROPERTY, f"{item.nodeid}: {exc}"))
        return
    report.user_properties.append((DUMP_PROPERTY, str(path)))


def _without_trace(sections: list[tuple[str, str]]) -> list[tuple[str, str]]:
    kept = []
    for title, content in sections:
        if title.startswith(_CAPTURED_STDERR):
            content = "".join(
                line for line in content.splitlines(keepends=True) if not _TRACE_LINE.match(line)
            )
        if content:  # pytest adds no section for empty output either
            kept.append((title, content))
    return kept


def after_report(item: pytest.Item, report: pytest.TestReport) -> None:
    """On each phase's report (the recorder complete): dump a failing test at teardown; hide the trace."""
    dumps = item.config.stash.get(DUMPS, None)
    if dumps is None:
        return
    if report.when == "teardown":
        _write(item, dumps, report)  # the sections hold every phase's captured output by now
    if dumps.hide_trace:
        report.sections = _without_trace(report.sections)
