"""The rules over suite code: tolerant comparisons, verdicts outside tp.expect*, candidate imports.

Each rule is `FileContext -> findings`, registered in RULES under its name.
The rules about tolerance apply to observed values only (toolproof.lint.
observed): branching on a declared option or a test parameter is fine.
There is no suppression comment: a rule that flags legitimate code is
refined here, never silenced in the test.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator

from toolproof.lint.engine import FileContext, Finding, Rule, is_check_call
from toolproof.lint.oracle import oracle_expression

NORMALISERS = frozenset(
    {
        "lower",
        "upper",
        "casefold",
        "strip",
        "lstrip",
        "rstrip",
        "title",
        "capitalize",
        "swapcase",
        "replace",
        "translate",
        "expandtabs",
        "removeprefix",
        "removesuffix",
    }
)
NORMALISING_FUNCTIONS = frozenset(
    {"sub", "subn", "normalize", "dedent", "casefold", "lower", "upper", "strip"}
)
COERCIONS = frozenset({"str", "int", "float", "Decimal"})
BROAD_EXCEPTIONS = frozenset(
    {"Exception", "BaseException", "AssertionError", "CheckFailed", "Failed", "OutcomeException"}
)
CHECK_ID = re.compile(r"^[a-z0-9_-]+\.[a-z0-9_.-]+$")


def _walk(context: FileContext) -> Iterator[ast.AST]:
    return ast.walk(context.module.tree)


def _literal_alternatives(context: FileContext, node: ast.AST) -> ast.AST | None:
    """A literal collection of 2+ alternatives (inline, via set()/tuple()/..., or a module constant)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and len(node.args) == 1
        and node.func.id in ("set", "frozenset", "tuple", "list")
    ):
        node = node.args[0]
    if isinstance(node, ast.Name):
        for statement in context.module.tree.body:
            if isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in statement.targets
            ):
                return _literal_alternatives(context, statement.value)
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.target.id == node.id
                and statement.value is not None
            ):
                return _literal_alternatives(context, statement.value)
        return None
    if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) >= 2:
        return node
    return None


def tolerant_membership(context: FileContext) -> Iterator[Finding]:
    """`observed in (A, B)`: any of several values passes. Pin exactly one (branch on a declared option)."""
    for node in _walk(context):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            left, right = operands[index], operands[index + 1]
            if not isinstance(op, ast.In | ast.NotIn) or not context.is_observed(left):
                continue
            if _literal_alternatives(context, right) is not None:
                yield context.finding(
                    node, "tolerant-membership", "an observed value is accepted as any of several values"
                )
            elif isinstance(right, ast.Constant) and isinstance(right.value, str):
                yield context.finding(
                    node,
                    "tolerant-membership",
                    "an observed value is accepted as any substring of a literal",
                )


def _compare_keys(node: ast.Compare, wanted: tuple[type[ast.cmpop], ...]) -> list[str]:
    if len(node.ops) != 1 or not isinstance(node.ops[0], wanted):
        return []
    return [ast.dump(node.left), ast.dump(node.comparators[0])]


def tolerant_alternatives(context: FileContext) -> Iterator[Finding]:
    """`x != A and x != B` / `x == A or x == B` on one observed x: the seed's `!= "OBJECT" && != "object"`."""
    for node in _walk(context):
        if not isinstance(node, ast.BoolOp):
            continue
        wanted: tuple[type[ast.cmpop], ...] = (
            (ast.NotEq, ast.IsNot) if isinstance(node.op, ast.And) else (ast.Eq, ast.Is)
        )
        counts: dict[str, list[ast.expr]] = defaultdict(list)
        for value in node.values:
            if isinstance(value, ast.Compare):
                operands = [value.left, value.comparators[0]]
                for key, operand in zip(_compare_keys(value, wanted), operands, strict=False):
                    counts[key].append(operand)
        if any(len(found) >= 2 and context.is_observed(found[0]) for found in counts.values()):
            joined = "and" if isinstance(node.op, ast.And) else "or"
            yield context.finding(
                node,
                "tolerant-alternatives",
                f"one observed value compared with several alternatives joined by `{joined}`",
            )


