"""Every file a docstring or comment names exists (toolproof/, conformance/, candidates/,
negative_controls/, tests/; Python sources).

What counts as a file name: a word with a slash or a file extension of ours (`judge/findings.py`,
`contracts/options.yaml`, `reports/`, `CONTRACT.md`). It is looked up relative to the repository
root, `toolproof/` (the harness names its modules so), `contracts/`, and the naming file's folder and
its parents; `toolproof/conformance/...` (the installed layout) is read as `conformance/...`.

What is not checked, on purpose:
- a name after `/` or `:`: a URL's path, or an upstream file written `owner/repo:path`;
- a name next to `<` or `>`: a placeholder such as `<root>/pyproject.toml`;
- a path whose first folder is none of ours (no such folder at any of the places above), and in a
  bundled adapter other than the reference, any path not starting at the repository root: the
  adapters cite their runtime's sources so (`agents/items.py`, `haystack/tools/tool.py`);
- a bare file name in a bundled adapter other than the reference (its runtime's modules);
- ALLOWED: a few names that stand for something else, each with its reason.
A bare file name elsewhere must be a file of the tree (by its name, anywhere).
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("toolproof", "conformance", "candidates", "negative_controls", "tests")
MAPPED = ("conformance", "candidates", "negative_controls", "contracts")
EXTENSIONS = "py|md|yaml|yml|json|jsonl|mjs|js|ts|ini|toml|cfg|txt|sh|html"
NAME = re.compile(
    rf"(?<![\w./:@<>$-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:{EXTENSIONS})|(?:[\w.-]+/)+)(?![\w/<>-])"
)
ALLOWED = {
    ("tests/mutation/test_mutation_report.py", "candidates/reference/a.py"): (
        "a file of the test's scratch tree, named in the command that computed the literal hash"
    ),
    ("toolproof/templates/python/adapter.py", "toolproof_adapter.py"): (
        "the copy of the kit that `toolproof init` writes beside the skeleton, in the user's folder"
    ),
    ("toolproof/tools/init.py", "toolproof_adapter.py"): (
        "the name `toolproof init` gives its copy of the kit, in the user's folder"
    ),
}


def texts(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string statement (docstrings, attribute docstrings) and comment."""
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def walk(top: Path) -> Iterator[Path]:
    """Every file and folder under `top`, without installed packages and caches."""
    for folder, folders, files in os.walk(top):
        folders[:] = [f for f in folders if f not in ("node_modules", "__pycache__", ".tox")]
        for name in (*folders, *files):
            yield Path(folder) / name


def sources() -> list[Path]:
    return sorted(p for top in SCANNED for p in walk(ROOT / top) if p.suffix == ".py")


def bases(path: Path) -> list[Path]:
    """Where a name in `path` may be relative to: the root, toolproof/, contracts/, its folders."""
    places = [ROOT, ROOT / "toolproof", ROOT / "contracts"]
    folder = path.parent
    while folder != ROOT:
        places.append(folder)
        folder = folder.parent
    return places


def upstream_adapter(path: Path) -> bool:
    """A bundled adapter other than the reference: its bare file names are its runtime's modules."""
    parts = path.relative_to(ROOT).parts
    return parts[0] == "candidates" and len(parts) > 2 and parts[1] != "reference"


def stale_names() -> list[str]:
    tree_names = {p.name for top in (*SCANNED, "contracts", "reports", "docs") for p in walk(ROOT / top)}
    tree_names |= {p.name for p in ROOT.iterdir()}
    stale = []
    for path in sources():
        relative = str(path.relative_to(ROOT))
        places = bases(path)
        for line, text in texts(path):
            for match in NAME.finditer(text):
                name = match.group(1)
                if (relative, name) in ALLOWED:
                    continue
                parts = name.rstrip("/").split("/")
                if parts[0] == "toolproof" and len(parts) > 1 and parts[1] in MAPPED:
                    parts = parts[1:]
                wanted = "/".join(parts)
                if len(parts) > 1 or name.endswith("/"):
                    ours = [ROOT] if upstream_adapter(path) else places
                    if not any((place / parts[0]).exists() for place in ours):
                        continue  # no folder of ours: an upstream path, a JSON pointer, an example
                    found = any(
                        (place / wanted).is_dir() if name.endswith("/") else (place / wanted).is_file()
                        for place in places
                    )
                elif upstream_adapter(path):
                    continue
                else:
                    found = any((place / wanted).is_file() for place in places) or wanted in tree_names
                if not found:
                    stale.append(f"{relative}:{line}: {name}")
    return sorted(set(stale))


def test_every_file_a_docstring_or_comment_names_exists() -> None:
    assert stale_names() == []
