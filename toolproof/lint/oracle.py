"""oracle-expression: an expected value is literal, or one expression of the contract's rule.

The seed's `selectScopedOnly` copied the production loop into the test and
computed the "expected" winner with it: a test of the copy. Here an
expected value (the third argument of `.expect`/`.expect_outcome`) may be
built from literals and suite helpers, but every helper it calls must be
one expression: a single `return <expr>` (optionally `x = <expr>; return x`),
after reading declared options, with `if` branches only on declared options
(both written, the documented "declared, not tolerated" form). Loops,
accumulators and several computing statements are a re-implementation.
Helpers that read the fakes' records (views) are not oracles. An expected
value must not be changed after it is built (`expected[k] = ...`,
`expected.append(...)`, `+=`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from toolproof.lint.engine import FileContext, Finding, Module
from toolproof.lint.observed import (
    MUTATORS,
    OBSERVATION_FUNCTIONS,
    OBSERVATION_METHODS,
    RECORD_TYPES,
    Function,
    target_names,
)

DECLARED_READS = frozenset({"option", "declared", "capabilities", "declared_options", "implementation"})


def _expected_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) >= 3:
        return call.args[2]
    for keyword in call.keywords:
        if keyword.arg == "expected":
            return keyword.value
    return None


def _body(function: Function) -> list[ast.stmt]:
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return [s for s in body if not isinstance(s, ast.Pass)]


def _declared_read(node: ast.AST) -> bool:
    """Reads a declared option or capability (and no observation)."""
    reads = False
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and inner.attr in DECLARED_READS:
            reads = True
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Attribute) and func.attr in OBSERVATION_METHODS:
                return False
            if isinstance(func, ast.Name) and func.id in OBSERVATION_FUNCTIONS:
                return False
    return reads


def _one_expression(statements: list[ast.stmt]) -> bool:
    """Let-bindings then `return <expr>`, or declared `if` branches each of that shape.

    Fresh single assignments (`route, _, name = marker.partition("/")`) are
    names for sub-expressions: substituting them gives one expression. A name
    assigned twice, a loop, a `try`, or an `if` on anything but a declared
    option is a computation.
    """
    bound: set[str] = set()
    rest = list(statements)
    while rest and isinstance(rest[0], ast.Assign | ast.AnnAssign) and rest[0].value is not None:
        targets = rest[0].targets if isinstance(rest[0], ast.Assign) else [rest[0].target]
        names = [n for t in targets for n in target_names(t)]
        if any(not isinstance(t, ast.Name | ast.Tuple) for t in targets) or bound & set(names):
            return False
        bound.update(names)
        rest.pop(0)
    if len(rest) == 1 and isinstance(rest[0], ast.Return | ast.Raise):
        return True
    if rest and isinstance(rest[0], ast.If) and _declared_read(rest[0].test):
        branch = rest[0]
        if not _one_expression(branch.body):
            return False
        if branch.orelse:
            return len(rest) == 1 and _one_expression(branch.orelse)
        return _one_expression(rest[1:])
    return False


def _is_view(function: Function) -> bool:
    """A helper reading the fakes' records (a view of observations), not computing an expectation."""
    arguments = function.args
    for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if arg.annotation is not None and any(
            isinstance(n, ast.Name) and n.id in RECORD_TYPES for n in ast.walk(arg.annotation)
        ):
            return True
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in OBSERVATION_METHODS:
                return True
            if isinstance(func, ast.Name) and func.id in OBSERVATION_FUNCTIONS:
                return True
    return False


def _sources(expected: ast.expr, function: Function | None) -> tuple[list[ast.AST], set[str]]:
    """The expressions an expected value is made of (following local names), and those names."""
    sources: list[ast.AST] = [expected]
    names: set[str] = set()
    pending = [n.id for n in ast.walk(expected) if isinstance(n, ast.Name)]
    while pending and function is not None:
        name = pending.pop()
        if name in names:
            continue
        names.add(name)
        for node in ast.walk(function):
            value: ast.AST | None = None
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            ) or (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id == name
            ):
                value = node.value
            elif isinstance(node, ast.For | ast.comprehension) and name in set(target_names(node.target)):
                value = node.iter
            if value is not None:
                sources.append(value)
                pending.extend(n.id for n in ast.walk(value) if isinstance(n, ast.Name))
    return sources, names


