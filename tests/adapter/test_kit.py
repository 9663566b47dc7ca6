"""The Python adapter kit (toolproof.adapter) through the protocol: smoke against a faux runtime
adapter written on it (cmd: and py:), request validation, stdout discipline, close-all at EOF, and
the exception-chain rules."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolproof import adapter as kit
from toolproof.connect.connectables import ConnectSettings
from toolproof.tools.smoke import run_smoke

HERE = Path(__file__).resolve().parent
FAUX = HERE / "faux_kit_adapter.py"
SETTINGS = ConnectSettings(timeout=20.0, startup_grace=20.0)


def _session(lines: list[bytes]) -> tuple[list[Any], str]:
    """Feed raw request lines to the faux adapter, then EOF: its responses and its stderr."""
    done = subprocess.run(
        [sys.executable, str(FAUX)], input=b"".join(lines), capture_output=True, timeout=30, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr.decode()


def _internal(message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": "internal", "message": message}}


def test_smoke_passes_over_cmd() -> None:
    out = io.StringIO()
    steps = run_smoke(f"cmd:{{python}} {FAUX}", SETTINGS, out)
    assert [(step.name, step.ok) for step in steps] == [
        ("hello", True),
        ("build", True),
        ("run", True),
        ("close", True),
        ("unknown op", True),
        ("unknown id", True),
        ("still alive", True),
    ], out.getvalue()


def test_smoke_passes_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))
    out = io.StringIO()
    steps = run_smoke("py:faux_kit_adapter:factory", SETTINGS, out)
    assert [step.ok for step in steps] == [True] * 7, out.getvalue()


def test_request_validation_answers_internal_and_keeps_serving() -> None:
    config = {"model": {"base_url": "http://127.0.0.1:9/v1", "api_key": "k", "name": "m"}, "instruction": "i"}
    requests = [
        b'{"op":"hello","protocol":2}\n',
        b"not json\n",
        b"[1]\n",
        b"\n",
        b"   \n",
        b'{"op":"nope","id":"a"}\n',
        b'{"op":"run","id":"","input":"x"}\n',
        b'{"op":"run","id":"' + b"x" * 201 + b'","input":"x"}\n',
        b'{"op":"run","id":5,"input":"x"}\n',
        b'{"op":"run","id":"' + b"x" * 200 + b'","input":"x"}\n',
        b'{"op":"close","id":"never-built"}\n',
        b'{"op":"build","id":"b","config":[]}\n',
        b'{"op":"build","id":"b","config":' + json.dumps({**config, "mcp_servers": {}}).encode() + b"}\n",
        b'{"op":"run","id":"b","input":7}\n',
        b'{"op":"run","id":"b","input":"x"}\n',
        b'{"op":"build","id":"d","config":'
        + json.dumps(
            {**config, "mcp_servers": {"s": {"type": "http", "url": "u", "dedup_key": "k"}}}
        ).encode()
        + b"}\n",
        b'{"op":"hello","protocol":1}\n',
    ]
    responses, stderr = _session(requests)
    unknown = "unknown id: " + json.dumps("x" * 200)
    assert responses[:12] == [
        _internal("unsupported protocol: 2"),
        _internal("malformed request: Expecting value: line 1 column 1 (char 0)"),
        _internal("malformed request: not a JSON object"),
        _internal("unknown op: " + json.dumps("nope")),
        _internal("malformed request: id must be a string of 1 to 200 characters"),
        _internal("malformed request: id must be a string of 1 to 200 characters"),
        _internal("malformed request: id must be a string of 1 to 200 characters"),
        _internal(unknown),
        _internal('unknown id: "never-built"'),
        _internal("malformed request: config must be an object"),
        {"ok": True},
        _internal("malformed request: input must be a string"),
    ]
    # Port 9 refuses: the faux runtime's error, mapped by the adapter's rule (its text is the OS's).
    assert (responses[12]["ok"], responses[12]["error"]["kind"]) == (False, "model_error")
    assert responses[13:] == [
        {"ok": False, "error": {"kind": "invalid_config", "message": "no dedup_key here"}},
        kit.hello("faux-kit-runtime", "0.0.1", ["openai.chat"], {}),
    ]
    assert len(responses) == 15
    # The build "b" was still live at EOF: the kit closed it.
    assert stderr.count("faux runtime: agent closed") == 1


def test_a_print_while_the_runtime_is_imported_lands_on_stderr() -> None:
    responses, stderr = _session([b'{"op":"build","id":"a","config":{}}\n'])
    # The runtime is imported by create(): its banner is on stderr; stdout holds one protocol line.
    assert "faux runtime: import banner on stdout" in stderr
    assert responses == [_internal("KeyError: 'mcp_servers'")]


def test_a_line_over_16_mib_is_answered_internal_and_skipped_whole() -> None:
    exact = b'{"op":"hello","protocol":1,"pad":"' + b"x" * (kit.MAX_LINE_BYTES - 36) + b'"}'
    assert len(exact) == kit.MAX_LINE_BYTES
    over = b" " * (kit.MAX_LINE_BYTES + 1) + b'{"op":"nope"}'
    responses, _ = _session([exact + b"\n", over + b"\n", b'{"op":"nope"}\n'])
    assert responses == [
        kit.hello("faux-kit-runtime", "0.0.1", ["openai.chat"], {}),
        _internal("malformed request: line over 16 MiB"),
        _internal('unknown op: "nope"'),
    ]


def test_responses_are_ascii_escaped_and_flushed_lines() -> None:
    out = io.BytesIO()
    kit.write_response(out, {"ok": True, "output": "é\ud800", "stop_reason": "completed"})
    assert out.getvalue() == b'{"ok": true, "output": "\\u00e9\\ud800", "stop_reason": "completed"}\n'


class _Recorder(kit.Adapter):
    """Records releases; create() returns the config's "name"."""

    def __init__(self) -> None:
        super().__init__()
        self.released: list[str] = []

    def describe(self) -> kit.Response:
        return kit.hello("recorder", "1", [])

    async def create(self, id: str, config: dict[str, Any]) -> str:
        return str(config["name"])

    def invoke(self, agent: str, input: str) -> kit.Response:
        return kit.run_ok(f"{agent}:{input}")

    async def release(self, agent: str) -> None:
        self.released.append(agent)


