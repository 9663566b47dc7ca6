"""Tool packing: MCP tools -> the `tools` of a chat-completions request.

Rules, one function each: duplicate detection (`claim_name`), wire-name
validity (`is_valid_wire_name`), the alias (`alias_wire_name`) and the
prefix variant (`namespaced_name`). Names compare exactly (case-sensitive).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import DuplicateTool
from .schema import lowercase_schema_types

WIRE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ALIAS_PREFIX = "runtime_tool_"
ALIAS_HEX_DIGITS = 12
NAMESPACE_SEPARATOR = "__"


@dataclass(frozen=True)
class McpTool:
    """A tool as one MCP server listed it."""

    server_id: str
    name: str
    description: str | None
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class PackedTool:
    """A tool as offered to the model, mapped back to its server and MCP name."""

    wire_name: str
    server_id: str
    original_name: str
    description: str | None
    parameters: dict[str, Any]


@dataclass
class ToolTable:
    """The packed tools of one request, in packing order, addressable by wire name."""

    tools: list[PackedTool] = field(default_factory=list)

    def lookup(self, wire_name: str) -> PackedTool | None:
        """The tool offered under `wire_name`, or None (exact, case-sensitive)."""
        for tool in self.tools:
            if tool.wire_name == wire_name:
                return tool
        return None

    def definitions(self) -> list[dict[str, Any]]:
        """The request's `tools` array (empty when there are no tools)."""
        return [tool_definition(tool) for tool in self.tools]


def is_valid_wire_name(name: str) -> bool:
    """OpenAI accepts function names matching ^[a-zA-Z0-9_-]{1,64}$."""
    # fullmatch, not `$`: `$` would also accept a name ending in a newline.
    return WIRE_NAME.fullmatch(name) is not None


def alias_wire_name(name: str) -> str:
    """A stable valid wire name for `name`: runtime_tool_<12 hex of sha256(name)>."""
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()
    return ALIAS_PREFIX + digest[:ALIAS_HEX_DIGITS]


def namespaced_name(server_id: str, tool_name: str, namespacing: str) -> str:
    """The name a tool is packed under: raw (`error`) or `<server id>__<tool>` (`prefix`)."""
    if namespacing == "prefix":
        return f"{server_id}{NAMESPACE_SEPARATOR}{tool_name}"
    return tool_name


def wire_name(name: str) -> str:
    """The name sent to the model: `name` itself when valid, else its alias."""
    if is_valid_wire_name(name):
        return name
    return alias_wire_name(name)


def claim_name(claimed: set[str], name: str) -> None:
    """Reserve `name` for one tool; the first owner keeps it, a second is an error."""
    if name in claimed:
        raise DuplicateTool(name)
    claimed.add(name)


def pack_tool(tool: McpTool, packed_name: str) -> PackedTool:
    """One MCP tool packed under `packed_name` (aliased when not a valid wire name)."""
    return PackedTool(
        wire_name=wire_name(packed_name),
        server_id=tool.server_id,
        original_name=tool.name,
        description=tool.description,
        parameters=lowercase_schema_types(tool.input_schema),
    )


def pack_tools(tools: list[McpTool], namespacing: str) -> ToolTable:
    """Pack every tool in order; DuplicateTool on the first name packed twice."""
    names: set[str] = set()
    wire_names: set[str] = set()
    table = ToolTable()
    for tool in tools:
        packed_name = namespaced_name(tool.server_id, tool.name, namespacing)
        if namespacing == "prefix" and packed_name in names:
            # Two (server id, tool) pairs can spell one prefixed name (`a__b` + `c`, `a` + `b__c`):
            # the later tool is packed under an alias of its pair, so neither is shadowed.
            packed_name = alias_wire_name(f"{tool.server_id}\x00{tool.name}")
        claim_name(names, packed_name)
        packed = pack_tool(tool, packed_name)
        # An alias could, in theory, equal another tool's literal name.
        claim_name(wire_names, packed.wire_name)
        table.tools.append(packed)
    return table


def tool_definition(tool: PackedTool) -> dict[str, Any]:
    """The chat-completions tool object; `description` omitted when the tool has none."""
    function: dict[str, Any] = {"name": tool.wire_name}
    if tool.description is not None:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}
