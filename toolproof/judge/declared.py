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
    "anthropic.messages",
    "loop.turn_cap",
    "loop.continuation",
    "mcp.stdio",
    "mcp.sse",
)

WIRES = ("openai.chat", "openai.responses", "anthropic.messages")
"""The model wires: a candidate claims at most one (hello.json), the one its model requests speak."""

OPENAI_WIRES = ("openai.chat", "openai.responses")
"""The wires of OpenAI's format: what the family `openai.*` is claimed by."""

TRANSPORT_CAPABILITIES = {"http": None, "sse": "mcp.sse", "stdio": "mcp.stdio"}
"""Each CONFIG server `type` and the capability a candidate claims to accept it (streamable HTTP: none)."""

ANY_WIRE = "model.*"
"""The capability of a requirement that holds on every model wire: claimed by claiming any one."""

OPENAI_WIRE = "openai.*"
"""The capability of a requirement about OpenAI's format (argument text, the function-name pattern,
chat-shaped results): claimed by claiming either OpenAI wire (`OPENAI_WIRES`), never by
`anthropic.messages`."""

FAMILIES = {ANY_WIRE: WIRES, OPENAI_WIRE: OPENAI_WIRES}
"""Each wire family and the wires that claim it (a candidate never claims a family by name)."""

LEGACY_ANY_WIRE_UNTIL = 6
"""The last contract version in which `openai.*` meant every model wire (the family `model.*` of
version 7): `report_capability` reads an older report's `openai.*` under the new names."""


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
        """The model wire the candidate claims (one of `WIRES`), None if none."""
        claimed = [wire for wire in WIRES if wire in self.capabilities]
        return claimed[0] if claimed else None

    def claims(self, capability: str) -> bool:
        """Whether the candidate claims `capability`; a family (`FAMILIES`) is claimed by claiming
        one of its wires: `model.*` any wire, `openai.*` either OpenAI wire."""
        if capability in FAMILIES:
            return self.wire in FAMILIES[capability]
        return capability in self.capabilities

    def option(self, name: str) -> Any:
        """The declared (or default) value of one option."""
        if name not in self.options:
            raise KeyError(f"unknown option {name!r}")
        return self.options[name]


def renamed_capability(capability: str | None, contract: int) -> str | None:
    """A capability as a report or baseline of contract version `contract` wrote it, under this
    version's names: until version 6 `openai.*` meant every model wire, now `model.*`; every other
    name means what it meant. (A requirement still in the catalog is read with the catalog's
    capability: `toolproof.report.matrix.report_capability`.)"""
    if capability == OPENAI_WIRE and contract <= LEGACY_ANY_WIRE_UNTIL:
        return ANY_WIRE
    return capability
