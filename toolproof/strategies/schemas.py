"""Argument instances near the fixture tools' input schemas (tp-wire-schema-meaning).

Small hand-written strategies (hypothesis-jsonschema crashes with current
hypothesis). They aim at the edges where a rewritten schema loses meaning:
each required key may be missing, each value may have the wrong type, enum
and const values may be near misses, and objects may carry an extra key.
About as many instances come out invalid as valid. Which is which is
never decided here: the test's oracle is validity under the MCP inputSchema, or under the golden
schema of the declared parameters_strict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

Strategy = st.SearchStrategy[Any]


def scalars() -> Strategy:
    """Any JSON scalar: null, booleans, small integers, floats, short strings."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-3, max_value=30),
        st.floats(min_value=-2, max_value=40, allow_nan=False, allow_infinity=False),
        st.text(max_size=6),
    )


def wrong() -> Strategy:
    """A value of no particular kind: any JSON scalar, or a short list of them."""
    return st.one_of(scalars(), st.lists(scalars(), max_size=2))


def weighted(*choices: tuple[int, Strategy]) -> Strategy:
    """One of the strategies, each picked in proportion to its weight; shrinks towards the first.
    (`st.one_of(a, a, b)` would not weigh: hypothesis merges equal branches.)"""
    indexes = [i for i, (weight, _) in enumerate(choices) for _ in range(weight)]
    return st.sampled_from(indexes).flatmap(lambda i: choices[i][1])


def either(good: Strategy, bad: Strategy | None = None) -> Strategy:
    """Mostly (9 in 10) `good`, sometimes `bad` (default: `wrong()`)."""
    return weighted((9, good), (1, bad if bad is not None else wrong()))


def some(required: Mapping[str, Strategy], optional: Mapping[str, Strategy] | None = None) -> Strategy:
    """An object with every required key and any of the optional ones; sometimes (1 in 12 each)
    required keys go missing, or one extra key that no schema declares comes along. With optional
    keys, also (1 in 5) every key, the optional ones mostly null: the form strict mode asks for
    (parameters_strict true: every property required, the optional ones nullable)."""
    keys = {**required, **(optional or {})}
    complete = st.fixed_dictionaries(dict(required), optional=dict(optional or {}))
    gappy = st.fixed_dictionaries({}, optional=dict(keys))
    extra = st.fixed_dictionaries({"unexpected": scalars()}, optional=dict(keys))
    if not optional:
        return weighted((10, complete), (1, gappy), (1, extra))
    nulls = {key: weighted((3, st.none()), (1, value)) for key, value in optional.items()}
    every = st.fixed_dictionaries({**required, **nulls})
    return weighted((10, complete), (1, gappy), (1, extra), (3, every))


def lookup_args() -> Strategy:
    """`alpha/lookup`: {"q": string}, q required."""
    return some({"q": either(st.text(max_size=5))})


def multi_block_args() -> Strategy:
    """`alpha/multi_block`: {"blocks": [string, ...]}, blocks required."""
    return some({"blocks": either(st.lists(either(st.text(max_size=3)), max_size=3))})


def order_item() -> Strategy:
    """One item of `alpha/nested_args`: {"sku": string, "qty": integer >= 1}, both required, closed."""
    qty = either(
        st.integers(min_value=1, max_value=4), st.one_of(st.integers(-1, 0), st.floats(0.5, 3), wrong())
    )
    return some({"sku": either(st.text(max_size=3)), "qty": qty})


def nested_args() -> Strategy:
    """`alpha/nested_args`: an order with an anyOf id, an enum priority and an array of closed items."""
    identifier = st.one_of(st.text(max_size=3), st.integers(min_value=-2, max_value=9))
    priority = either(st.sampled_from(["low", "normal", "high"]), st.sampled_from(["urgent", "HIGH", ""]))
    order = some(
        {"id": either(identifier), "items": either(st.lists(either(order_item()), max_size=3))},
        {"priority": priority},
    )
    return some({"order": either(order)})


def money() -> Strategy:
    """`#/$defs/money` of `shapes/schema_refs`: positive amount, three upper-case letters, closed."""
    amount = either(
        st.one_of(st.integers(min_value=1, max_value=3), st.floats(0.01, 3)),
        st.one_of(st.integers(-1, 0), st.floats(-1, 0), wrong()),
    )
    currency = either(st.sampled_from(["EUR", "USD"]), st.sampled_from(["eur", "EURO", "E1R", ""]))
    return some({"amount": amount, "currency": currency})


def target() -> Strategy:
    """`target` of `shapes/schema_refs`: oneOf {iban: string >= 5 chars} / {account: integer}, overlapping."""
    iban = weighted(
        (3, st.text(alphabet="DE0123", min_size=5, max_size=8)), (1, st.text(alphabet="DE0", max_size=4))
    )
    return weighted(
        (2, some({"iban": either(iban)})),
        (2, some({"account": either(st.integers(min_value=0, max_value=99))})),
        (1, st.fixed_dictionaries({}, optional={"iban": iban, "account": st.integers(0, 99)})),
    )


def schema_refs_args() -> Strategy:
    """`shapes/schema_refs`: const, $ref, anyOf with null, type lists, overlapping oneOf, closed top."""
    letters = st.sampled_from(["a", "b", "c", "d"])
    tags = weighted(
        (4, st.lists(letters, max_size=3, unique=True)), (1, st.lists(either(letters), max_size=4))
    )
    meta = st.dictionaries(st.sampled_from(["x", "y"]), either(st.integers(0, 3)), max_size=2)
    return some(
        {
            "type": either(st.just("transfer"), st.sampled_from(["Transfer", "payment"])),
            "amount": either(money()),
            "target": either(target()),
        },
        {
            "fee": either(st.one_of(st.none(), money()), scalars()),
            "memo": either(st.one_of(st.none(), st.text(max_size=14))),
            "tags": either(tags),
            "meta": either(meta),
            "default": either(st.booleans()),
            "shape": either(
                st.sampled_from(
                    [
                        {"type": "STRING", "of": {"type": "STRING"}},
                        {"type": "string", "of": {"type": "string"}},
                        {"type": "STRING", "of": {"type": "string"}},
                    ]
                )
            ),
        },
    )


INSTANCES: Mapping[str, Strategy] = {
    "alpha/lookup": lookup_args(),
    "alpha/multi_block": multi_block_args(),
    "alpha/nested_args": nested_args(),
    "shapes/schema_refs": schema_refs_args(),
}
"""Marker of a fixture tool -> a strategy for argument instances near its inputSchema."""


def tool_instances() -> st.SearchStrategy[tuple[str, Any]]:
    """(marker, instance) pairs over every tool of INSTANCES."""
    return st.sampled_from(sorted(INSTANCES)).flatmap(lambda m: st.tuples(st.just(m), INSTANCES[m]))
