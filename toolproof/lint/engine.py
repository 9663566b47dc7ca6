"""Parse the linted files once, work out their helpers, and run every rule over each file."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from toolproof.lint.observed import Function, Observed

CHECK_METHODS = frozenset({"expect", "expect_outcome", "not_testable"})
"""The assertion helpers (toolproof.plugin.scenario.Scenario): the only way a test records a verdict."""


@dataclass(frozen=True, order=True)
class Finding:
    """One rule violation at one place."""

    path: str
    line: int
    col: int
    rule: str
    message: str

    def render(self) -> str:
        """`path:line:col: rule: message`, the way compilers and ruff print."""
        return f"{self.path}:{self.line}:{self.col}: {self.rule}: {self.message}"


def is_check_call(node: ast.AST, recording_helpers: frozenset[str] = frozenset()) -> bool:
    """A call recording a verdict: `x.expect(...)`, `expect_outcome`, `not_testable`, or a helper doing so."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in CHECK_METHODS:
        return True
    return isinstance(func, ast.Name) and func.id in recording_helpers


def imported_names(tree: ast.Module) -> frozenset[str]:
    """Names bound by import statements anywhere in the module."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return frozenset(names)


def module_functions(tree: ast.Module) -> dict[str, Function]:
    """Module-level functions by name (the suite's helpers and tests)."""
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


@dataclass
class Module:
    """One parsed file."""

    path: str
    source: str
    tree: ast.Module
    functions: dict[str, Function] = field(default_factory=dict)
    imports: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, path: str, source: str) -> Module:
        """Parse `source`; a syntax error propagates (the lint cannot vouch for a file it cannot read)."""
        tree = ast.parse(source, filename=path)
        return cls(path, source, tree, module_functions(tree), imported_names(tree))


class Project:
    """Every linted file, and what is known across them: observing and check-recording helpers."""

    def __init__(self, modules: Iterable[Module]) -> None:
        self.modules = list(modules)
        self._contexts: dict[str, FileContext] = {}
        #: Project-wide facts a rule computes once (by the rule's own key).
        self.facts: dict[str, frozenset[str]] = {}
        helpers = {name: fn for m in self.modules for name, fn in m.functions.items()}
        self.helpers = helpers
        self.observing = self._fixpoint(
            lambda known, fn, module: Observed(module.imports - set(helpers), known).returns_observed(fn)
        )
        self.recording = self._fixpoint(
            lambda known, fn, module: any(is_check_call(n, known) for n in ast.walk(fn))
        )

    def _fixpoint(self, rule: Callable[[frozenset[str], Function, Module], bool]) -> frozenset[str]:
        known: frozenset[str] = frozenset()
        while True:
            grown = frozenset(
                name
                for module in self.modules
                for name, fn in module.functions.items()
                if not name.startswith("test_") and (name in known or rule(known, fn, module))
            )
            if grown == known:
                return known
            known = grown

    def context_for(self, module: Module) -> FileContext:
        """The (cached) rule context of one of the project's modules."""
        if module.path not in self._contexts:
            self._contexts[module.path] = FileContext(self, module)
        return self._contexts[module.path]

    def observed_for(self, module: Module) -> Observed:
        """The observed-value analysis for one module (its imports that are not suite helpers are modules)."""
        return Observed(module.imports - set(self.helpers), self.observing)


class FileContext:
    """What a rule sees of one file: its tree, parents, helpers, and observed names per function."""

    def __init__(self, project: Project, module: Module) -> None:
        self.project = project
        self.module = module
        self.observed = project.observed_for(module)
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(module.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self._names: dict[ast.AST, frozenset[str]] = {}

    @property
    def recording(self) -> frozenset[str]:
        """Helpers that record checks (directly or through other helpers)."""
        return self.project.recording

    def function_of(self, node: ast.AST) -> Function | None:
        """The innermost function holding `node`."""
        current = self.parents.get(node)
        while current is not None and not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            current = self.parents.get(current)
        return current

    def outermost_function_of(self, node: ast.AST) -> Function | None:
        """The module-level function holding `node` (its closures share names with nested ones)."""
        found = None
        current = self.parents.get(node)
        while current is not None:
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                found = current
            current = self.parents.get(current)
        return found

    def names(self, node: ast.AST) -> frozenset[str]:
        """Observed names visible at `node`."""
        function = self.outermost_function_of(node)
        if function is None:
            return frozenset()
        if function not in self._names:
            self._names[function] = self.observed.names_in(function)
        return self._names[function]

    def is_observed(self, node: ast.AST) -> bool:
        """True when the expression `node` holds an observed value."""
        return self.observed.expr(node, self.names(node))

    def finding(self, node: ast.AST, rule: str, message: str) -> Finding:
        """A finding at `node`."""
        return Finding(
            self.module.path, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1, rule, message
        )

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        """Parents of `node`, innermost first, up to the module."""
        current = self.parents.get(node)
        while current is not None:
            yield current
            current = self.parents.get(current)


Rule = Callable[[FileContext], Iterator[Finding]]


def python_files(paths: Iterable[Path]) -> list[Path]:
    """The .py files named or found (recursively) under `paths`, sorted, caches skipped."""
    found: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found.update(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.suffix == ".py":
            found.add(path)
        else:
            raise FileNotFoundError(f"not a Python file or directory: {path}")
    return sorted(found)


def run_rules(modules: list[Module], rules: dict[str, Rule]) -> list[Finding]:
    """Every finding of every rule over every module, sorted by place."""
    project = Project(modules)
    findings: set[Finding] = set()
    for module in modules:
        context = project.context_for(module)
        for rule in rules.values():
            findings.update(rule(context))
    return sorted(findings)
