"""`--toolproof-dump DIR`: one JSON file of traffic per failing test, named by the console and the summary.

Runs small suites with pytester, like test_plugin.py (whose Suite it uses). A dump is compared
whole, after the one normalisation runs need (build tokens and loopback ports, as in golden
transcripts); `transcripts.traffic` is pinned on literal records (MCP traffic, bodies that are
not JSON).
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from test_plugin import SUITE, TEXT_REPLY_FAILURE, Suite, faux

from toolproof.fakes.records import NO_RESPONSE, McpRequest, ModelRequest, StdioProcess
from toolproof.judge.transcripts import normalise, traffic
from toolproof.report import exitcodes

DUMP = "out/dump"
TEXT_REPLY_DUMP = f"{DUMP}/test_small__test_text_reply.json"
URLLIB = f"Python-urllib/{sys.version_info.major}.{sys.version_info.minor}"
CONFIG_LINE = (
    '> {"op":"build","id":"<token-0>","config":{"model":{"base_url":"http://127.0.0.1:<port>/<token-0>/v1",'
    '"api_key":"conformance-key","name":"conformance-model"},"instruction":"You are a conformance test agent.'
    ' Use the tools you are given.","mcp_servers":{}}}'
)
MODEL_BODY = {
    "model": "conformance-model",
    "messages": [
        {"role": "system", "content": "You are a conformance test agent. Use the tools you are given."},
        {"role": "user", "content": "q"},
    ],
}
MODEL_ANSWER = {
    "id": "chatcmpl-<token-0>-0",
    "object": "chat.completion",
    "created": 1767225600,
    "model": "conformance-model",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "  the answer\n"}, "finish_reason": "stop"}
    ],
    "usage": {"prompt_tokens": 32, "completion_tokens": 12, "total_tokens": 44},
}
NOT_RECORDED = ["MCP responses: the fake MCP servers record each request's HTTP status, not its body"]
TRACED = (
    "traced during this test's setup, call and teardown: '>' sent, '<' received (the candidate's stderr"
    " is under candidate_stderr)"
)


def read_dump(path: Path) -> Any:
    """A dump with its build tokens and loopback ports normalised (they differ by construction)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return normalise(document, document["traffic"]["builds"] if document["traffic"] else [])


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    return Suite(pytester)