def _mutations(function: Function, names: set[str]) -> Iterator[tuple[ast.AST, str]]:
    """Changes to the named values: `x[k] = ...`, `x.attr = ...`, `x += ...`, `x.append(...)`."""
    for node in ast.walk(function):
        if isinstance(node, ast.AugAssign):
            for name in target_names(node.target):
                if name in names:
                    yield node, name
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript | ast.Attribute):
                    for name in target_names(target):
                        if name in names:
                            yield node, name
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names
        ):
            yield node, node.func.value.id


def _selection(context: FileContext, node: ast.AST) -> ast.AST | None:
    """The data-dependent `if`/`while` (not a declared option) deciding whether `node` runs."""
    child = node
    for parent in context.ancestors(node):
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        if isinstance(parent, ast.While):
            return parent
        if (
            isinstance(parent, ast.If | ast.IfExp)
            and child is not parent.test
            and not _declared_read(parent.test)
        ):
            return parent
        child = parent
    return None


def _chosen_by_observation(context: FileContext, node: ast.IfExp) -> bool:
    """`A if <observed> else B` in an expected value; an index guard (`xs[k] if k < len(xs)`) is no choice."""
    lengths = {
        ast.dump(n.args[0])
        for n in ast.walk(node.test)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and n.args
    }
    if lengths and any(
        isinstance(n, ast.Subscript) and ast.dump(n.value) in lengths
        for part in (node.body, node.orelse)
        for n in ast.walk(part)
    ):
        return False
    return context.is_observed(node.test)


def _helper_calls(
    context: FileContext, nodes: list[ast.AST], helpers: dict[str, tuple[Module, Function]]
) -> set[str]:
    """Suite helpers called in `nodes` with no observed argument (those with one are views)."""
    return {
        n.func.id
        for node in nodes
        for n in ast.walk(node)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in helpers
        and not any(context.is_observed(a) for a in [*n.args, *(k.value for k in n.keywords)])
    }


def oracle_expression(context: FileContext) -> Iterator[Finding]:
    """An expected value computed by a multi-statement helper, or selected by data or by an observation."""
    helpers = {
        name: (module, function)
        for module in context.project.modules
        for name, function in module.functions.items()
        if not name.startswith("test_")
    }
    for node in ast.walk(context.module.tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("expect", "expect_outcome")
        ):
            continue
        expected = _expected_argument(node)
        if expected is None:
            continue
        function = context.function_of(node)
        sources, names = _sources(expected, function)
        for source in sources:
            for inner in ast.walk(source):
                if isinstance(inner, ast.IfExp) and _chosen_by_observation(context, inner):
                    yield context.finding(
                        inner, "oracle-expression", "the expected value is chosen by what was observed"
                    )
        if function is not None:
            local = names - {a.arg for a in function.args.args}
            for mutation, name in _mutations(function, local):
                selection = _selection(context, mutation)
                if selection is not None:
                    yield context.finding(
                        mutation,
                        "oracle-expression",
                        f"the expected value `{name}` is assembled under a data-dependent branch "
                        f"(line {getattr(selection, 'lineno', '?')}): a re-implementation, not a rule",
                    )
        yield from _check_helpers(context, sources, helpers, _comparison_form(node, expected))


def _comparison_form(call: ast.Call, expected: ast.expr) -> set[str]:
    """A helper wrapping both the observed and the expected argument is the comparison's form, no oracle.

    `tp.expect(id, json_equal_form(observed), json_equal_form(expected))`: the
    same canonical form on both sides (CONTRACT.md §2 "numbers are compared by
    value"); what it may equate is a contract question, reviewed as such.
    """
    observed = call.args[1] if len(call.args) >= 2 else None
    outer = [
        e.func.id for e in (observed, expected) if isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
    ]
    return {outer[0]} if len(outer) == 2 and outer[0] == outer[1] else set()


def _check_helpers(
    context: FileContext,
    sources: list[ast.AST],
    helpers: dict[str, tuple[Module, Function]],
    exempt: set[str],
) -> Iterator[Finding]:
    seen: set[str] = set(exempt)
    pending = sorted(_helper_calls(context, sources, helpers))
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        module, helper = helpers[name]
        if _is_view(helper):
            continue
        statements = _body(helper)
        if not _one_expression(statements):
            yield Finding(
                module.path,
                helper.lineno,
                helper.col_offset + 1,
                "oracle-expression",
                f"`{name}` computes an expected value in {len(statements)} statements: an oracle is one "
                "expression (let-bindings and declared-option branches aside)",
            )
        inner = context.project.context_for(module)
        pending.extend(sorted(_helper_calls(inner, list(statements), helpers) - seen))