def test_a_build_under_a_live_id_replaces_and_releases_the_old_one() -> None:
    async def session() -> tuple[list[kit.Response], list[str]]:
        adapter = _Recorder()
        answers = [
            await adapter.build("a", {"name": "first"}),
            await adapter.build("a", {"name": "second"}),
            await adapter.run("a", "x"),
            await adapter.close("a"),
            await adapter.close("a"),
        ]
        return answers, adapter.released

    answers, released = asyncio.run(session())
    assert answers == [
        {"ok": True},
        {"ok": True},
        {"ok": True, "output": "second:x", "stop_reason": "completed"},
        {"ok": True},
        _internal('unknown id: "a"'),
    ]
    assert released == ["first", "second"]


class _RuntimeError(Exception):
    pass


def _validate_limits() -> None:
    raise TypeError("limit must be a positive int")


def _raise_from(outer: BaseException, inner: BaseException) -> BaseException:
    try:
        try:
            raise inner
        except BaseException as exc:
            raise outer from exc
    except BaseException as exc:
        return exc


RULES: list[kit.Rule] = [
    (_RuntimeError, "model_error"),
    (lambda e: isinstance(e, TypeError) and kit.raised_in(e, "_validate_limits"), "invalid_config"),
]


def test_classify_walks_causes_groups_and_contexts() -> None:
    wrapped = _raise_from(RuntimeError("wrapper"), _RuntimeError("HTTP 500"))
    assert kit.classify(wrapped, RULES) == {
        "ok": False,
        "error": {"kind": "model_error", "message": "_RuntimeError: HTTP 500"},
    }
    group = ExceptionGroup("task group", [ValueError("other"), _RuntimeError("in a task")])
    assert kit.classify(group, RULES)["error"] == {
        "kind": "model_error",
        "message": "_RuntimeError: in a task",
    }
    try:
        _validate_limits()
    except TypeError as exc:
        limits = exc
    assert kit.classify(limits, RULES)["error"]["kind"] == "invalid_config"
    # A TypeError raised elsewhere is not the validation function's: untyped, internal.
    assert kit.classify(TypeError("limit"), RULES)["error"] == {
        "kind": "internal",
        "message": "TypeError: limit",
    }
    # A Fail anywhere in the chain is the adapter's own choice.
    chosen = _raise_from(RuntimeError("outer"), kit.Fail("tool_error", "MCP connect failed"))
    assert kit.classify(chosen, RULES)["error"] == {"kind": "tool_error", "message": "MCP connect failed"}