def _iterates_headers(node: ast.AST) -> bool:
    """`x.headers`, `x.headers.items()`, `x.headers.keys()` (possibly inside parentheses or `or ()`)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("items", "keys")
    ):
        node = node.func.value
    if isinstance(node, ast.BoolOp):
        return any(_iterates_headers(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _iterates_headers(node.body) or _iterates_headers(node.orelse)
    return isinstance(node, ast.Attribute) and node.attr == "headers"


def _header_names(context: FileContext) -> set[str]:
    """Names bound to HTTP header names (`for name, value in r.headers`): RFC 9110 makes their case moot."""
    names = set()
    for node in _walk(context):
        if not isinstance(node, ast.For | ast.comprehension) or not _iterates_headers(node.iter):
            continue
        target = node.target
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            names.add(target.elts[0].id)
        elif isinstance(target, ast.Name) and isinstance(node.iter, ast.Attribute):
            continue  # `for pair in r.headers`: pairs, not names
        elif isinstance(target, ast.Name):
            names.add(target.id)  # `for name in x.headers.keys()`
    return names


def _normalises(node: ast.AST, inputs: set[str], header_names: set[str], known: frozenset[str]) -> bool:
    """`node` normalises a value computed from `inputs` (a method, a function, or a known helper)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func

    def uses_inputs(expr: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id in inputs for n in ast.walk(expr))

    if isinstance(func, ast.Attribute) and uses_inputs(func.value):
        if isinstance(func.value, ast.Name) and func.value.id in header_names:
            return False
        return func.attr in NORMALISERS or (func.attr == "split" and not node.args and not node.keywords)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    arguments = [*node.args, *(k.value for k in node.keywords)]
    return (name in NORMALISING_FUNCTIONS or name in known) and any(uses_inputs(a) for a in arguments)


def _normalising_helpers(context: FileContext) -> frozenset[str]:
    """Suite helpers that normalise (a value computed from) one of their parameters."""
    project = context.project
    if "normalising-helpers" not in project.facts:
        known: frozenset[str] = frozenset()
        while True:
            found = set(known)
            for module in project.modules:
                headers = _header_names(project.context_for(module))
                for name, function in module.functions.items():
                    arguments = function.args
                    params = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
                    if not name.startswith("test_") and any(
                        _normalises(n, params, headers, known) for n in ast.walk(function)
                    ):
                        found.add(name)
            if found == known:
                break
            known = frozenset(found)
        project.facts["normalising-helpers"] = known
    return project.facts["normalising-helpers"]


def normalised_observation(context: FileContext) -> Iterator[Finding]:
    """`.lower()`, `.strip()`, `re.sub`, ... on observed data: normalising hides the very difference."""
    header_names = _header_names(context)
    for node in _walk(context):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and context.is_observed(func.value):
            whitespace_split = func.attr == "split" and not node.args and not node.keywords
            if func.attr in NORMALISERS or whitespace_split:
                if isinstance(func.value, ast.Name) and func.value.id in header_names:
                    continue  # HTTP field names are case-insensitive by definition
                yield context.finding(
                    node, "normalised-observation", f"`.{func.attr}()` normalises an observed value"
                )
                continue
        if isinstance(func, ast.Attribute) and context.is_observed(func.value):
            continue  # a method of the observed value itself: judged above
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if name in NORMALISING_FUNCTIONS and any(context.is_observed(a) for a in arguments):
            # re.sub(..., observed), str.lower(observed), unicodedata.normalize(..., observed), dedent(...)
            yield context.finding(
                node, "normalised-observation", f"`{name}(...)` normalises an observed value"
            )
        elif name in _normalising_helpers(context) and any(context.is_observed(a) for a in arguments):
            yield context.finding(
                node, "normalised-observation", f"`{name}(...)` normalises the observed value it is given"
            )
    yield from coerced_comparison(context)


def coerced_comparison(context: FileContext) -> Iterator[Finding]:
    """`str(observed) == "1"`: a coercion inside a comparison makes 1, "1" and 1.0 equal."""
    for node in _walk(context):
        if not isinstance(node, ast.Compare) or any(isinstance(o, ast.In | ast.NotIn) for o in node.ops):
            continue  # `tag in str(x)` searches; equality and ordering are where coercion forgives
        for operand in [node.left, *node.comparators]:
            if (
                isinstance(operand, ast.Call)
                and isinstance(operand.func, ast.Name)
                and operand.func.id in COERCIONS
                and any(context.is_observed(a) for a in operand.args)
            ):
                yield context.finding(
                    node,
                    "normalised-observation",
                    f"`{operand.func.id}()` coerces an observed value before comparing",
                )


