"""Build tokens: the first path segment that separates one test's traffic from another's."""

from __future__ import annotations

import re
from typing import Final

TOKEN_RE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~-]{0,127}")


def check_token(token: str) -> str:
    """Return `token` if it is one safe path segment, else raise ValueError."""
    if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
        raise ValueError(f"invalid token {token!r}: use 1-128 of [A-Za-z0-9._~-], starting alphanumeric")
    return token
