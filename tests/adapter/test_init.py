"""`toolproof init`: the Python skeleton (on the kit, its copy beside it) answers through the protocol
once its TODO(adapt) parts are filled; every option of options.yaml is a TODO(declare) linking its
entry; existing files are never overwritten without --force."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from toolproof import adapter as kit
from toolproof.connect.connectables import ConnectSettings
from toolproof.judge.contract_files import load_yaml
from toolproof.tools import init
from toolproof.tools.cli import main as cli_main
from toolproof.tools.smoke import run_smoke

FAUX_RUNTIME = Path(__file__).resolve().parent / "faux_kit_runtime.py"

# What a user writes in place of the skeleton's TODO(adapt) bodies: the faux runtime's calls.
FILLED = """
import sys
from typing import Any

import adapter as skeleton


class Filled(skeleton.Adapter):
    def create(self, id: str, config: dict[str, Any]) -> Any:
        import faux_kit_runtime

        return faux_kit_runtime.Agent(config)

    def invoke(self, agent: Any, input: str) -> Any:
        return skeleton.kit.run_ok(agent.ask(input))


sys.exit(skeleton.kit.main(Filled))
"""


def test_init_writes_the_skeleton_and_the_kit_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["init", "--lang", "python", "--output", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    assert sorted(path.name for path in out.iterdir()) == ["adapter.py", "toolproof_adapter.py"]
    assert (out / "toolproof_adapter.py").read_bytes() == Path(kit.__file__).read_bytes()
    printed = capsys.readouterr().out
    spec = f"'cmd:{{python}} {out.resolve() / 'adapter.py'}'"
    for command in ("smoke", "probe", "run"):
        assert f"toolproof {command} --candidate {spec}" in printed


def test_every_option_is_a_declaration_linked_to_its_entry() -> None:
    skeleton = (init.TEMPLATES / "python" / "adapter.py").read_text(encoding="utf-8")
    declared = re.findall(
        r'^    "(\w+)": .*  # TODO\(declare\) contracts/options\.yaml#(\w+): ', skeleton, re.M
    )
    names = list(load_yaml("options.yaml")["options"])
    assert [name for name, _ in declared] == names
    assert all(name == anchor for name, anchor in declared)


def test_the_filled_skeleton_passes_smoke_without_toolproof_installed(tmp_path: Path) -> None:
    init.write("python", tmp_path)
    (tmp_path / "faux_kit_runtime.py").write_bytes(FAUX_RUNTIME.read_bytes())
    (tmp_path / "filled.py").write_text(FILLED, encoding="utf-8")
    out = io.StringIO()
    # -S: no site-packages, so no toolproof: the skeleton falls back to the kit's copy beside it.
    steps = run_smoke(
        f"cmd:{{python}} -S {tmp_path / 'filled.py'}", ConnectSettings(timeout=20.0, startup_grace=20.0), out
    )
    assert [step.ok for step in steps] == [True] * 7, out.getvalue()
    assert "hello" in out.getvalue()


def test_init_refuses_to_overwrite_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "adapter.py").write_text("mine\n", encoding="utf-8")
    assert cli_main(["init", "--lang", "python", "--output", str(tmp_path)]) == 2
    refused = f"init would overwrite {tmp_path / 'adapter.py'}: choose another --output or pass --force"
    assert capsys.readouterr().err == f"toolproof: {refused}\n"
    assert (tmp_path / "adapter.py").read_text(encoding="utf-8") == "mine\n"
    assert not (tmp_path / "toolproof_adapter.py").exists()
    assert cli_main(["init", "--lang", "python", "--output", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "adapter.py").read_bytes() == (init.TEMPLATES / "python" / "adapter.py").read_bytes()


def test_node_init_copies_the_node_template_files(tmp_path: Path) -> None:
    template = init.TEMPLATES / "node"
    if not template.is_dir():
        pytest.skip("the Node template is written on the nodekit branch")
    written = init.write("node", tmp_path)
    expected = sorted(p.relative_to(template) for p in template.rglob("*") if p.is_file())
    assert sorted(p.relative_to(tmp_path) for p in written if p.name != "adapter_kit.mjs") == expected
