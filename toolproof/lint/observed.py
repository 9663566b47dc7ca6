"""Which expressions of suite code hold observed values (the convention in HACKING.md).

An observed value is what the candidate did, as the harness's fakes and the
protocol recorded it:

- the result of a Scenario observation method: `model_requests`,
  `model_bodies`, `mcp_requests`, `tool_calls_received`, `run`, `build`,
  `send_raw`, `process_generation` (on `tp`, a sibling, any receiver that is
  not an imported module);
- the result of a scenario matcher: `tool_texts`, `tool_text`,
  `wire_name_for`, `offered_tools`;
- a parameter annotated with a record type (`Outcome`, `ModelRequest`,
  `McpRequest`, also inside `list[...]`, `Sequence[...]`, ...);
- the result of a suite helper whose return value is observed;
- anything computed from an observed value: an attribute, an item, a call
  taking it, a container holding it, a loop or comprehension variable
  iterating it, a name assigned (or appended, updated) from it.

Attributes the harness itself decided are not observations: a record's
`response`, `note`, `status`, `token` and `index` (what the fake answered
and how it filed the request). Flow-insensitive: a name is observed in the
whole function if any assignment makes it so.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

OBSERVATION_METHODS = frozenset(
    {
        "model_requests",
        "model_bodies",
        "mcp_requests",
        "tool_calls_received",
        "run",
        "build",
        "send_raw",
        "process_generation",
    }
)
OBSERVATION_FUNCTIONS = frozenset({"tool_texts", "tool_text", "wire_name_for", "offered_tools"})
RECORD_TYPES = frozenset({"Outcome", "ModelRequest", "McpRequest"})
HARNESS_OWNED = frozenset({"response", "note", "status", "token", "index"})
MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "__setitem__"})

Function = ast.FunctionDef | ast.AsyncFunctionDef
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def target_names(target: ast.AST) -> Iterator[str]:
    """Names bound by an assignment or loop target (tuples and starred unpacked)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from target_names(element)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)
    elif isinstance(target, ast.Subscript | ast.Attribute):
        # `d[k] = obs`, `found[:] = obs`, `box.x = obs`: the container now holds an observation.
        base: ast.AST = target
        while isinstance(base, ast.Subscript | ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            yield base.id


def _annotation_is_record(annotation: ast.AST | None) -> bool:
    if annotation is None:
        return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id in RECORD_TYPES:
            return True
        if isinstance(node, ast.Attribute) and node.attr in RECORD_TYPES:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation
            words = node.value.replace("[", " ").replace("]", " ").split()
            if RECORD_TYPES & set(words):
                return True
    return False


def own_nodes(function: Function) -> Iterator[ast.AST]:
    """Every node of `function`, nested functions included (their closures share its names)."""
    for statement in function.body:
        yield from ast.walk(statement)


class Observed:
    """Decides which expressions hold observed values, for one module and its helpers."""

    def __init__(self, modules: frozenset[str], observing_helpers: frozenset[str]) -> None:
        #: Names bound by imports: `asyncio.run(...)` is no observation.
        self.modules = modules
        #: Suite helpers (by name) whose return value is observed.
        self.observing_helpers = observing_helpers

    def expr(self, node: ast.AST, names: frozenset[str] | set[str]) -> bool:
        """True when `node` evaluates to (or is computed from) an observed value."""
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Call):
            return self._call(node, names)
        if isinstance(node, ast.Attribute):
            return node.attr not in HARNESS_OWNED and self.expr(node.value, names)
        if isinstance(node, ast.Subscript):
            return self.expr(node.value, names)
        if isinstance(node, ast.Lambda):
            return False
        if isinstance(node, _COMPREHENSIONS):
            return self._comprehension(node, names)
        return any(
            self.expr(child, names) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
        )

    def _call(self, node: ast.Call, names: frozenset[str] | set[str]) -> bool:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in OBSERVATION_METHODS
            and not (isinstance(func.value, ast.Name) and func.value.id in self.modules)
        ):
            return True
        if isinstance(func, ast.Name) and (
            func.id in OBSERVATION_FUNCTIONS or func.id in self.observing_helpers
        ):
            return True
        if isinstance(func, ast.Attribute) and self.expr(func.value, names):
            return True
        return any(self.expr(a, names) for a in node.args) or any(
            self.expr(k.value, names) for k in node.keywords
        )

    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        names: frozenset[str] | set[str],
    ) -> bool:
        for generator in node.generators:
            if self.expr(generator.iter, names) or any(self.expr(i, names) for i in generator.ifs):
                return True  # which items, and how many, is itself an observation
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return any(self.expr(part, names) for part in parts)

    def names_in(self, function: Function) -> frozenset[str]:
        """The names of `function` that hold observed values (fixpoint over its assignments)."""
        names: set[str] = set()
        arguments = function.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if _annotation_is_record(arg.annotation):
                names.add(arg.arg)
        while True:
            before = len(names)
            for node in own_nodes(function):
                self._bind(node, names)
            if len(names) == before:
                return frozenset(names)

    def _bind(self, node: ast.AST, names: set[str]) -> None:
        if isinstance(node, ast.Assign) and self.expr(node.value, names):
            for target in node.targets:
                names.update(target_names(target))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr) and node.value is not None:
            if self.expr(node.value, names):
                names.update(target_names(node.target))
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and self.expr(node.iter, names):
            names.update(_iterated_names(node.target, node.iter))
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None and self.expr(item.context_expr, names):
                    names.update(target_names(item.optional_vars))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and any(self.expr(a, names) for a in [*node.args, *(k.value for k in node.keywords)])
        ):
            names.update(target_names(node.func.value))

    def returns_observed(self, function: Function) -> bool:
        """True when some `return` of `function` (not of a nested one) gives an observed value."""
        names = self.names_in(function)
        return any(r.value is not None and self.expr(r.value, names) for r in _own_returns(function))


def _iterated_names(target: ast.AST, iterated: ast.AST) -> Iterator[str]:
    """Names a loop over an observed iterable binds to observations: positions are indices, not data."""
    func = iterated.func if isinstance(iterated, ast.Call) else None
    if isinstance(func, ast.Name) and func.id == "range":
        return  # `for i in range(len(observed))`: i is a position (the loop itself stays observed)
    if (
        isinstance(func, ast.Name)
        and func.id == "enumerate"
        and isinstance(target, ast.Tuple)
        and target.elts
    ):
        for element in target.elts[1:]:
            yield from target_names(element)
        return
    yield from target_names(target)


def _own_returns(function: Function) -> Iterator[ast.Return]:
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        stack.extend(ast.iter_child_nodes(node))
