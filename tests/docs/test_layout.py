"""HACKING.md's layout table ("The harness, by job") names every module under toolproof/.

Each package has one row; its modules column names each module in backticks (`name`, a folder as
`name/`, a non-Python file by its file name). A folder named so (`_egress_site/`, `templates/`) is
described whole by that row, package or not. A package's `__init__.py` must be named only where it
holds more than its docstring, re-exports and `__all__` (a function, a class, a constant). Nothing else
is skipped: a module without a row fails here, and a new package without a row fails too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "toolproof"
ROW = re.compile(r"^\| (?P<packages>[^|]+) \| [^|]+ \| (?P<modules>.+) \|$")


def layout_rows() -> dict[str, str]:
    """Package dotted name -> its modules cell, from HACKING.md's layout table."""
    text = (ROOT / "HACKING.md").read_text(encoding="utf-8")
    table = text[text.index("### The harness, by job") : text.index("### One test's data")]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        match = ROW.match(line)
        if match is None or match["packages"].strip() in ("package", "---"):
            continue
        package = match["packages"].strip()
        name = "toolproof" if package == "`toolproof` (root)" else package.strip("`")
        assert name not in rows, f"two rows for {name}"
        rows[name] = match["modules"]
    return rows


def _init_holds_code(path: Path) -> bool:
    """More than a docstring, imports and `__all__`: a definition or a constant of its own."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Expr | ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        return True
    return False


def _named_whole(relative: Path, rows: dict[str, str]) -> bool:
    """A folder that its parent package's row names as `folder/`, or inside one."""
    for depth in range(1, len(relative.parts) + 1):
        parent = ".".join(("toolproof", *relative.parts[: depth - 1]))
        if f"`{relative.parts[depth - 1]}/`" in rows.get(parent, ""):
            return True
    return False


def harness_modules() -> dict[str, list[str]]:
    """Package dotted name -> the names its row must show, for every file and folder under toolproof/."""
    rows = layout_rows()
    found: dict[str, list[str]] = {}
    for path in sorted(HARNESS.rglob("*")):
        relative = path.relative_to(HARNESS)
        if "__pycache__" in relative.parts or path.suffix == ".pyc" or _named_whole(relative, rows):
            continue
        if path.is_dir():
            if (path / "__init__.py").is_file():
                found.setdefault(".".join(("toolproof", *relative.parts)), [])
            else:  # a folder that is no package (data, a site dir): its parent package's row names it
                parent = ".".join(("toolproof", *relative.parts[:-1]))
                found.setdefault(parent, []).append(f"{path.name}/")
            continue
        if not (path.parent / "__init__.py").is_file():
            continue  # inside a data folder: the folder's own entry covers it
        package = ".".join(("toolproof", *relative.parts[:-1]))
        if path.name == "__init__.py":
            if _init_holds_code(path):
                found.setdefault(package, []).append("__init__")
            continue
        found.setdefault(package, []).append(path.stem if path.suffix == ".py" else path.name)
    return found


def test_every_package_has_a_row() -> None:
    assert sorted(set(harness_modules()) - set(layout_rows())) == []


def test_every_module_is_named_in_its_packages_row() -> None:
    rows = layout_rows()
    missing = [
        f"{package}: {name}"
        for package, names in harness_modules().items()
        for name in names
        if f"`{name}`" not in rows.get(package, "")
    ]
    assert missing == []