def _len_of(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args:
        return node.args[0]
    return None


def _control_parent(context: FileContext, node: ast.AST) -> tuple[ast.AST | None, ast.AST]:
    """The construct whose test `node` is part of (through `and`/`or`/`not`), and the test itself."""
    child, parent = node, context.parents.get(node)
    while isinstance(parent, ast.BoolOp) or (
        isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
    ):
        child, parent = parent, context.parents.get(parent)
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is child:
        return parent, child
    if isinstance(parent, ast.comprehension) and child in parent.ifs:
        return parent, child
    return None, child


_SELECTING = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)


def _selects_no_value(statements: list[ast.stmt]) -> bool:
    """An `if` body that only collects (append ...), exits, or records checks: it picks no value."""
    return not any(isinstance(n, _SELECTING) for statement in statements for n in ast.walk(statement))


def _ordering_allowed(context: FileContext, node: ast.AST) -> bool:
    """Where an ordering on observations only steers, never decides a verdict or picks a value.

    Allowed: the filter of a comprehension (what counts as a violation, pinned
    as a list), the test of an `if` whose branches assign nothing (collect a
    violation, leave with a `<...>` note; checks under it are guarded-check's
    business), and `k < len(xs)` guarding `xs[k]` in a conditional expression.
    """
    construct, _test = _control_parent(context, node)
    if isinstance(construct, ast.comprehension):
        return True
    if isinstance(construct, ast.If):
        return _selects_no_value(construct.body) and _selects_no_value(construct.orelse)
    if isinstance(construct, ast.IfExp) and isinstance(node, ast.Compare):
        lengths = [ast.dump(s) for s in map(_len_of, [node.left, *node.comparators]) if s is not None]
        return any(
            isinstance(n, ast.Subscript) and ast.dump(n.value) in lengths
            for part in (construct.body, construct.orelse)
            for n in ast.walk(part)
        )
    return False


def inexact_comparison(context: FileContext) -> Iterator[Finding]:
    """`>=`/`<=`/`<`/`>` on observed counts or values, `any()`/`all()` over observations: pin the number."""
    for node in _walk(context):
        if isinstance(node, ast.Compare) and any(
            isinstance(o, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for o in node.ops
        ):
            if any(context.is_observed(o) for o in [node.left, *node.comparators]) and not _ordering_allowed(
                context, node
            ):
                yield context.finding(
                    node, "inexact-comparison", "an ordering comparison on an observed value"
                )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("any", "all")
            and any(context.is_observed(a) for a in node.args)
            and not _ordering_allowed(context, node)
        ):
            yield context.finding(
                node, "inexact-comparison", f"`{node.func.id}()` reduces observations to one boolean"
            )


def truthiness(context: FileContext) -> Iterator[Finding]:
    """`bool(observed)` / `not observed` as a value: truthiness accepts every non-empty answer alike."""
    for node in _walk(context):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "bool"
            and any(context.is_observed(a) for a in node.args)
        ):
            yield context.finding(node, "truthiness", "`bool()` of an observed value")
        elif (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.Not)
            and context.is_observed(node.operand)
            and _control_parent(context, node)[0] is None
        ):
            yield context.finding(node, "truthiness", "`not` of an observed value used as a value")


def approx(context: FileContext) -> Iterator[Finding]:
    """`pytest.approx`, `math.isclose`: the contract pins exact values."""
    for node in _walk(context):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if name in ("approx", "isclose", "allclose"):
                yield context.finding(node, "approx", f"`{name}()` compares within a tolerance")


def _catches_verdicts(handler: ast.ExceptHandler) -> bool:
    if handler.body and isinstance(handler.body[-1], ast.Raise) and handler.body[-1].exc is None:
        return False  # re-raised: nothing swallowed
    if handler.type is None:
        return True
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for kind in caught:
        name = kind.attr if isinstance(kind, ast.Attribute) else kind.id if isinstance(kind, ast.Name) else ""
        if name in BROAD_EXCEPTIONS:
            return True
    return False


