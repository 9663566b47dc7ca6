"""Which suite tests read which declared option: a static scan of the suite (`toolproof probe`).

A test reads an option when its body, or a helper it calls (in its module, in a sibling module it
imports from, or a matcher of `toolproof.plugin.scenario`), calls `<x>.option("name")` with a
literal name. A helper that reads `tp.option(param)` for one of its own parameters reads the
literal each caller passes for that parameter. The scan never imports the suite: it reads the
source files, so it sees exactly the tests `toolproof run` would collect.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from toolproof.invocation import suite_dir

SCENARIO_MODULE = Path(__file__).resolve().parent.parent / "plugin" / "scenario.py"
"""The test-facing matchers (`tool_text`, `tool_texts`, ...) read options too."""


@dataclass(frozen=True)
class SuiteTest:
    """One test function of the suite and what it depends on."""

    module: str  # file name, e.g. "test_loop.py"
    name: str  # function name
    capabilities: frozenset[str]  # its @pytest.mark.capability markers
    options: frozenset[str]  # the options it reads, through its helpers too
    drawn: bool = False  # a Hypothesis test (@given, or run_drawn inside): many builds per run

    @property
    def key(self) -> str:
        """`<file>::<function>`: how the probe plan names the test."""
        return f"{self.module}::{self.name}"


@dataclass
class _Function:
    module: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    params: list[str]
    literal_reads: set[str] = field(default_factory=set)
    param_reads: set[str] = field(default_factory=set)  # parameters read as an option name
    calls: list[ast.Call] = field(default_factory=list)


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _scan_function(module: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> _Function:
    args = node.args
    params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    found = _Function(module=module, node=node, params=params)
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        found.calls.append(sub)
        func = sub.func
        if isinstance(func, ast.Attribute) and func.attr == "option" and len(sub.args) == 1:
            name = _literal(sub.args[0])
            if name is not None:
                found.literal_reads.add(name)
            elif isinstance(sub.args[0], ast.Name) and sub.args[0].id in params:
                found.param_reads.add(sub.args[0].id)
    return found


def _called_name(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None


def _argument_for(call: ast.Call, function: _Function, param: str) -> str | None:
    """The literal `call` passes for `function`'s parameter `param` (None when none is literal)."""
    for keyword in call.keywords:
        if keyword.arg == param:
            return _literal(keyword.value)
    index = function.params.index(param)
    return _literal(call.args[index]) if index < len(call.args) else None


def _capabilities(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    found = set()
    for decorator in node.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "capability"
        ):
            name = _literal(decorator.args[0]) if decorator.args else None
            if name is not None:
                found.add(name)
    return frozenset(found)


def _drawn(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id in ("given", "run_drawn")
        ):
            return True
    return False


def _module_functions(path: Path) -> dict[str, _Function]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {
        node.name: _scan_function(path.name, node)
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }


def _imports(path: Path, known: Iterable[str]) -> dict[str, str]:
    """Names `path` imports from a scanned module -> that module's file name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    files = set(known)
    out: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        source = node.module.rsplit(".", 1)[-1] + ".py"
        if source not in files:
            continue
        for alias in node.names:
            out[alias.asname or alias.name] = source
    return out


def scan(directory: Path | None = None) -> list[SuiteTest]:
    """Every test function of the suite's `test_*.py` files, with the options it reads."""
    root = directory if directory is not None else suite_dir()
    paths = sorted(root.glob("*.py"))
    modules = {path.name: _module_functions(path) for path in paths}
    modules[SCENARIO_MODULE.name] = _module_functions(SCENARIO_MODULE)
    imports = {path.name: _imports(path, modules) for path in paths}
    imports[SCENARIO_MODULE.name] = {}

    def resolve(module: str, name: str) -> _Function | None:
        if name in modules[module]:
            return modules[module][name]
        source = imports[module].get(name)
        return modules[source].get(name) if source is not None else None

    memo: dict[tuple[str, str], frozenset[str]] = {}

    def reads(function: _Function, seen: frozenset[tuple[str, str]]) -> frozenset[str]:
        key = (function.module, function.node.name)
        if key in memo:
            return memo[key]
        if key in seen:
            return frozenset()
        found = set(function.literal_reads)
        for call in function.calls:
            name = _called_name(call)
            callee = resolve(function.module, name) if name is not None else None
            if callee is None:
                continue
            found |= reads(callee, seen | {key})
            for param in callee.param_reads:
                literal = _argument_for(call, callee, param)
                if literal is not None:
                    found.add(literal)
        memo[key] = frozenset(found)
        return memo[key]

    tests = []
    for path in paths:
        if not path.name.startswith("test_"):
            continue
        for name, function in modules[path.name].items():
            if name.startswith("test_"):
                tests.append(
                    SuiteTest(
                        module=path.name,
                        name=name,
                        capabilities=_capabilities(function.node),
                        options=reads(function, frozenset()),
                        drawn=_drawn(function.node),
                    )
                )
    return tests
