"""Hydration: a registered server config -> the config the toolsets are built from.

Historical bug (normahq/runtime): hydration copied url and headers but not the
dedup fields, so dedup never fired through the real build path. Every field is
carried here, in one place: the transport's own (url and headers; command,
args, env and cwd), the tool timeout, as much as the dedup metadata.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .config import RegisteredServer


@dataclass(frozen=True)
class ServerConfig:
    """The config used at build: what dedup and the MCP toolsets read."""

    id: str
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    dedup_key: str = ""
    dedup_preferred: bool = False
    type: str = "http"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    tool_timeout_s: float | None = None


def hydrate_server_config(registered: RegisteredServer) -> ServerConfig:
    """Turn one registered server into its build-time config, dedup metadata included."""
    return ServerConfig(
        id=registered.id,
        url=registered.url,
        headers=dict(registered.headers),
        dedup_key=registered.dedup_key,
        dedup_preferred=registered.dedup_preferred,
        type=registered.type,
        command=registered.command,
        args=registered.args,
        env=dict(registered.env),
        cwd=registered.cwd,
        tool_timeout_s=registered.tool_timeout_s,
    )


def hydrate_servers(registered: tuple[RegisteredServer, ...]) -> list[ServerConfig]:
    """Hydrate every registered server, keeping their order."""
    return [hydrate_server_config(server) for server in registered]