def _holds_verdict(context: FileContext, statements: list[ast.stmt]) -> bool:
    return any(
        isinstance(n, ast.Assert) or is_check_call(n, context.recording)
        for statement in statements
        for n in ast.walk(statement)
    )


def _suppressing(item: ast.withitem) -> bool:
    call = item.context_expr
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "suppress":
        return True
    if name == "raises":
        return any(
            (a.attr if isinstance(a, ast.Attribute) else getattr(a, "id", "")) in BROAD_EXCEPTIONS
            for arg in call.args
            for a in (arg.elts if isinstance(arg, ast.Tuple) else [arg])
        )
    return False


def swallowed_check(context: FileContext) -> Iterator[Finding]:
    """A tp.expect*/assert inside `try` whose `except` catches its failure (or `suppress`): it cannot fail."""
    for node in _walk(context):
        if not (
            isinstance(node, ast.Try | ast.TryStar | ast.With | ast.AsyncWith)
            and _holds_verdict(context, node.body)
        ):
            continue
        if isinstance(node, ast.Try | ast.TryStar) and any(_catches_verdicts(h) for h in node.handlers):
            yield context.finding(
                node, "swallowed-check", "a verdict inside try/except that catches its failure"
            )
        elif isinstance(node, ast.With | ast.AsyncWith) and any(_suppressing(i) for i in node.items):
            yield context.finding(
                node, "swallowed-check", "a verdict inside a block that suppresses its failure"
            )


def bare_assert(context: FileContext) -> Iterator[Finding]:
    """`assert` on observed values, `pytest.fail`, `raise AssertionError`: verdicts go through tp.expect*."""
    for node in _walk(context):
        if isinstance(node, ast.Assert) and context.is_observed(node.test):
            yield context.finding(node, "bare-assert", "a bare assert on an observed value (use tp.expect*)")
        elif isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "fail"
                and getattr(func.value, "id", "") == "pytest"
            ) or (isinstance(func, ast.Name) and func.id == "fail" and "fail" in context.module.imports):
                yield context.finding(node, "bare-assert", "`pytest.fail` records no check (use tp.expect*)")
        elif isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(raised, ast.Name) and raised.id == "AssertionError":
                yield context.finding(
                    node, "bare-assert", "`raise AssertionError` records no check (use tp.expect*)"
                )


_CANDIDATE_PACKAGES = ("candidates", "toolproof.candidates")  # as the checkout and the wheel name it


def _imports_candidates(module: str | None) -> bool:
    return module is not None and any(module == p or module.startswith(p + ".") for p in _CANDIDATE_PACKAGES)


def candidate_import(context: FileContext) -> Iterator[Finding]:
    """Importing `(toolproof.)candidates.*`: tests reach a candidate only through protocol v1."""
    message = "imports a candidate's internals (reach candidates only through the protocol)"
    for node in _walk(context):
        if (isinstance(node, ast.Import) and any(_imports_candidates(a.name) for a in node.names)) or (
            isinstance(node, ast.ImportFrom)
            and (
                _imports_candidates(node.module)
                or (
                    node.module in (None, "", "toolproof") and any(a.name == "candidates" for a in node.names)
                )
            )
        ):
            yield context.finding(node, "candidate-import", message)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            first = node.args[0]
            if (
                name in ("import_module", "__import__", "importorskip")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _imports_candidates(first.value)
            ):
                yield context.finding(node, "candidate-import", message)


def _check_ids(context: FileContext, statements: list[ast.stmt]) -> set[str]:
    """Check IDs recorded by `statements` ("*" when a recording call names its check indirectly)."""
    ids: set[str] = set()
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and is_check_call(node, context.recording):
                named = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str) and CHECK_ID.match(a.value)
                ]
                ids.update(named[:1] or ["*"])
    return ids


def _real_verdict(context: FileContext, statements: list[ast.stmt]) -> bool:
    return any(
        isinstance(n, ast.Call)
        and is_check_call(n, context.recording)
        and not (isinstance(n.func, ast.Attribute) and n.func.attr == "not_testable")
        for statement in statements
        for n in ast.walk(statement)
    )


