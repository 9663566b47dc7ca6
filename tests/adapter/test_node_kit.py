"""The Node adapter kit (toolproof/adapter_kit.mjs) and the Node template, through the protocol.

A faux runtime (tests/adapter/node/faux-runtime: an ESM-only package, `require` and `main` lead
nowhere) is installed in a scratch directory the adapter names with --runtime-dir; the adapters
load it with the kit's `importFrom`. Everything runs as `node` subprocesses: `toolproof smoke`, raw
JSON Lines sessions, and a resolver probe compared with Node's own `import.meta.resolve`.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

import toolproof
from toolproof.connect.connectables import ConnectSettings
from toolproof.judge.contract_files import contracts_dir
from toolproof.tools.smoke import run_smoke

PACKAGE = Path(toolproof.__file__).resolve().parent
KIT = PACKAGE / "adapter_kit.mjs"
TEMPLATE = PACKAGE / "templates" / "node"
OPTIONS = contracts_dir() / "options.yaml"
FIXTURES = Path(__file__).resolve().parent / "node"
NODE = shutil.which("node")
SETTINGS = ConnectSettings(timeout=20.0, startup_grace=10.0)
SMOKE_STEPS = ["hello", "build", "run", "close", "unknown op", "unknown id", "still alive"]

# The quickstart needs only python3 and PyPI; without node these are skipped, and the skip says why.
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the Node kit's self-tests need it)"
)


@pytest.fixture
def runtime_dir(tmp_path: Path) -> Path:
    """A directory with the faux runtime installed in its node_modules, as `npm install` would."""
    runtime = tmp_path / "runtime"
    shutil.copytree(FIXTURES / "faux-runtime", runtime / "node_modules" / "faux-runtime")
    return runtime


@pytest.fixture
def adapter(tmp_path: Path) -> Path:
    """The faux kit adapter beside a copy of the kit (the layout `toolproof init` writes)."""
    directory = tmp_path / "adapter"
    directory.mkdir()
    shutil.copyfile(KIT, directory / "adapter_kit.mjs")
    shutil.copyfile(FIXTURES / "faux_adapter.mjs", directory / "adapter.mjs")
    return directory / "adapter.mjs"


def session(adapter: Path, runtime: Path, lines: list[bytes]) -> tuple[list[bytes], str, int]:
    """Feed `lines` to a fresh adapter process, then EOF: its stdout lines, stderr and exit code."""
    done = subprocess.run(
        [str(NODE), str(adapter), "--runtime-dir", str(runtime)],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        timeout=20,
        check=False,
    )
    return done.stdout.splitlines(), done.stderr.decode("utf-8", "replace"), done.returncode


def request(**fields: Any) -> bytes:
    return json.dumps(fields).encode("ascii")


def internal(message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": "internal", "message": message}}


OFFLINE = {
    "model": {"base_url": "offline", "api_key": "k", "name": "m"},
    "instruction": "I",
    "mcp_servers": {},
}
BAD_ID = internal("malformed request: id must be a string of 1 to 200 characters")
HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "faux-kit", "version": "1.2.3", "language": "javascript"},
    "capabilities": ["openai.chat"],
    "options": {"runs_per_build": "independent"},
}


def test_kit_adapter_passes_smoke(adapter: Path, runtime_dir: Path) -> None:
    out = io.StringIO()
    steps = run_smoke(f"cmd:node {adapter} --runtime-dir {runtime_dir}", SETTINGS, out)
    assert [(s.name, s.ok) for s in steps] == [(name, True) for name in SMOKE_STEPS], out.getvalue()


def test_requests_are_validated_and_answered_in_order(adapter: Path, runtime_dir: Path) -> None:
    lines = [
        request(op="hello", protocol=1),
        b"",  # blank lines are skipped: no answer
        b" \t\r",
        "\u00a0".encode(),  # not ASCII whitespace: a malformed request, as on the Python side
        b"not json",
        b"\xff\xfe",  # not UTF-8
        b"[1, 2]",
        request(op="hello", protocol=2),
        request(op="hello"),
        request(id="x"),
        request(op="frobnicate", id="x"),
        request(op="build", config=OFFLINE),
        request(op="build", id="", config=OFFLINE),
        request(op="build", id=7, config=OFFLINE),
        request(op="build", id="x" * 201, config=OFFLINE),
        request(op="build", id="x", config=[]),
        request(op="build", id="x" * 200, config=OFFLINE),
        request(op="build", id="😀" * 200, config=OFFLINE),  # 200 code points (400 UTF-16 units)
        request(op="run", id="x" * 200),
        request(op="run", id="x" * 200, input="é😀\ud800\x7f"),
        request(op="run", id="never-built", input="hi"),
        request(op="close", id="never-built"),
        request(op="close", id="😀" * 200),
        request(op="run", id="😀" * 200, input="hi"),
    ]
    stdout, _, code = session(adapter, runtime_dir, lines)
    assert all(max(line) < 0x80 for line in stdout)  # ASCII only: the rest as \u escapes
    assert [json.loads(line) for line in stdout] == [
        HELLO,
        internal("malformed request: Unexpected token '\u00a0', \"\u00a0\" is not valid JSON"),
        internal("malformed request: Unexpected token 'o', \"not json\" is not valid JSON"),
        internal("malformed request: The encoded data was not valid for encoding utf-8"),
        internal("malformed request: not a JSON object"),
        internal("unsupported protocol: 2"),
        internal("unsupported protocol: null"),
        internal("unknown op: null"),
        internal('unknown op: "frobnicate"'),
        BAD_ID,
        BAD_ID,
        BAD_ID,
        BAD_ID,
        internal("malformed request: config must be an object"),
        {"ok": True},
        {"ok": True},
        internal("malformed request: input must be a string"),
        {"ok": True, "output": "I|é😀\ud800\x7f", "stop_reason": "completed"},
        internal('unknown id: "never-built"'),
        internal('unknown id: "never-built"'),
        {"ok": True},
        internal(f"unknown id: {json.dumps('😀' * 200, ensure_ascii=False)}"),
    ]
    # Escaped as Python's json.dumps escapes (DEL too), so both kits write the same characters.
    assert (
        stdout[17]
        == b'{"ok":true,"output":"I|\\u00e9\\ud83d\\ude00\\ud800\\u007f","stop_reason":"completed"}'
    )
    assert code == 0


def test_a_line_over_16_mib_is_answered_and_the_next_one_served(adapter: Path, runtime_dir: Path) -> None:
    limit = 16 * 1024 * 1024
    head = b'{"op":"run","id":"never-built","input":"'
    exactly = head + b"x" * (limit - len(head) - 2) + b'"}'
    assert len(exactly) == limit
    lines = [exactly, b"x" * (limit + 1), request(op="hello", protocol=1)]
    stdout, _, code = session(adapter, runtime_dir, lines)
    assert [json.loads(line) for line in stdout] == [
        internal('unknown id: "never-built"'),
        internal("malformed request: line over 16 MiB"),
        HELLO,
    ]
    assert code == 0


def config(instruction: str, **extra: Any) -> dict[str, Any]:
    return {**OFFLINE, "instruction": instruction, **extra}


def test_errors_map_to_kinds_through_cause_and_aggregate_chains(adapter: Path, runtime_dir: Path) -> None:
    cases = ["throw:cause", "throw:aggregate", "throw:plain", "throw:cycle", "throw:string"]
    lines = [request(op="build", id=case, config=config(case)) for case in cases]
    lines += [
        request(
            op="build",
            id="dedup",
            config=config("I", mcp_servers={"s": {"type": "http", "url": "u", "dedup_key": "k"}}),
        ),
        request(op="build", id="cap", config=config("I", max_tool_turns=3)),
        request(op="build", id="no-cap", config=config("I", max_tool_turns=None)),
    ]
    stdout, _, _ = session(adapter, runtime_dir, lines)
    assert [json.loads(line) for line in stdout] == [
        # by name, two causes down
        {"ok": False, "error": {"kind": "model_error", "message": "FauxModelError: endpoint said 500"}},
        {"ok": False, "error": {"kind": "tool_error", "message": "Error: second"}},  # class, inside .errors
        internal("TypeError: nothing known"),
        internal("Error: a"),  # a cause cycle ends
        {"ok": False, "error": {"kind": "invalid_config", "message": "a bare string"}},  # predicate
        {
            "ok": False,
            "error": {
                "kind": "invalid_config",
                "message": 'server "s": dedup_key is not supported by faux-runtime',
            },
        },
        {
            "ok": False,
            "error": {"kind": "invalid_config", "message": "max_tool_turns is not supported by faux-runtime"},
        },
        {"ok": True},
    ]


def test_stdout_carries_only_protocol_lines_and_eof_closes_every_build(
    adapter: Path, runtime_dir: Path
) -> None:
    lines = [
        request(op="build", id="a", config=config("first")),
        request(op="build", id="a", config=config("second")),  # replaces (and closes) the first
        request(op="run", id="a", input="x"),
        request(op="run", id="a", input="reject in the background"),
        request(op="build", id="b", config=OFFLINE),
        request(op="hello", protocol=1),
    ]
    stdout, stderr, code = session(adapter, runtime_dir, lines)
    assert [json.loads(line) for line in stdout] == [
        {"ok": True},
        {"ok": True},
        {"ok": True, "output": "second|x", "stop_reason": "completed"},
        {"ok": True, "output": "still here", "stop_reason": "completed"},
        {"ok": True},
        HELLO,
    ]
    assert code == 0
    printed = [
        "faux adapter: a console.log before the runtime loads",
        "faux-runtime: loaded (a banner a library prints: it must reach stderr)",
        "faux-runtime: a write to process.stdout",
        "faux-runtime: closed agent 1",  # the replaced build
        "[adapter] unhandled rejection: Error: a background rejection nobody awaits",
        "faux-runtime: closed agent 2",  # EOF: every build closed
        "faux-runtime: closed agent 3",
    ]
    assert [line for line in stderr.splitlines() if line in printed] == printed


# -- the resolver --------------------------------------------------------------------------------

PACKAGES: dict[str, dict[str, Any]] = {
    "esm-only": {
        "type": "module",
        "exports": {".": {"require": "./dist/index.cjs", "import": "./dist/index.mjs"}},
    },
    "string-export": {"exports": "./main.mjs"},
    "top-conditions": {
        "exports": {"node": {"import": "./node.mjs", "require": "./node.cjs"}, "default": "./default.mjs"}
    },
    "subpaths": {
        "exports": {
            ".": "./root.mjs",
            "./sub": {"browser": "./browser.mjs", "default": "./sub.mjs"},
            "./features/*": "./src/features/*.mjs",
            "./features/private/*": None,
            "./array": ["not-relative", "./array.mjs"],
            "./gone": "./gone.mjs",
        }
    },
    "legacy-main": {"main": "lib/entry"},
    "no-main": {},
    "@scope/pkg": {"exports": {".": {"import": "./s.mjs", "default": "./s.cjs"}}},
}
FILES = [
    "esm-only/dist/index.mjs",
    "esm-only/dist/index.cjs",
    "string-export/main.mjs",
    "top-conditions/node.mjs",
    "top-conditions/node.cjs",
    "top-conditions/default.mjs",
    "subpaths/root.mjs",
    "subpaths/sub.mjs",
    "subpaths/browser.mjs",
    "subpaths/src/features/x.mjs",
    "subpaths/src/features/private/y.mjs",
    "subpaths/array.mjs",
    "legacy-main/lib/entry.js",
    "legacy-main/lib/other.js",
    "no-main/index.js",
    "@scope/pkg/s.mjs",
    "@scope/pkg/s.cjs",
]
#: specifier -> the file under node_modules, or the error code
RESOLVED = {
    "esm-only": "esm-only/dist/index.mjs",
    "string-export": "string-export/main.mjs",
    "top-conditions": "top-conditions/node.mjs",
    "subpaths": "subpaths/root.mjs",
    "subpaths/sub": "subpaths/sub.mjs",
    "subpaths/features/x": "subpaths/src/features/x.mjs",
    "subpaths/features/private/y": "ERR_PACKAGE_PATH_NOT_EXPORTED",
    "subpaths/array": "subpaths/array.mjs",
    "subpaths/missing": "ERR_PACKAGE_PATH_NOT_EXPORTED",
    "subpaths/gone": "subpaths/gone.mjs",  # exported, absent: resolved as Node does (import() then fails)
    "legacy-main": "legacy-main/lib/entry.js",
    "legacy-main/lib/other.js": "legacy-main/lib/other.js",
    "no-main": "no-main/index.js",
    "@scope/pkg": "@scope/pkg/s.mjs",
    "not-installed": "ERR_MODULE_NOT_FOUND",
}
PROBE = """
import { fileURLToPath } from 'node:url';
const kit = await import(process.argv[2]);
const [dir, ...specifiers] = process.argv.slice(3);
const attempt = (f) => { try { return f(); } catch (e) { return e.code ?? String(e); } };
const rows = specifiers.map((s) => ({
  specifier: s,
  kit: attempt(() => kit.resolveFrom(dir, s)),
  node: attempt(() => fileURLToPath(import.meta.resolve(s))),
}));
console.error(JSON.stringify(rows));
"""


def _packages(project: Path) -> Path:
    modules = project / "node_modules"
    for name, manifest in PACKAGES.items():
        (modules / name).mkdir(parents=True)
        manifest = {"name": name, "version": "1.0.0", **manifest}
        (modules / name / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name in FILES:
        (modules / name).parent.mkdir(parents=True, exist_ok=True)
        (modules / name).write_text("export default 1;\n", encoding="utf-8")
    return modules


def _resolve(project: Path, dir: Path) -> list[dict[str, str]]:
    (project / "probe.mjs").write_text(PROBE, encoding="utf-8")
    done = subprocess.run(
        [str(NODE), str(project / "probe.mjs"), KIT.as_uri(), str(dir), *RESOLVED],
        capture_output=True,
        text=True,
        timeout=20,
        check=True,
    )
    rows: list[dict[str, str]] = json.loads(done.stderr.splitlines()[-1])
    return rows


def _readable(modules: Path, value: str) -> str:
    return (
        value if value.startswith("ERR_") else Path(value).resolve().relative_to(modules.resolve()).as_posix()
    )


def test_resolve_from_reads_exports_with_the_import_condition_as_node_does(tmp_path: Path) -> None:
    project = tmp_path / "project"
    modules = _packages(project)
    rows = _resolve(project, project)
    assert {row["specifier"]: _readable(modules, row["kit"]) for row in rows} == RESOLVED
    # Node's own resolution from a module in the same directory agrees, file for file and code for code.
    assert {row["specifier"]: _readable(modules, row["node"]) for row in rows} == RESOLVED


@pytest.mark.parametrize("where", ["project/deeper/still", "project/node_modules"])
def test_resolve_from_walks_up_and_takes_a_node_modules_directory_itself(tmp_path: Path, where: str) -> None:
    modules = _packages(tmp_path / "project")
    (tmp_path / where).mkdir(parents=True, exist_ok=True)
    rows = _resolve(tmp_path / "project", tmp_path / where)
    assert {row["specifier"]: _readable(modules, row["kit"]) for row in rows} == RESOLVED


# -- the template --------------------------------------------------------------------------------

MARKED_OPTION = re.compile(r"^  (\w+): (.+), // TODO\(declare\) options\.yaml#(\w+): ", re.MULTILINE)


def _template(tmp_path: Path, fill: bool) -> Path:
    """The template as `toolproof init --lang node` writes it (its files plus the kit), filled or not."""
    directory = tmp_path / "init"
    shutil.copytree(TEMPLATE, directory)
    shutil.copyfile(KIT, directory / "adapter_kit.mjs")
    adapter = directory / "adapter.mjs"
    if fill:
        text = adapter.read_text(encoding="utf-8")
        for placeholder, value in [
            ("TODO-your-runtime-package", "faux-runtime"),
            ("TODO-your-runtime", "faux"),
        ]:
            assert placeholder in text
            text = text.replace(placeholder, value)
        adapter.write_text(text, encoding="utf-8")
    return adapter


def test_template_marks_every_option_of_options_yaml_with_its_default(
    tmp_path: Path, runtime_dir: Path
) -> None:
    text = (TEMPLATE / "adapter.mjs").read_text(encoding="utf-8")
    marked = MARKED_OPTION.findall(text)
    options = yaml.safe_load(OPTIONS.read_text(encoding="utf-8"))["options"]
    assert [(name, link) for name, _, link in marked] == [(name, name) for name in options]
    # Filled, its hello declares exactly the defaults (what it says before the user declares anything).
    stdout, _, _ = session(_template(tmp_path, fill=True), runtime_dir, [request(op="hello", protocol=1)])
    assert json.loads(stdout[0]) == {
        "ok": True,
        "protocol": 1,
        "implementation": {"name": "faux", "version": "1.2.3", "language": "typescript"},
        "capabilities": ["openai.chat"],
        "options": {name: spec["default"] for name, spec in options.items()},
    }


def test_filled_template_passes_smoke(tmp_path: Path, runtime_dir: Path) -> None:
    out = io.StringIO()
    steps = run_smoke(f"cmd:node {_template(tmp_path, fill=True)} --runtime-dir {runtime_dir}", SETTINGS, out)
    assert [(s.name, s.ok) for s in steps] == [(name, True) for name in SMOKE_STEPS], out.getvalue()


def test_unfilled_template_fails_at_start_naming_the_package_to_declare(
    tmp_path: Path, runtime_dir: Path
) -> None:
    stdout, stderr, code = session(
        _template(tmp_path, fill=False), runtime_dir, [request(op="hello", protocol=1)]
    )
    assert (stdout, code) == ([], 1)
    assert f"Cannot find package 'TODO-your-runtime-package' from {runtime_dir}" in stderr


def test_protocol_md_example_on_the_kit_passes_smoke(tmp_path: Path, runtime_dir: Path) -> None:
    # PROTOCOL.md §11.2's minimal adapter, as written, with the faux runtime for `my-runtime`.
    text = (contracts_dir() / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text[text.index("### 11.2 ") : text.index("### 11.3 ")]
    (example,) = re.findall(r"```js\n(.*?)```", section, re.DOTALL)
    directory = tmp_path / "example"
    directory.mkdir()
    shutil.copyfile(KIT, directory / "adapter_kit.mjs")
    (directory / "adapter.mjs").write_text(
        example.replace("'my-runtime'", "'faux-runtime'"), encoding="utf-8"
    )
    out = io.StringIO()
    settings = ConnectSettings(timeout=20.0, startup_grace=10.0, cwd=str(runtime_dir))
    steps = run_smoke(f"cmd:node {directory / 'adapter.mjs'}", settings, out)
    assert [(s.name, s.ok) for s in steps] == [(name, True) for name in SMOKE_STEPS], out.getvalue()
