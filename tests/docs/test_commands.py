"""Every command README.md and contracts/PROTOCOL.md show runs as shown.

Extracted: every `toolproof ...`, `./toxw ...` and `tox ...` line of a fenced block
(```sh, and the tox ```ini and the CI ```yaml examples; a fence without a language is output, not
commands; `\\` continuations joined, `#` comments
dropped), and every candidate spec in backticks (`py:...`, `cmd:...`). Each is checked for what it
claims:
- `toolproof <sub> ...` parses with the real parser, as `toolproof` itself parses it;
- every `--candidate` spec resolves (`connectables.resolve`); a `py:` spec of ours imports and its
  factory answers hello; a `cmd:` spec of ours passes `toolproof smoke` (the reference over stdio,
  as PROTOCOL.md shows it);
- `-e ENV` names a tox environment of tox.ini; `toolproof matrix --candidate NAME` a bundled runtime.
Placeholders (a runtime that is the reader's, not ours) are listed in ILLUSTRATIVE, each with why.
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import inspect
import io
import itertools
import re
import shlex
import sys
from pathlib import Path

import pytest

from toolproof.connect.connectables import resolve
from toolproof.tools import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "contracts/PROTOCOL.md")
FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
SPEC = re.compile(r"`((?:py|cmd|pipe):[^`]+)`")
LEADS = ("toolproof ", "./toxw ", "tox ")
#: The reader's runtime, not ours: these specs stand for "your adapter" and are checked only to resolve.
ILLUSTRATIVE = {
    "cmd:.venv/bin/python -m my_runtime.toolproof_adapter": "the reader's adapter in the reader's venv",
    "cmd:{work_dir}/py311/bin/python -m my_runtime.toolproof_adapter": "the reader's adapter, from tox",
    "cmd:.venv/bin/python my_adapter/adapter.py": "the skeleton `toolproof init` wrote, in the reader's venv",
    "cmd:./my-adapter": "the reader's adapter executable",
    "cmd:./bin/my-adapter": "the reader's adapter executable",
    "cmd:./bin/my-adapter --quiet": "the reader's adapter executable",
    "cmd:node adapter.js": "the reader's Node adapter",
    "cmd:{python} -m mypkg.toolproof_adapter": "the reader's Python adapter, run by toolproof's interpreter",
    "py:mypkg.toolproof_adapter:make_candidate": "the reader's in-process factory",
    "py:package.module:factory": "the spec's grammar (the --candidate table)",
    "cmd:<shell command>": "the spec's grammar",
    "pipe:package.module:factory": "the spec's grammar",
}
#: Spec forms that are no whole spec: a transport's name alone, in prose.
PREFIXES = {"py:", "cmd:", "pipe:", "cmd:node"}


def doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def commands() -> list[tuple[str, str]]:
    """(doc, command) for every command line of a fenced block."""
    found = []
    for name in DOCS:
        for block in FENCE.finditer(doc(name)):
            if block["lang"] not in ("sh", "ini", "yaml"):
                continue
            text = re.sub(r"\\\n\s*", " ", block["body"])
            for raw in text.splitlines():
                line = re.sub(r"^\s*(?:commands\s*=|- run:|run:)\s*", "", raw).strip()
                if line.startswith(LEADS):
                    found.append((name, line))
    return found


def specs() -> list[tuple[str, str]]:
    """(doc, spec) for every candidate spec the docs show, in backticks or after --candidate."""
    found: set[tuple[str, str]] = set()
    for name in DOCS:
        found |= {(name, spec) for spec in SPEC.findall(doc(name)) if spec not in PREFIXES}
    for name, command in commands():
        words = shlex.split(command, comments=True)
        for flag, value in itertools.pairwise(words):
            if flag != "--candidate":
                continue
            if words[1] == "matrix":  # NAME=SPEC, or NAME alone: a bundled runtime (test_a_matrix_name...)
                if "=" in value:
                    found.add((name, value.split("=", 1)[1]))
            else:
                found.add((name, value))
    return sorted(found)


def matrix_names() -> list[tuple[str, str]]:
    """(doc, NAME) for every `toolproof matrix --candidate NAME` (a bundled runtime's column)."""
    found = []
    for name, command in commands():
        words = shlex.split(command, comments=True)
        if words[:2] == ["toolproof", "matrix"]:
            found += [(name, v) for f, v in itertools.pairwise(words) if f == "--candidate" and "=" not in v]
    return found


def strip_optional(spec: str) -> str:
    """`cmd:... [--profile NAME]` as shown: the spec without its optional part."""
    return re.sub(r"\s*\[[^]]*\]$", "", spec)


def test_the_docs_show_commands() -> None:
    """The extraction sees the docs' commands (a fence renamed away would otherwise pass silently)."""
    shown = [command for _, command in commands()]
    assert "toolproof smoke --candidate 'cmd:./bin/my-adapter' --trace-protocol" in shown
    assert "./toxw -e conformance" in shown
    assert len(shown) >= 12


@pytest.mark.parametrize(("name", "command"), [c for c in commands() if c[1].startswith("toolproof ")])
def test_a_toolproof_command_parses(name: str, command: str) -> None:
    words = shlex.split(command, comments=True)
    parser = cli.build_parser()
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        try:
            args, rest = parser.parse_known_args(words[1:])
        except SystemExit:
            pytest.fail(f"{name}: {command!r} does not parse: {stderr.getvalue()}")
    assert rest == [] or (args.command in ("run", "matrix") and rest[0] == "--"), (name, command, rest)


def tox_envs() -> set[str]:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini", encoding="utf-8")
    listed = config.get("tox", "env_list", fallback="").replace(",", " ").split()
    return {section.removeprefix("testenv:") for section in config.sections()} | set(listed)


@pytest.mark.parametrize(("name", "command"), [c for c in commands() if c[1].startswith(("./toxw ", "tox "))])
def test_a_tox_environment_exists(name: str, command: str) -> None:
    words = shlex.split(command, comments=True)
    envs = words[words.index("-e") + 1].split(",") if "-e" in words else []
    assert sorted(set(envs) - tox_envs()) == [], (name, command)


@pytest.mark.parametrize(("name", "runtime"), matrix_names())
def test_a_matrix_name_is_a_bundled_runtime(name: str, runtime: str) -> None:
    from toolproof.tools.matrix import BUNDLED

    assert runtime in [column.name for column in BUNDLED], (name, runtime)


@pytest.mark.parametrize(("name", "spec"), specs())
def test_a_candidate_spec_resolves(name: str, spec: str) -> None:
    shown = strip_optional(spec)
    if shown in ILLUSTRATIVE:
        assert resolve(shown) == shown
        return
    resolved = resolve(shown)
    if resolved.startswith("py:"):
        module, factory = resolved.removeprefix("py:").split(":")
        __import__(module)
        hello = getattr(sys.modules[module], factory)().hello()
        if inspect.isawaitable(hello):
            hello = asyncio.run(hello)
        assert hello["ok"] is True, (name, spec)
    elif resolved.startswith("cmd:"):
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            status = cli.main(["smoke", "--candidate", shown])
        assert status == 0, (name, spec, stdout.getvalue())
    else:
        pytest.fail(f"{name}: {spec!r} is neither illustrative nor a py:/cmd: spec of ours")
