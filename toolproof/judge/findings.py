"""Findings: one observed deviation, however many checks it fails.

A check's verdict is decided by its own literal expectation (`tp.expect`);
nothing here changes one. When an expectation fails, the classifier of the
check's observation (its catalog `group`: checks that read the same
observation; or, for the few checks of other observations that compare the
same values, the one `READERS` names) may name the deviation: one transformation, from a short
explicit list, that explains the *whole* observed difference. Null-valued keys
dropped from the arguments the model sent, say, or the tool's text replaced by
a Python repr of the MCP content objects. Anything else (a second difference,
two transformations that both fit, an observation of another shape) gets no
name: that failure is a finding of its own. Nothing is merged on guesswork.

The report (toolproof/report/model.py) then merges failing checks whose every
failure carries the same deviation into one finding: its primary check is the
first failing one of the deviation's `owners` (the requirement the defect
breaks: the Python repr is result.verbatim's, never a receipt check's), and
the other checks are marked "same finding as <primary>", their evidence kept.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolproof.judge.jsondiff import Multiset, differences, equal


@dataclass(frozen=True)
class Deviation:
    """One kind of observed deviation, named in words, with the checks that own it in order."""

    id: str
    text: str
    #: Checks in precedence order: the first that fails is the finding's primary check.
    owners: tuple[str, ...]


NULLS_DROPPED = Deviation(
    "nulls-dropped",
    "null-valued keys dropped from object arguments",
    (
        "args.object-arrives",
        "args.object-any-ijson",
        "args.string-encoded-levels",
        "args.string-encoded-any-ijson",
        "args.undeclared-keys-per-option",
    ),
)
INDEX_KEYS = Deviation(
    "index-keys",
    'array arguments spread into index keys "0", "1", ...',
    ("args.non-object-per-option", "args.no-invented-keys"),
)
RAW_WRAPPER = Deviation(
    "raw-wrapper",
    'non-object arguments wrapped as {"raw": ...}',
    ("args.non-object-per-option", "args.null-per-option", "args.no-invented-keys"),
)
TEXT_TRIMMED = Deviation(
    "text-trimmed",
    "tool text trimmed of surrounding whitespace",
    ("result.verbatim", "result.is-error", "result.structured", "result.multi-block"),
)
PYTHON_REPR = Deviation(
    "python-repr",
    "tool text replaced by a Python repr of the MCP content objects",
    (
        "result.verbatim",
        "result.empty",
        "result.no-content-block",
        "result.multi-block",
        "result.is-error",
        "result.structured",
    ),
)

PASSED_THROUGH = Deviation(
    "passed-through",
    "non-object arguments passed to the tool as they are (MCP arguments are an object)",
    (
        "args.non-object-per-option",
        "args.null-per-option",
        "args.string-encoded-levels",
        "args.string-encoded-any-ijson",
    ),
)
NAMES_UNCHANGED = Deviation(
    "names-unchanged",
    "invalid MCP tool names offered to the model unchanged",
    ("wire.invalid-name-reject", "wire.invalid-name-alias-offered", "wire.function-name-pattern"),
)

NAMES_UNCHANGED_MESSAGES = Deviation(
    "names-unchanged-messages",
    "invalid MCP tool names offered to the model unchanged on the Messages API",
    ("anthropic.invalid-name-per-option", "anthropic.tool-name-pattern"),
)

DEVIATIONS: dict[str, Deviation] = {
    d.id: d
    for d in (
        NULLS_DROPPED,
        INDEX_KEYS,
        RAW_WRAPPER,
        PASSED_THROUGH,
        TEXT_TRIMMED,
        PYTHON_REPR,
        NAMES_UNCHANGED,
        NAMES_UNCHANGED_MESSAGES,
    )
}
"""Every deviation a classifier can name, by id."""


def _only(found: list[Deviation]) -> str | None:
    """The one deviation that explains the difference; None for none, and for two (ambiguous)."""
    return found[0].id if len(found) == 1 else None


# -- the arguments a tool received vs what the model sent ------------------------------------


def drop_nulls(value: Any) -> Any:
    """`value` with every null-valued object key removed, at every depth (array items stay)."""
    if isinstance(value, dict):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value


def _wrapped(value: Any) -> bool:
    """The declared `wrap_value` form of a non-object: an object whose only key is `value`."""
    return isinstance(value, dict) and list(value) == ["value"]


def spread_index_keys(value: Any) -> Any:
    """A wrapped array `{"value": [a, b]}` as `{"0": a, "1": b}`; anything else unchanged."""
    if _wrapped(value) and isinstance(value["value"], list):
        return {str(i): item for i, item in enumerate(value["value"])}
    return value


def raw_wrapper(value: Any) -> Any:
    """A wrapped non-object `{"value": v}` as `{"raw": v}`; anything else unchanged."""
    return {"raw": value["value"]} if _wrapped(value) else value


ARGUMENT_TRANSFORMS: tuple[tuple[Deviation, Callable[[Any], Any]], ...] = (
    (NULLS_DROPPED, drop_nulls),
    (INDEX_KEYS, spread_index_keys),
    (RAW_WRAPPER, raw_wrapper),
)
"""What a tool receives when the runtime applies the deviation to the arguments it should forward."""


def _transformed(transform: Callable[[Any], Any], observed: Any, expected: Any) -> bool:
    """`transform` applied to each expected item gives exactly the observed items (as a multiset
    when the expectation is one), and changes something."""
    if not isinstance(observed, list) or not isinstance(expected, list):
        return False
    moved = [transform(item) for item in expected]
    if equal(moved, list(expected)):
        return False
    target = Multiset(moved) if isinstance(expected, Multiset) else moved
    return not differences(observed, target, limit=1)


def received_arguments(observed: Any, expected: Any) -> str | None:
    """The arguments tools received (a list, or a Multiset) vs the arguments they should have."""
    return _only([d for d, transform in ARGUMENT_TRANSFORMS if _transformed(transform, observed, expected)])


@dataclass(frozen=True)
class Traffic:
    """What the scenario's fakes recorded, for classifiers whose check compares a projection of it."""

    #: The JSON values of the tool-call arguments the model sent (texts that are not JSON left out).
    sent: tuple[Any, ...] = ()
    #: `params.arguments` of every tools/call the MCP servers received.
    received: tuple[Any, ...] = ()
    #: The raw `arguments` strings the model sent, every one (JSON or not).
    texts: tuple[str, ...] = ()
    #: The function names offered in the model requests (every request's view, in order).
    offered: tuple[str, ...] = ()
    #: The MCP tool names the harness's servers serve (any route).
    served: frozenset[str] = frozenset()


