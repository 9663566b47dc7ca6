"""JSON-path differences between an observed and an expected value.

Exact: no normalisation of strings, no tolerance. A missing key and a key
holding null are different things, and so are 1 and 1.0 and True.

An expected `Multiset` is an array whose order carries no meaning (the calls
of one batch reach the tools in any order): each observed item is paired with
its closest expected item, equal items first, then the smallest difference,
and each pair shows only its own differences. Pairing the two arrays in sorted
order instead shows false differences as soon as a defect changes the sort
order (one null dropped from each object, say).
"""

from __future__ import annotations

import json
from typing import Any

_MISSING = object()


class Multiset(list[Any]):
    """A JSON array compared as a multiset: order-free, each item with its closest counterpart.

    Serialised like any list; only `differences` (and so `tp.expect`) treats it apart.
    """


def render(value: Any) -> str:
    """Render one value the way a failure message shows it."""
    if value is _MISSING:
        return "<missing>"
    return json.dumps(value, ensure_ascii=False, sort_keys=False, default=repr)


def _same_scalar(a: Any, b: Any) -> bool:
    # bool is an int subclass and 1 == 1.0 in Python: compare types too.
    return type(a) is type(b) and a == b


def differences(observed: Any, expected: Any, path: str = "$", limit: int = 8) -> list[str]:
    """Return up to `limit` lines `path: expected X got Y`; empty when equal."""
    out: list[str] = []
    _walk(observed, expected, path, out, limit)
    return out


def _walk(observed: Any, expected: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(expected, dict) and isinstance(observed, dict):
        for key in expected:
            _walk(observed.get(key, _MISSING), expected[key], f"{path}.{key}", out, limit)
        for key in observed:
            if key not in expected:
                _walk(observed[key], _MISSING, f"{path}.{key}", out, limit)
        return
    if isinstance(expected, Multiset) and isinstance(observed, list | tuple):
        _walk_multiset(list(observed), list(expected), path, out, limit)
        return
    # Tuples are JSON arrays too: walk them, or `(1,) == (1.0,)` would hide a type difference.
    if isinstance(expected, list | tuple) and isinstance(observed, list | tuple):
        if len(expected) != len(observed):
            out.append(f"{path}: expected {len(expected)} items got {len(observed)}")
        for index, (o, e) in enumerate(zip(observed, expected, strict=False)):
            _walk(o, e, f"{path}[{index}]", out, limit)
        return
    if not _same_scalar(observed, expected):
        out.append(f"{path}: expected {render(expected)} got {render(observed)}")


def _walk_multiset(observed: list[Any], expected: list[Any], path: str, out: list[str], limit: int) -> None:
    """Each observed item against its closest expected item (`pairing`); `$[i]` is the observed
    position. An item left without a counterpart is shown whole, as `<no item>` on the other side."""
    if len(expected) != len(observed):
        out.append(f"{path}: expected {len(expected)} items got {len(observed)}")
    pairs = pairing(observed, expected)
    partner = dict(pairs)
    for index, item in enumerate(observed):
        if index in partner:
            _walk(item, expected[partner[index]], f"{path}[{index}]", out, limit)
        elif len(out) < limit:
            out.append(f"{path}[{index}]: expected <no item> got {render(item)}")
    paired = set(partner.values())
    for index, item in enumerate(expected):
        if index not in paired and len(out) < limit:
            out.append(f"{path}: expected {render(item)} got <no item>")


def pairing(observed: list[Any], expected: list[Any]) -> list[tuple[int, int]]:
    """(observed index, expected index) pairs, each item used at most once, sorted by observed index.

    Equal items pair first (each observed item, in order, with the first equal expected item
    left); then, among the rest, the pair with the smallest `distance` goes next, ties broken by
    the observed index, then the expected index. Deterministic, whatever the inputs' order.
    """
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for i, item in enumerate(observed):
        for j, candidate in enumerate(expected):
            if j not in taken and equal(item, candidate):
                pairs[i] = j
                taken.add(j)
                break
    costs = sorted(
        (distance(item, candidate), i, j)
        for i, item in enumerate(observed)
        if i not in pairs
        for j, candidate in enumerate(expected)
        if j not in taken
    )
    for _, i, j in costs:
        if i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    return sorted(pairs.items())


def _size(value: Any) -> int:
    """Leaves of a JSON value (an empty object or array counts as one)."""
    if isinstance(value, dict):
        return max(1, sum(_size(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return max(1, sum(_size(v) for v in value))
    return 1


def distance(observed: Any, expected: Any) -> int:
    """How far apart two JSON values are: the leaves that differ (a key or an item on one side
    only counts its leaves; a value of another type counts the leaves of both)."""
    if isinstance(observed, dict) and isinstance(expected, dict):
        both = [k for k in expected if k in observed]
        return (
            sum(distance(observed[k], expected[k]) for k in both)
            + sum(_size(v) for k, v in expected.items() if k not in observed)
            + sum(_size(v) for k, v in observed.items() if k not in expected)
        )
    if isinstance(observed, list | tuple) and isinstance(expected, list | tuple):
        common = min(len(observed), len(expected))
        return sum(distance(o, e) for o, e in zip(observed, expected, strict=False)) + sum(
            _size(v) for v in [*observed[common:], *expected[common:]]
        )
    if _same_scalar(observed, expected):
        return 0
    containers = (dict, list, tuple)
    if isinstance(observed, containers) or isinstance(expected, containers):
        return _size(observed) + _size(expected)
    return 1


def equal(observed: Any, expected: Any) -> bool:
    """Exact structural equality (types included; an expected Multiset in any order)."""
    return not differences(observed, expected, limit=1)
