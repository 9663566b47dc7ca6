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
    "openai.responses",
    "loop.turn_cap",
    "loop.continuation",
    "mcp.stdio",
    "mcp.sse",
)

WIRES = ("openai.chat", "openai.responses")
"""The model wires: a candidate claims at most one (hello.json), the one its model requests speak."""

TRANSPORT_CAPABILITIES = {"http": None, "sse": "mcp.sse", "stdio": "mcp.stdio"}
"""Each CONFIG server `type` and the capability a candidate claims to accept it (streamable HTTP: none)."""

ANY_WIRE = "openai.*"
"""The capability of a requirement that holds on either model wire: claimed by claiming one."""


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

    @property
    def wire(self) -> str | None:
        """The model wire the candidate claims (`openai.chat` or `openai.responses`), None if none."""
        claimed = [wire for wire in WIRES if wire in self.capabilities]
        return claimed[0] if claimed else None

    def claims(self, capability: str) -> bool:
        """Whether the candidate claims `capability`; `openai.*` is claimed by claiming either wire."""
        if capability == ANY_WIRE:
            return self.wire is not None
        return capability in self.capabilities

    def option(self, name: str) -> Any:
        """The declared (or default) value of one option."""
        if name not in self.options:
            raise KeyError(f"unknown option {name!r}")
        return self.options[name]