SENT_TRANSFORMS: tuple[tuple[Deviation, Callable[[Any], Any]], ...] = (
    (INDEX_KEYS, lambda v: {str(i): item for i, item in enumerate(v)} if isinstance(v, list) else None),
    (RAW_WRAPPER, lambda v: {"raw": v} if not isinstance(v, dict) else None),
)
"""What a tool receives for one value the model sent, when the runtime applies the deviation to it
(None: the deviation does not apply to that value)."""


def _explains_keys(transform: Callable[[Any], Any], keys: set[str], traffic: Traffic) -> bool:
    """Every received object holding an invented key is `transform` of a value the model sent, and
    together they hold exactly the invented keys."""
    holders = [a for a in traffic.received if isinstance(a, dict) and keys & set(a)]
    made = [transform(value) for value in traffic.sent]
    return (
        bool(holders)
        and all(any(m is not None and equal(holder, m) for m in made) for holder in holders)
        and keys == {key for holder in holders for key in holder}
    )


def invented_keys(observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """The keys tools received that the model never sent (expected: none): explained when every
    object holding them is what the deviation makes of a value the model sent (the index keys of an
    array it sent, `{"raw": v}` for a non-object v it sent)."""
    if expected != [] or not isinstance(observed, list) or not observed:
        return None
    if not all(isinstance(key, str) for key in observed):
        return None
    keys = set(observed)
    return _only([d for d, transform in SENT_TRANSFORMS if _explains_keys(transform, keys, traffic)])


def _made_from_sent(deviation: Deviation, item: Any, traffic: Traffic) -> bool:
    """`item` (what a tool received) is what `deviation` makes of one argument the model sent."""
    if deviation is PASSED_THROUGH:  # the decoded value itself, where MCP wants an object
        return not isinstance(item, dict) and any(equal(item, value) for value in traffic.sent)
    if deviation is RAW_WRAPPER:  # {"raw": v} of a decoded non-object, or of the raw text (the seed's)
        return (
            isinstance(item, dict)
            and list(item) == ["raw"]
            and (
                any(not isinstance(v, dict) and equal(item["raw"], v) for v in traffic.sent)
                or item["raw"] in traffic.texts
            )
        )
    if deviation is INDEX_KEYS:
        return any(
            isinstance(v, list) and v and equal(item, {str(i): x for i, x in enumerate(v)})
            for v in traffic.sent
        )
    return False


def _unmatched(items: list[Any], against: list[Any]) -> list[Any]:
    """The items of `items` left when each is matched to a JSON-equal item of `against` (a multiset
    difference)."""
    left = list(against)
    out = []
    for item in items:
        at = next((k for k, other in enumerate(left) if equal(item, other)), None)
        if at is None:
            out.append(item)
        else:
            left.pop(at)
    return out


def received_from_sent(observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """The arguments tools received vs the arguments they should have, read against what the model
    sent: named when every received item the expectation lacks is what one deviation makes of an
    argument the model sent (a not-called path too, where nothing should have arrived), and it stands
    in for no more items than it replaced."""
    if not isinstance(observed, list) or not isinstance(expected, list):
        return None
    extra = _unmatched(list(observed), list(expected))
    missing = _unmatched(list(expected), list(observed))
    if not extra or len(missing) > len(extra):
        return None
    return _only(
        [
            d
            for d in (PASSED_THROUGH, RAW_WRAPPER, INDEX_KEYS)
            if all(_made_from_sent(d, i, traffic) for i in extra)
        ]
    )


INVENTED_KEYS_CHECKS = frozenset({"args.no-invented-keys"})
"""Checks of the tool-arguments observation that compare the invented keys, not the arguments."""


def tool_arguments(check: str, observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """Classifier of the `tool-arguments` observation: what a tool received vs what the model sent."""
    if check in INVENTED_KEYS_CHECKS:
        return invented_keys(observed, expected, traffic)
    return received_arguments(observed, expected) or received_from_sent(observed, expected, traffic)


# -- a tool's text vs what the model received ---------------------------------------------------


def trimmed(observed: str, expected: str) -> bool:
    """`observed` is `expected` with its surrounding whitespace removed (str.strip)."""
    return observed == expected.strip()


def repr_texts(text: str) -> list[str] | None:
    """The texts of a Python repr of a list of MCP text blocks (`str(result.content)`:
    `[TextContent(type='text', text='ok', annotations=None, meta=None)]`), or None when `text`
    is not exactly one: a list of `TextContent(...)` calls with literal keyword arguments only,
    each with a string `text`."""
    try:  # parsed, never evaluated: only literal keyword values are read (ast.literal_eval)
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree, ast.List):
        return None
    texts = []
    for item in tree.elts:
        if not (
            isinstance(item, ast.Call) and isinstance(item.func, ast.Name) and item.func.id == "TextContent"
        ):
            return None
        if item.args:
            return None
        try:
            fields = {kw.arg: ast.literal_eval(kw.value) for kw in item.keywords}
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return None
        if None in fields or fields.get("type", "text") != "text" or not isinstance(fields.get("text"), str):
            return None
        texts.append(fields["text"])
    return texts


def _joined(texts: list[str], expected: str) -> bool:
    """`expected` is `texts` joined by one separator (whichever: the runtime declares its own)."""
    if len(texts) < 2:
        return False
    gap = len(expected) - sum(len(t) for t in texts)
    if gap < 0 or gap % (len(texts) - 1):
        return False
    start = len(texts[0])
    separator = expected[start : start + gap // (len(texts) - 1)]
    return separator.join(texts) == expected


def python_repr(observed: str, expected: str) -> bool:
    """`observed` is a Python repr of the content blocks whose text is `expected`: one block with
    that text, no block for an empty text, or several joined to it."""
    texts = repr_texts(observed)
    if texts is None:
        return False
    return texts == [expected] or (texts == [] and expected == "") or _joined(texts, expected)


TEXT_CHANGES: tuple[tuple[Deviation, Callable[[str, str], bool]], ...] = (
    (TEXT_TRIMMED, trimmed),
    (PYTHON_REPR, python_repr),
)
"""What the model receives when the runtime applies the deviation to the tool's text."""


def _explained(change: Callable[[str, str], bool], pairs: list[tuple[Any, Any]]) -> bool:
    """Every differing (observed, expected) pair is two strings that `change` explains; one at least."""
    differing = [(o, e) for o, e in pairs if not equal(o, e)]
    return bool(differing) and all(
        isinstance(o, str) and isinstance(e, str) and change(o, e) for o, e in differing
    )


def _text_pairs(observed: Any, expected: Any) -> list[tuple[Any, Any]] | None:
    """(observed, expected) pairs of texts, position by position through lists of the same length
    (texts in call order, or such lists per request); None when the shapes differ."""
    if isinstance(observed, list) and isinstance(expected, list):
        if len(observed) != len(expected):
            return None
        pairs: list[tuple[Any, Any]] = []
        for o, e in zip(observed, expected, strict=True):
            inner = _text_pairs(o, e)
            if inner is None:
                return None
            pairs += inner
        return pairs
    if isinstance(observed, list | dict) or isinstance(expected, list | dict):
        return None
    return [(observed, expected)]


def tool_texts(check: str, observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """Classifier of the `tool-result-text` observation: the tools' texts vs what the model received
    (one text, texts in call order, or such lists)."""
    del check, traffic  # every check of this observation compares texts the same way
    pairs = _text_pairs(observed, expected)
    if pairs is None:
        return None
    return _only([d for d, change in TEXT_CHANGES if _explained(change, pairs)])


# -- the wire names of tools whose MCP names are invalid ---------------------------------------

WIRE_NAME: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""OpenAI's function name pattern (CONTRACT.md §6 item 3)."""
MESSAGES_NAME: Final = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
"""The Messages API's tool name pattern (CONTRACT.md §6c item 31)."""


def names_unchanged(
    offered: Sequence[str], served: frozenset[str], deviation: Deviation = NAMES_UNCHANGED
) -> str | None:
    """`names-unchanged` when some offered function names break the wire pattern and every one that
    does is an MCP name the harness serves, offered as it is (neither aliased nor refused);
    `names-unchanged-messages` (`deviation`) the same under the Messages API's pattern."""
    pattern = MESSAGES_NAME if deviation is NAMES_UNCHANGED_MESSAGES else WIRE_NAME
    invalid = [name for name in offered if not pattern.match(name)]
    return deviation.id if invalid and all(name in served for name in invalid) else None


def offered_names(views: Sequence[Any]) -> tuple[str, ...]:
    """The function names the model requests offered (each request's view, in order)."""
    names = []
    for view in views:
        tools = view.get("tools") if isinstance(view, dict) else None
        for tool in tools if isinstance(tools, list) else []:
            function = tool.get("function") if isinstance(tool, dict) else None
            name = function.get("name") if isinstance(function, dict) else None
            if isinstance(name, str):
                names.append(name)
    return tuple(names)


INVARIANT_CLASSIFIERS: Final = frozenset({"wire.function-name-pattern", "anthropic.tool-name-pattern"})
"""Invariants whose violations a classifier may name (from the requests they judged)."""


def invariant_deviation(check: str, views: Sequence[Any], served: frozenset[str]) -> str | None:
    """The deviation that explains every violation of invariant `check` over these request views, or
    None (an invariant not in INVARIANT_CLASSIFIERS is never named)."""
    if check not in INVARIANT_CLASSIFIERS:
        return None
    if check in NAMES_UNCHANGED_MESSAGES.owners:
        return names_unchanged(offered_names(views), served, NAMES_UNCHANGED_MESSAGES)
    return names_unchanged(offered_names(views), served)


def tool_wire_names(check: str, observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """Classifier of the `tool-wire-names` observation: a check of how invalid MCP names are handled
    (aliased or refused, as declared) failed because the names reached the model unchanged."""
    del observed, expected  # the failure is explained by the offered names, whatever it compared
    if check not in NAMES_UNCHANGED.owners:
        return None
    return names_unchanged(traffic.offered, traffic.served)


def anthropic_tool_names(check: str, observed: Any, expected: Any, traffic: Traffic) -> str | None:
    """Classifier of the `anthropic-tool-names` observation: a dotted MCP name was neither aliased nor
    refused on the Messages API, but offered as it is."""
    del observed, expected  # the failure is explained by the offered names, whatever it compared
    if check not in NAMES_UNCHANGED_MESSAGES.owners:
        return None
    return names_unchanged(traffic.offered, traffic.served, NAMES_UNCHANGED_MESSAGES)


Classifier = Callable[[str, Any, Any, Traffic], "str | None"]

CLASSIFIERS: dict[str, Classifier] = {
    "tool-arguments": tool_arguments,
    "tool-result-text": tool_texts,
    "tool-wire-names": tool_wire_names,
    "anthropic-tool-names": anthropic_tool_names,
}
"""Observation (a check's catalog `group`) -> its classifier. Other observations are never classified,
but for the checks of `READERS`."""

READERS: dict[str, Classifier] = {
    # what the tool received for an object with undeclared keys (one of them holds a null)
    "args.undeclared-keys-per-option": tool_arguments,
    # the tool's text as the evidence that the call reached the right server or tool
    "dedup.balda-call-carries-token": tool_texts,
    "wire.invalid-name-maps-back": tool_texts,
}
"""Checks of other observations whose failing expectation may compare the same values as a
classified observation: named one by one, so no check is classified by accident."""


def classify(
    observation: str, check: str, observed: Any, expected: Any, traffic: Traffic | None = None
) -> str | None:
    """The id of the one deviation that explains why `observed` is not `expected` for `check` (whose
    catalog group is `observation`), or None."""
    classifier = READERS.get(check) or CLASSIFIERS.get(observation)
    if classifier is None:
        return None
    return classifier(check, observed, expected, traffic if traffic is not None else Traffic())


def sent_values(arguments: Sequence[Any]) -> tuple[Any, ...]:
    """The JSON values of raw `arguments` strings (strict RFC 8259: no NaN); the others left out."""

    def reject(name: str) -> Any:
        raise ValueError(name)

    values = []
    for raw in arguments:
        try:
            values.append(json.loads(raw, parse_constant=reject))
        except (TypeError, ValueError):
            continue
    return tuple(values)


# -- merging failures into findings -------------------------------------------------------------


def row_deviation(deviations: Sequence[str | None]) -> str | None:
    """The deviation of a failing report row, from those of its failing results: the one they all
    carry, or None (a result with none, or two different ones: the row stands alone)."""
    found = set(deviations)
    if len(found) != 1:
        return None
    only = found.pop()
    return only if only in DEVIATIONS else None


def primary_of(deviation: str, checks: Sequence[str]) -> str:
    """The finding's primary check among the failing `checks` that share `deviation`: the first of
    the deviation's owners that failed, else the first by ID."""
    for owner in DEVIATIONS[deviation].owners:
        if owner in checks:
            return owner
    return sorted(checks)[0]


def merge(rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Failing row id -> its finding's id (the primary check's ID). Rows with one deviation share a
    finding; a row without one is its own finding."""
    by_deviation: dict[str, list[str]] = {}
    out: dict[str, str] = {}
    for row in rows:
        deviation = row.get("deviation")
        if deviation in DEVIATIONS:
            by_deviation.setdefault(deviation, []).append(row["id"])
        else:
            out[row["id"]] = row["id"]
    for deviation, checks in by_deviation.items():
        primary = primary_of(deviation, checks)
        out.update({check: primary for check in checks})
    return out