def test_classify_skips_a_suppressed_context() -> None:
    try:
        try:
            raise _RuntimeError("handled")
        except _RuntimeError:
            raise KeyError("unrelated") from None
    except KeyError as exc:
        suppressed = exc
    assert kit.classify(suppressed, RULES)["error"] == {
        "kind": "internal",
        "message": "KeyError: 'unrelated'",
    }


def test_hello_is_assembled_in_the_schema_shape() -> None:
    assert kit.hello("rt", "1.0", ["openai.chat"], {"turn_cap_end": "graceful"}, homepage="https://x") == {
        "ok": True,
        "protocol": 1,
        "implementation": {"name": "rt", "version": "1.0", "language": "python", "homepage": "https://x"},
        "capabilities": ["openai.chat"],
        "options": {"turn_cap_end": "graceful"},
    }
    with pytest.raises(ValueError, match="unique"):
        kit.hello("rt", "1.0", ["openai.chat", "openai.chat"])
    with pytest.raises(ValueError, match="not a protocol error kind"):
        kit.Fail("fatal", "no such kind")


def test_the_kit_imports_nothing_but_the_standard_library() -> None:
    # -S: no site-packages at all; the kit loaded by path must still import.
    code = (
        "import importlib.util, sys; s = importlib.util.spec_from_file_location('k', sys.argv[1]); "
        "m = importlib.util.module_from_spec(s); sys.modules['k'] = m; s.loader.exec_module(m); "
        "print(m.PROTOCOL_VERSION)"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, kit.__file__],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stdout == "1\n"


def test_refuse_unclaimed_names_every_unclaimed_key() -> None:
    config = {
        "max_tool_turns": 3,
        "mcp_servers": {"a": {"dedup_key": "k"}, "b": {"dedup_key": "", "dedup_preferred": True}},
    }
    with pytest.raises(kit.Fail) as refused:
        kit.refuse_unclaimed(config, ["openai.chat"], "rt")
    assert (refused.value.kind, refused.value.message) == (
        "invalid_config",
        'server "a": dedup_key is not supported by rt; server "b": dedup_preferred is not supported by rt; '
        "max_tool_turns is not supported by rt",
    )
    kit.refuse_unclaimed(config, ["openai.chat", "toolsets.dedup_key", "loop.turn_cap"])
    kit.refuse_unclaimed({"max_tool_turns": None, "mcp_servers": {"a": {"dedup_key": ""}}}, [])


def test_refuse_unclaimed_names_every_unclaimed_transport() -> None:
    config = {
        "mcp_servers": {
            "h": {"type": "http", "url": "http://127.0.0.1:1/"},
            "s": {"type": "sse", "url": "http://127.0.0.1:1/"},
            "p": {"type": "stdio", "command": "/bin/true"},
        }
    }
    with pytest.raises(kit.Fail) as refused:
        kit.refuse_unclaimed(config, ["openai.chat"], "rt")
    assert (refused.value.kind, refused.value.message) == (
        "invalid_config",
        'server "s": type sse is not supported by rt; server "p": type stdio is not supported by rt',
    )
    kit.refuse_unclaimed(config, ["openai.chat", "mcp.stdio", "mcp.sse"])
