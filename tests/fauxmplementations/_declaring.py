"""The reference adapter behind a declaration of its own, for the precision self-tests of declared
variants (tests/precision): it adds `declared` to the reference's `hello.options` and, when asked,
first runs an `act` that patches the reference to act the variant out.

Each variant's module keeps only its patch and its factories (declared and acted, acted
undeclared, declared only). A test double reaching into the reference, never a pattern for a real
adapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolproof.candidates.reference import adapter


class Declaring:
    """The reference adapter (its profile `profile`), declaring `declared` on top of its own options;
    `act` (a patch of the reference, or None) runs once, before the adapter is made."""

    def __init__(
        self, declared: dict[str, Any], act: Callable[[], None] | None, profile: str = "reference"
    ) -> None:
        if act is not None:
            act()
        self.inner = adapter.factory(profile)
        self.declared = declared

    async def hello(self) -> dict[str, Any]:
        answer = await self.inner.hello()
        return {**answer, "options": {**answer["options"], **self.declared}}

    async def build(self, id: str, config: Any) -> dict[str, Any]:
        return await self.inner.build(id, config)

    async def run(self, id: str, input: str) -> dict[str, Any]:
        return await self.inner.run(id, input)

    async def close(self, id: str) -> dict[str, Any]:
        return await self.inner.close(id)
