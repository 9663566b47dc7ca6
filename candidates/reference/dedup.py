"""Dedup of MCP servers by explicit `dedup_key` (upstream-contracts §2).

Identity is the key only: URLs and headers are never looked at, so distinct
tenants (query or Authorization) stay distinct servers.
"""

from __future__ import annotations

from .errors import DedupConflict
from .hydrate import ServerConfig


def dedup_visit_order(servers: list[ServerConfig]) -> list[ServerConfig]:
    """Servers in byte-wise order of their ids (Go string order, not Unicode collation)."""
    return sorted(servers, key=lambda server: server.id.encode("utf-8"))


def dedup_group_key(server: ServerConfig) -> str:
    """The group key of a server: its dedup_key, raw and opaque (no trimming, no URL)."""
    return server.dedup_key


def key_groups(key: str) -> bool:
    """An empty or whitespace-only key never groups."""
    return key.strip() != ""


def dedup_servers(servers: list[ServerConfig]) -> list[ServerConfig]:
    """The surviving servers, in visit order; DedupConflict for two preferred in a group.

    The first id seen keeps a key unless a later one is preferred, which then
    replaces it; a preferred keeper is never replaced.
    """
    keepers: dict[str, ServerConfig] = {}
    survivors: list[ServerConfig] = []
    for server in dedup_visit_order(servers):
        key = dedup_group_key(server)
        if not key_groups(key):
            survivors.append(server)
            continue
        keeper = keepers.get(key)
        if keeper is None:
            keepers[key] = server
        elif server.dedup_preferred:
            if keeper.dedup_preferred:
                raise DedupConflict(key, keeper.id, server.id)
            keepers[key] = server
    kept = survivors + list(keepers.values())
    return dedup_visit_order(kept)
