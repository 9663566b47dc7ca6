"""I-JSON tool-call arguments (RFC 7493) for the tp-args-* properties.

- integers within ±(2^53 - 1), the I-JSON range every JSON parser keeps exact;
- finite floats only (NaN and the infinities are not JSON);
- strings and keys without lone surrogates, so every value has a UTF-8 form;
- no duplicate keys (a dict cannot hold any).

Comparisons are §2 JSON-equality (numbers by value), so a runtime that
re-encodes 2.0 as 2 or 1e17 as 100000000000000000 is not wrong.
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import strategies as st

IJSON_MAX_INT: Final = 2**53 - 1
MAX_EXTRA_LEVELS: Final = 4
"""CONTRACT.md tp-args-string-encoded: 1 to 4 extra string encodings."""

_TEXT: Final = st.characters(exclude_categories=["Cs"])


def ijson_strings(max_size: int = 12) -> st.SearchStrategy[str]:
    """Unicode strings without lone surrogates (empty, NUL, astral characters included)."""
    return st.text(alphabet=_TEXT, max_size=max_size)


def ijson_floats() -> st.SearchStrategy[float]:
    """Finite floats: tiny, huge, integral (2.0, 1e17), negative zero."""
    return st.floats(allow_nan=False, allow_infinity=False)


def ijson_scalars() -> st.SearchStrategy[Any]:
    """null, booleans, exact integers, finite floats, strings."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-IJSON_MAX_INT, max_value=IJSON_MAX_INT),
        ijson_floats(),
        ijson_strings(),
    )


def ijson_values() -> st.SearchStrategy[Any]:
    """Any I-JSON value: scalars, and arrays and objects nesting them."""
    return st.recursive(
        ijson_scalars(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ijson_strings(8), inner, max_size=4),
        max_leaves=12,
    )


def ijson_objects() -> st.SearchStrategy[dict[str, Any]]:
    """An I-JSON object: what a tool's arguments are (empty included)."""
    return st.dictionaries(ijson_strings(8), ijson_values(), max_size=6)


def string_encoded(value: Any, extra_levels: int, *, ascii_only: bool = False) -> str:
    """The JSON text of `value`, then that text encoded as a JSON string `extra_levels` more times."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    for _ in range(extra_levels):
        text = json.dumps(text, ensure_ascii=ascii_only)
    return text
