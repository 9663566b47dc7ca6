"""toolproof.connect.connectables: the --candidate mini-language and the candidate's environment."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import toolproof.candidates.reference.adapter

from toolproof.connect.connectables import (
    BUNDLED,
    REFERENCE_PROFILES,
    ConnectSettings,
    connect,
    resolve,
    scrubbed_env,
    scrubbed_keys,
)
from toolproof.connect.inprocess import InProcessConnection
from toolproof.connect.stdio import StdioConnection
from toolproof.controls.control import PROFILES as CONTROL_PROFILES
from toolproof.errors import UsageError

BAD_SPEC = (
    "expected 'reference', 'reference-continuation', 'reference-prefix', 'reference-stream', "
    "'reference-responses', 'reference-responses-stream', "
    "'reference-responses-chained', 'reference-responses-chained-stream', 'reference-responses-refs', "
    "'reference-anthropic', "
    "'reference-anthropic-stream', 'py:package.module:factory' or 'cmd:<shell command>'"
)


@pytest.mark.parametrize(
    ("spec", "resolved"),
    [
        ("reference", "py:toolproof.candidates.reference.adapter:reference"),
        ("reference-continuation", "py:toolproof.candidates.reference.adapter:reference_continuation"),
        ("reference-prefix", "py:toolproof.candidates.reference.adapter:reference_prefix"),
        ("reference-stream", "py:toolproof.candidates.reference.adapter:reference_stream"),
        ("reference-responses", "py:toolproof.candidates.reference.adapter:reference_responses"),
        ("reference-anthropic", "py:toolproof.candidates.reference.adapter:reference_anthropic"),
        ("py:mypkg.adapter:make", "py:mypkg.adapter:make"),
        ("cmd:./bin/adapter --quiet", "cmd:./bin/adapter --quiet"),
        ("cmd:{python} -m x", "cmd:{python} -m x"),
    ],
)
def test_resolve(spec: str, resolved: str) -> None:
    assert resolve(spec) == resolved


@pytest.mark.parametrize(
    "spec", ["", "bogus", "Reference", "py:", "cmd:", "python:x", "./adapter", " reference"]
)
def test_resolve_rejects(spec: str) -> None:
    with pytest.raises(UsageError) as caught:
        resolve(spec)
    assert str(caught.value) == f"--candidate {spec!r}: {BAD_SPEC}"
    assert caught.value.side == "environment"


def test_bundled_names() -> None:
    assert sorted(BUNDLED) == [
        "reference",
        "reference-anthropic",
        "reference-anthropic-stream",
        "reference-continuation",
        "reference-prefix",
        "reference-responses",
        "reference-responses-chained",
        "reference-responses-chained-stream",
        "reference-responses-refs",
        "reference-responses-stream",
        "reference-stream",
    ]


def test_the_harness_names_exactly_the_profiles_the_reference_defines() -> None:
    """The harness keeps one list of the reference's profiles (it never imports the candidate);
    this test-only import pins it to the reference's own, in the reference's order."""
    from toolproof.candidates.reference.profiles import PROFILES as REFERENCE_OWN

    assert tuple(REFERENCE_OWN) == REFERENCE_PROFILES
    assert list(CONTROL_PROFILES) == list(REFERENCE_PROFILES)
    for profile in REFERENCE_PROFILES:
        module, factory = BUNDLED[profile].removeprefix("py:").split(":")
        assert module == "toolproof.candidates.reference.adapter"
        built = getattr(toolproof.candidates.reference.adapter, factory)()
        assert built.profile.name == profile
        assert CONTROL_PROFILES[profile] == f"py:candidates.reference.adapter:{factory}"


def test_scrubbed_env_removes_provider_settings_and_never_proxies_loopback() -> None:
    base = {
        "OPENAI_API_KEY": "sk-leak",
        "OPENAI_BASE_URL": "https://api.openai.com/v1",
        "HTTPS_PROXY": "http://proxy:3128",
        "HTTP_PROXY": "http://proxy:3128",
        "https_proxy": "http://proxy:3128",
        "ALL_PROXY": "socks5://proxy",
        "ANTHROPIC_API_KEY": "a",
        "AWS_SECRET_ACCESS_KEY": "s",
        "HF_TOKEN": "h",
        "NO_PROXY": "example.org",
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "MY_OPENAI_API_KEY": "kept: not a provider variable",
        "OPENAIX": "kept: no underscore",
    }
    assert scrubbed_env(base) == {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "MY_OPENAI_API_KEY": "kept: not a provider variable",
        "OPENAIX": "kept: no underscore",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    assert scrubbed_keys(base) == [
        "ALL_PROXY",
        "ANTHROPIC_API_KEY",
        "AWS_SECRET_ACCESS_KEY",
        "HF_TOKEN",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "https_proxy",
    ]


def test_extra_env_is_applied_last() -> None:
    env = scrubbed_env({"PATH": "/bin"}, (("ADAPTER_MODE", "strict"), ("NO_PROXY", "*")))
    assert env == {
        "PATH": "/bin",
        "NO_PROXY": "*",
        "no_proxy": "127.0.0.1,localhost",
        "ADAPTER_MODE": "strict",
    }


def test_py_spec_connects_in_process() -> None:
    connection = connect("reference", ConnectSettings())
    try:
        assert isinstance(connection, InProcessConnection)
        assert connection.origin == toolproof.candidates.reference.adapter.__file__
    finally:
        connection.close()


def test_cmd_spec_substitutes_python_and_scrubs_the_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-leak")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy:3128")
    monkeypatch.setenv("NO_PROXY", "example.org")
    script = tmp_path / "show_env.py"
    names = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTPS_PROXY", "NO_PROXY", "no_proxy", "ADAPTER_MODE"]
    script.write_text(
        "import json, os, sys\n"
        "sys.stdin.readline()\n"
        f"print(json.dumps({{'env': {{k: os.environ.get(k) for k in {names!r}}}, 'cwd': os.getcwd(),"
        " 'python': sys.executable}), flush=True)\n"
    )
    settings = ConnectSettings(cwd=str(tmp_path), env=(("ADAPTER_MODE", "strict"),), startup_grace=10.0)
    connection = connect(f"cmd:{{python}} {script.name}", settings)
    try:
        assert isinstance(connection, StdioConnection)
        assert connection.command == f"{shlex.quote(sys.executable)} {script.name}"
        assert connection.origin == connection.command
        response, line = connection.request({"op": "hello", "protocol": 1}, 10.0)
    finally:
        connection.close()
    assert response == {
        "env": {
            "OPENAI_API_KEY": None,
            "OPENAI_BASE_URL": None,
            "HTTPS_PROXY": None,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "ADAPTER_MODE": "strict",
        },
        "cwd": str(tmp_path),
        "python": sys.executable,
    }
    assert json.loads(line) == response