def test_a_failing_cmd_test_is_dumped_whole_and_named_beside_its_failure(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    spec = faux("strips_output")
    summary = suite.pytester.path / "out" / "summary.md"
    run = suite.run("--candidate", spec, "--toolproof-dump", DUMP, "--summary-md", str(summary))
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    dump_dir = suite.pytester.path / DUMP
    assert sorted(p.name for p in dump_dir.iterdir()) == ["test_small__test_text_reply.json"]
    assert read_dump(dump_dir / "test_small__test_text_reply.json") == {
        "dump_version": 2,
        "test": "test_small.py::test_text_reply",
        "candidate": spec,
        "failed_checks": [
            {
                "check": "loop.completed-output",
                "level": "MUST",
                "side": "candidate",
                "message": TEXT_REPLY_FAILURE,
            }
        ],
        "traffic": {
            "builds": ["<token-0>"],
            "model": [
                {
                    "build": 0,
                    "index": 0,
                    "method": "POST",
                    "path": "/<token-0>/v1/chat/completions",
                    "query": "",
                    "headers": [
                        ["accept-encoding", "identity"],
                        ["content-length", "175"],
                        ["host", "127.0.0.1:<port>"],
                        ["user-agent", URLLIB],
                        ["content-type", "application/json"],
                        ["authorization", "Bearer conformance-key"],
                        ["connection", "close"],
                    ],
                    "body": {"json": MODEL_BODY},
                    "status": 200,
                    "response": MODEL_ANSWER,
                    "note": "",
                }
            ],
            "mcp": [],
        },
        "protocol": {
            "lines": [
                CONFIG_LINE,
                '< {"ok": true}',
                '> {"op":"run","id":"<token-0>","input":"q"}',
                '< {"ok": true, "output": "the answer", "stop_reason": "completed"}',
                '> {"op":"close","id":"<token-0>"}',
                '< {"ok": true}',
            ],
            "note": TRACED,
        },
        "candidate_stderr": {"lines": [], "note": "candidate stderr during this test's requests"},
        "not_recorded": NOT_RECORDED,
    }
    assert run.data["dumps"] == {"test_small.py::test_text_reply": TEXT_REPLY_DUMP}
    assert run.data["verdict_lines"] == [
        "FAIL loop.completed-output [MUST (spec), candidate]: a text reply:",
        '    $.output: expected "  the answer\\n" got "the answer"',
        '    observed: {"ok": true, "stop_reason": "completed", "output": "the answer"}',
        f"    dump: {TEXT_REPLY_DUMP}",
        "toolproof: exit 1: 1 MUST finding (1 failing MUST check) (candidate)",
    ]
    # The trace was turned on for the dump alone: none of its lines reach the console.
    assert [line for line in run.output.splitlines() if line.startswith(("> {", "< {"))] == []
    repro = (
        f"toolproof run --candidate {shlex.quote(spec)} -- --toolproof-checks loop.completed-output"
        " -k test_text_reply"
    )
    assert summary.read_text(encoding="utf-8").splitlines()[14] == (
        "| `loop.completed-output` | `loop.completed-output` | `tp-loop-completed` | MUST (spec) | candidate"
        " | a text reply:"
        '<br>`$.output: expected "  the answer\\n" got "the answer"`'
        '<br>`observed: {"ok": true, "stop_reason": "completed", "output": "the answer"}`'
        f" | `{repro}`<br>dump: [`{TEXT_REPLY_DUMP}`](<{TEXT_REPLY_DUMP}>) |"
    )


WRONG_OUTPUT = r"""
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_wrong(tp):
    tp.script(Text("hello"))
    tp.build(tp.config({}))
    outcome = tp.run("q", judged=True)
    tp.expect_outcome("loop.completed-output", outcome, {"ok": True, "output": "bye"}, what="the reply")
"""


def test_an_in_process_candidate_has_no_protocol_lines_and_the_dump_says_why(suite: Suite) -> None:
    suite.write(test_wrong=WRONG_OUTPUT)
    run = suite.run("--candidate", "reference", "--toolproof-dump", DUMP)
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    document = read_dump(suite.pytester.path / DUMP / "test_wrong__test_wrong.json")
    assert document["protocol"] == {
        "lines": None,
        "note": "an in-process (py:) candidate is called, not traced: run it as cmd:",
    }
    assert document["candidate_stderr"] == {
        "lines": None,
        "note": "an in-process (py:) candidate writes to the harness's own stderr",
    }
    assert document["failed_checks"] == [
        {
            "check": "loop.completed-output",
            "level": "MUST",
            "side": "candidate",
            "message": 'the reply:\n  $.output: expected "bye" got "hello"\n'
            '  observed: {"ok": true, "output": "hello"}',
        }
    ]
    assert [(m["path"], m["status"], m["response"]["choices"]) for m in document["traffic"]["model"]] == [
        (
            "/<token-0>/v1/chat/completions",
            200,
            [{"index": 0, "message": {"role": "assistant", "content": "hello"}, "finish_reason": "stop"}],
        )
    ]


def test_xdist_workers_write_the_dumps_and_the_controller_names_them(suite: Suite) -> None:
    suite.write(test_small=SUITE, test_wrong=WRONG_OUTPUT.replace('"hello"', '"  the answer\\n"'))
    run = suite.run("--candidate", faux("strips_output"), "--toolproof-dump", DUMP, "-n", "2", isolated=True)
    assert run.ret == exitcodes.CHECK_FAILED, run.output
    assert run.data["dumps"] == {
        "test_small.py::test_text_reply": TEXT_REPLY_DUMP,
        "test_wrong.py::test_wrong": f"{DUMP}/test_wrong__test_wrong.json",
    }
    assert sorted(p.name for p in (suite.pytester.path / DUMP).iterdir()) == [
        "test_small__test_text_reply.json",
        "test_wrong__test_wrong.json",
    ]
    document = read_dump(suite.pytester.path / DUMP / "test_wrong__test_wrong.json")
    # The worker's hello is in the dump of whichever test that worker ran first: xdist decides.
    sent = [json.loads(line[2:])["op"] for line in document["protocol"]["lines"] if line.startswith("> ")]
    assert [op for op in sent if op != "hello"] == ["build", "run", "close"]
    assert document["protocol"]["lines"][-1] == '< {"ok": true}'


def test_the_dump_and_golden_transcripts_need_different_directories(suite: Suite) -> None:
    suite.write(test_small=SUITE)
    run = suite.run("--toolproof-dump", "out/x", "--wire-record", "out/./x")
    assert run.ret == exitcodes.USAGE, run.output
    assert run.report is None
    assert run.result.errlines[-1] == (
        "Exit: toolproof: --toolproof-dump and --wire-record need different directories"
    )


def test_traffic_keeps_what_the_fakes_recorded_raw() -> None:
    model = ModelRequest(
        token="tok1",
        index=0,
        method="POST",
        path="/tok1/v1/chat/completions",
        query="",
        headers=(("content-type", "application/json"), ("x-dup", "a"), ("x-dup", "b")),
        body=b'{"model": "m"}',
        json={"model": "m"},
        status=200,
        response={"choices": []},
        note="",
    )
    garbage = dataclasses.replace(model, index=1, body=b"\xffnot json", json=None, status=400, note="refused")
    mcp = McpRequest(
        token="tok2",
        route="alpha",
        index=0,
        method="POST",
        path="/tok2/mcp/alpha",
        query="tenant=x",
        headers=(("accept", "application/json, text/event-stream"),),
        body=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        rpc_method="tools/list",
        rpc_params=None,
        rpc_id=1,
        status=NO_RESPONSE,
    )
    empty = dataclasses.replace(
        mcp, index=1, method="DELETE", body=b"", rpc_method=None, rpc_id=None, status=200
    )
    stdio = dataclasses.replace(
        mcp,
        index=2,
        method="",
        path="",
        headers=(),
        transport="stdio",
        process=StdioProcess(pid=42, argv=("/py", "-m", "x"), cwd="/w d", env=(("A", "1"), ("B", None))),
    )
    assert traffic([model, garbage], [mcp, empty, stdio], ["tok1", "tok2"]) == {
        "builds": ["tok1", "tok2"],
        "model": [
            {
                "build": 0,
                "index": 0,
                "method": "POST",
                "path": "/tok1/v1/chat/completions",
                "query": "",
                "headers": [["content-type", "application/json"], ["x-dup", "a"], ["x-dup", "b"]],
                "body": {"json": {"model": "m"}},
                "status": 200,
                "response": {"choices": []},
                "note": "",
            },
            {
                "build": 0,
                "index": 1,
                "method": "POST",
                "path": "/tok1/v1/chat/completions",
                "query": "",
                "headers": [["content-type", "application/json"], ["x-dup", "a"], ["x-dup", "b"]],
                "body": {"text": "\ufffdnot json"},
                "status": 400,
                "response": {"choices": []},
                "note": "refused",
            },
        ],
        "mcp": [
            {
                "build": 1,
                "route": "alpha",
                "index": 0,
                "method": "POST",
                "path": "/tok2/mcp/alpha",
                "query": "tenant=x",
                "headers": [["accept", "application/json, text/event-stream"]],
                "body": {"json": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}},
                "rpc_method": "tools/list",
                "status": 0,
                "transport": "http",
                "process": None,
            },
            {
                "build": 1,
                "route": "alpha",
                "index": 1,
                "method": "DELETE",
                "path": "/tok2/mcp/alpha",
                "query": "tenant=x",
                "headers": [["accept", "application/json, text/event-stream"]],
                "body": {"text": ""},
                "rpc_method": None,
                "status": 200,
                "transport": "http",
                "process": None,
            },
            {
                "build": 1,
                "route": "alpha",
                "index": 2,
                "method": "",
                "path": "",
                "query": "tenant=x",
                "headers": [],
                "body": {"json": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}},
                "rpc_method": "tools/list",
                "status": 0,
                "transport": "stdio",
                "process": {
                    "pid": 42,
                    "argv": ["/py", "-m", "x"],
                    "cwd": "/w d",
                    "env": {"A": "1", "B": None},
                },
            },
        ],
    }