def _following(context: FileContext, node: ast.AST) -> list[ast.stmt]:
    """The statements that run after `node` finishes, up to the end of its function."""
    out: list[ast.stmt] = []
    child = node
    for parent in context.ancestors(node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and child in block:
                out.extend(block[block.index(child) + 1 :])
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            break
        child = parent
    return out


def _exits(statements: list[ast.stmt]) -> bool:
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Return | ast.Continue | ast.Break):
                return True
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("skip", "xfail")
                and getattr(node.func.value, "id", "") == "pytest"
            ):
                return True
    return False


def _branch_problem(
    context: FileContext, guard: ast.If, call: ast.Call, inside: list[ast.stmt]
) -> str | None:
    """Why an observed `if` around `call` may leave its check unrecorded (None: both paths record it)."""
    other = guard.orelse if inside is guard.body else guard.body
    other_path = other + ([] if _exits(other) else _following(context, guard))
    recorded = _check_ids(context, other_path)
    wanted = _check_ids(context, [ast.Expr(call)])
    if not (wanted & recorded or "*" in recorded or "*" in wanted):
        return f"the other branch of line {guard.lineno} never records {sorted(wanted)[0]}"
    is_not_testable = isinstance(call.func, ast.Attribute) and call.func.attr == "not_testable"
    if is_not_testable and not _real_verdict(context, inside):
        return (
            f"not_testable chosen by what the candidate did (line {guard.lineno}) with no verdict beside it"
        )
    return None


def _guard_problems(context: FileContext, call: ast.Call) -> Iterator[str]:
    child: ast.AST = call
    for parent in context.ancestors(call):
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(parent, ast.If) and child is not parent.test and context.is_observed(parent.test):
            inside = parent.body if child in parent.body else parent.orelse
            problem = _branch_problem(context, parent, call, inside)
            if problem:
                yield problem
        elif (
            isinstance(parent, ast.While | ast.IfExp)
            and child is not parent.test
            and context.is_observed(parent.test)
        ):
            yield f"runs only while/if an observation allows (line {parent.lineno})"
        elif (
            isinstance(parent, ast.For | ast.AsyncFor)
            and child in parent.body
            and context.is_observed(parent.iter)
        ) or (
            isinstance(parent, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp)
            and any(context.is_observed(g.iter) for g in parent.generators)
        ):
            yield f"runs once per observed item (line {parent.lineno}): none observed, none run"
        elif isinstance(parent, ast.Match) and context.is_observed(parent.subject):
            yield f"runs only for some observed values (line {parent.lineno})"
        elif (
            isinstance(parent, ast.BoolOp)
            and isinstance(child, ast.expr)
            and child in parent.values
            and any(context.is_observed(v) for v in parent.values[: parent.values.index(child)])
        ):
            yield f"short-circuited by an observation (line {parent.lineno})"
        child = parent


def guarded_check(context: FileContext) -> Iterator[Finding]:
    """A check recorded only if an observation allows it: when that observation is missing, nothing is judged.

    An observation may choose between two of the contract's rules only when
    both paths record the check (a candidate that MAY retry: "no retry" judges
    the error, "retry" judges the resent request); a `not_testable` chosen by
    the candidate's behaviour needs a verdict beside it.
    """
    for node in _walk(context):
        if isinstance(node, ast.Call) and is_check_call(node, context.recording):
            for problem in _guard_problems(context, node):
                yield context.finding(node, "guarded-check", problem)
    for name, function in context.module.functions.items():
        if not name.startswith("test_"):
            continue
        for node in ast.walk(function):
            if not (isinstance(node, ast.If) and context.is_observed(node.test)):
                continue
            for branch in (node.body, node.orelse):
                if not branch or not _exits(branch):
                    continue
                later, here = _check_ids(context, _following(context, node)), _check_ids(context, branch)
                missing = sorted(later - here - {"*"}) if "*" not in here else []
                if missing:
                    yield context.finding(
                        node,
                        "guarded-check",
                        f"an observation leaves the test before it records {', '.join(missing)}",
                    )


RULES: dict[str, Rule] = {
    "tolerant-membership": tolerant_membership,
    "tolerant-alternatives": tolerant_alternatives,
    "normalised-observation": normalised_observation,
    "inexact-comparison": inexact_comparison,
    "truthiness": truthiness,
    "approx": approx,
    "swallowed-check": swallowed_check,
    "bare-assert": bare_assert,
    "candidate-import": candidate_import,
    "oracle-expression": oracle_expression,
    "guarded-check": guarded_check,
}
