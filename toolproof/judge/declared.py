"""A candidate's declared options, with the contract's documented defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from toolproof.judge.contract_files import load_yaml

CAPABILITIES = (
    "toolsets.namespace",
    "toolsets.dedup_key",
    "openai.chat",
    "loop.turn_cap",
    "loop.continuation",
)


@cache
def option_defaults() -> dict[str, Any]:
    """Every option's default, from contracts/options.yaml."""
    return {name: spec["default"] for name, spec in load_yaml("options.yaml")["options"].items()}


@dataclass(frozen=True)
class Declared:
    """What a candidate said about itself in hello."""

    implementation: Mapping[str, str]
    capabilities: frozenset[str]
    options: Mapping[str, Any]  # declared values, defaults filled in
    declared_options: frozenset[str]  # which ones the candidate stated explicitly

    @classmethod
    def from_hello(cls, hello: Mapping[str, Any]) -> Declared:
        """Merge a hello response's options over the defaults."""
        stated = dict(hello.get("options") or {})
        return cls(
            implementation=dict(hello["implementation"]),
            capabilities=frozenset(hello["capabilities"]),
            options={**option_defaults(), **stated},
            declared_options=frozenset(stated),
        )

    def option(self, name: str) -> Any:
        """The declared (or default) value of one option."""
        if name not in self.options:
            raise KeyError(f"unknown option {name!r}")
        return self.options[name]
