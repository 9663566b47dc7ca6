"""JSON-path differences between an observed and an expected value.

Exact: no normalisation of strings, no tolerance. A missing key and a key
holding null are different things, and so are 1 and 1.0 and True.
"""

from __future__ import annotations

import json
from typing import Any

_MISSING = object()


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
    # Tuples are JSON arrays too: walk them, or `(1,) == (1.0,)` would hide a type difference.
    if isinstance(expected, list | tuple) and isinstance(observed, list | tuple):
        if len(expected) != len(observed):
            out.append(f"{path}: expected {len(expected)} items got {len(observed)}")
        for index, (o, e) in enumerate(zip(observed, expected, strict=False)):
            _walk(o, e, f"{path}[{index}]", out, limit)
        return
    if not _same_scalar(observed, expected):
        out.append(f"{path}: expected {render(expected)} got {render(observed)}")


def equal(observed: Any, expected: Any) -> bool:
    """Exact structural equality (types included)."""
    return not differences(observed, expected, limit=1)
