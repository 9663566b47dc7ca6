"""Parse and validate CONFIG (contracts/config.json) into dataclasses.

Validation runs on the raw JSON before anything is built or contacted; every
failure is kind `invalid_config`. Unknown keys are ignored (top level and per
server) so a config written for a richer runtime still parses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidConfig

SERVER_TYPES = ("stdio", "http", "sse")
URL_SERVER_TYPES = ("http", "sse")


@dataclass(frozen=True)
class ModelConfig:
    """Where the OpenAI-compatible chat-completions endpoint is."""

    base_url: str
    api_key: str
    name: str


@dataclass(frozen=True)
class RegisteredServer:
    """An MCP server as the user registered it (one entry of `mcp_servers`)."""

    id: str
    type: str
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    dedup_key: str = ""
    dedup_preferred: bool = False
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    tool_timeout_s: float | None = None


@dataclass(frozen=True)
class AgentConfig:
    """A validated CONFIG."""

    model: ModelConfig
    instruction: str
    servers: tuple[RegisteredServer, ...]
    max_tool_turns: int


def optional_field(raw: Mapping[str, Any], name: str, default: Any) -> Any:
    """An optional field's value; JSON null counts as absent (as in Go's decoding)."""
    value = raw.get(name)
    return default if value is None else value


def validate_dedup_key(key: str) -> list[str]:
    """A key may be empty (no grouping) but never non-empty and blank."""
    if key != "" and key.strip() == "":
        return ["dedup_key must have at least 1 character"]
    return []


def validate_dedup_preferred(key: str, preferred: bool) -> list[str]:
    """Preferring a server only means something inside a group: it needs a real key."""
    if preferred and key.strip() == "":
        return ["dedup_preferred requires dedup_key"]
    return []


def validate_server_type(server_type: object) -> list[str]:
    """stdio, streamable HTTP and legacy SSE servers are all supported."""
    if server_type not in SERVER_TYPES:
        return ["type must be one of: stdio http sse"]
    return []


def validate_server_url(server_type: object, url: object) -> list[str]:
    """http/sse servers need a URL (a stdio server needs a command instead)."""
    if server_type not in URL_SERVER_TYPES:
        return []
    if url is None or (isinstance(url, str) and url.strip() == ""):
        return ["url is required for http/sse type"]
    if not isinstance(url, str):
        return ["url must be a string"]
    return []


def is_string_map(value: object) -> bool:
    """A JSON object whose values are all strings."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def validate_stdio_fields(server: Mapping[str, Any]) -> list[str]:
    """A stdio server: a command, and optional args (strings), env (string map) and cwd (a string)."""
    if server.get("type") != "stdio":
        return []
    messages: list[str] = []
    command = server.get("command")
    if not isinstance(command, str) or command == "":
        messages.append("command is required for stdio type")
    args = optional_field(server, "args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        messages.append("args must be an array of strings")
    if not is_string_map(optional_field(server, "env", {})):
        messages.append("env must be an object of strings")
    if not isinstance(optional_field(server, "cwd", ""), str):
        messages.append("cwd must be a string")
    return messages


def validate_tool_timeout(value: object) -> list[str]:
    """A tool timeout, when present, is a number of seconds above 0 (JSON null: absent)."""
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return ["tool_timeout_s must be a number above 0"]
    return []


def validate_server_headers(headers: object) -> list[str]:
    """Headers, when present, are an object of strings."""
    if headers is None:
        return []
    if not is_string_map(headers):
        return ["headers must be an object of strings"]
    return []


def validate_server_config(server: object) -> list[str]:
    """All validation messages for one raw `mcp_servers` entry (empty when valid)."""
    if not isinstance(server, dict):
        return ["mcp server config must be an object"]
    messages = validate_server_type(server.get("type"))
    messages += validate_server_url(server.get("type"), server.get("url"))
    messages += validate_stdio_fields(server)
    messages += validate_server_headers(server.get("headers"))
    messages += validate_tool_timeout(server.get("tool_timeout_s"))
    key = optional_field(server, "dedup_key", "")
    preferred = optional_field(server, "dedup_preferred", False)
    if not isinstance(key, str):
        messages.append("dedup_key must be a string")
        key = ""
    if not isinstance(preferred, bool):
        messages.append("dedup_preferred must be a boolean")
        preferred = False
    messages += validate_dedup_key(key)
    messages += validate_dedup_preferred(key, preferred)
    return messages


def server_validation_error(messages: list[str]) -> InvalidConfig:
    """Messages over all servers: de-duplicated, sorted, joined with "; ", wrapped."""
    joined = "; ".join(sorted(set(messages)))
    return InvalidConfig(f"mcp server config validation failed: {joined}")


def validate_max_tool_turns(value: object, default: int) -> int:
    """The turn cap: absent/null -> `default`, 0 -> unlimited, else a non-negative int."""
    if value is None:
        return default
    # bool is an int subclass in Python; JSON true is not a number of turns.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidConfig(f"max_tool_turns must be a non-negative integer, got {json.dumps(value)}")
    return value


def parse_model_config(raw: object) -> ModelConfig:
    """The `model` object: base_url, api_key and name, all strings."""
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(k), str) for k in ("base_url", "api_key", "name")
    ):
        raise InvalidConfig("model must be an object with string base_url, api_key and name")
    return ModelConfig(base_url=raw["base_url"], api_key=raw["api_key"], name=raw["name"])


def parse_server(server_id: str, raw: Mapping[str, Any]) -> RegisteredServer:
    """Build the registered server from an entry that passed validate_server_config."""
    stdio = raw["type"] == "stdio"
    return RegisteredServer(
        id=server_id,
        type=raw["type"],
        url="" if stdio else raw["url"],
        headers=dict(optional_field(raw, "headers", {})),
        dedup_key=optional_field(raw, "dedup_key", ""),
        dedup_preferred=optional_field(raw, "dedup_preferred", False),
        command=raw["command"] if stdio else "",
        args=tuple(optional_field(raw, "args", [])) if stdio else (),
        env=dict(optional_field(raw, "env", {})) if stdio else {},
        cwd=optional_field(raw, "cwd", None) if stdio else None,
        tool_timeout_s=optional_field(raw, "tool_timeout_s", None),
    )


def parse_servers(raw: object) -> tuple[RegisteredServer, ...]:
    """Validate every `mcp_servers` entry, then parse them (ids in the given order)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise InvalidConfig("mcp_servers must be an object")
    messages: list[str] = []
    for server in raw.values():
        messages += validate_server_config(server)
    if messages:
        raise server_validation_error(messages)
    return tuple(parse_server(server_id, server) for server_id, server in raw.items())


def parse_config(raw: object, default_max_tool_turns: int) -> AgentConfig:
    """Parse and validate CONFIG; raises InvalidConfig without contacting anything."""
    if not isinstance(raw, dict):
        raise InvalidConfig("config must be a JSON object")
    model = parse_model_config(raw.get("model"))
    instruction = raw.get("instruction", "")
    if not isinstance(instruction, str):
        raise InvalidConfig("instruction must be a string")
    servers = parse_servers(raw.get("mcp_servers"))
    max_tool_turns = validate_max_tool_turns(raw.get("max_tool_turns"), default_max_tool_turns)
    return AgentConfig(model=model, instruction=instruction, servers=servers, max_tool_turns=max_tool_turns)
