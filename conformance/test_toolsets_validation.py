"""Config validation of the dedup fields, and the reference's pinned messages (CONTRACT.md §5, §14).

Every case here fails at build: the suite pins the kind and that no MCP
request was made. Messages are contract for the reference candidate only
(`tp-err-reference-messages`); every other candidate gets not_testable there.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolproof.connect.candidate import Outcome
from toolproof.plugin.scenario import ABSENT, Scenario

from .toolsets_support import tenant_server

DEDUP = "toolsets.dedup_key"
REFERENCE = "toolproof-reference"


def _expect_rejected(tp: Scenario, check_id: str, build: Outcome, kind: str) -> None:
    """The build failed with `kind`, and no MCP request of any kind was made for it."""
    tp.expect_outcome(check_id, build, {"ok": False, "kind": kind}, what="build")
    tp.expect(
        check_id,
        [(r.method, r.route, r.query) for r in tp.mcp_requests()],
        [],
        what="MCP requests made for this build",
    )


@pytest.mark.checks("dedup.conflict-at-build")
@pytest.mark.capability(DEDUP)
def test_two_preferred_members_conflict_at_build(tp: Scenario) -> None:
    """Two preferred members of one group: dedup_conflict, before any server is contacted."""
    build = tp.build(
        tp.config(
            {
                "alpha": tp.server("alpha"),
                "p-two": tenant_server(tp, "p2", dedup_key="K", dedup_preferred=True),
                "p-one": tenant_server(tp, "p1", dedup_key="K", dedup_preferred=True),
            }
        ),
        judged=True,
    )
    _expect_rejected(tp, "dedup.conflict-at-build", build, "dedup_conflict")


@pytest.mark.parametrize("key", [ABSENT, "", " \t "], ids=["absent", "empty", "blank"])
@pytest.mark.checks("dedup.preferred-requires-key")
@pytest.mark.capability(DEDUP)
def test_preferred_without_key_is_invalid(tp: Scenario, key: Any) -> None:
    """dedup_preferred true with no real key: invalid_config, nothing contacted."""
    lonely = tenant_server(tp, "lonely", dedup_key=key, dedup_preferred=True)
    build = tp.build(tp.config({"alpha": tp.server("alpha"), "lonely": lonely}), judged=True)
    _expect_rejected(tp, "dedup.preferred-requires-key", build, "invalid_config")


@pytest.mark.parametrize("key", [" ", "\t", " \r\n\x0b\x0c "], ids=["space", "tab", "mixed"])
@pytest.mark.checks("dedup.blank-key-rejected")
@pytest.mark.capability(DEDUP)
def test_blank_key_is_invalid(tp: Scenario, key: str) -> None:
    """A whitespace-only key (no preference): invalid_config, nothing contacted."""
    build = tp.build(
        tp.config({"alpha": tp.server("alpha"), "blank": tenant_server(tp, "blank", dedup_key=key)}),
        judged=True,
    )
    _expect_rejected(tp, "dedup.blank-key-rejected", build, "invalid_config")


@pytest.mark.checks("err.several-invalid-config")
def test_several_broken_rules_are_one_invalid_config(tp: Scenario) -> None:
    """Preferred without key and a blank key (and a negative cap, when the cap is claimed) at once:
    invalid_config, nothing contacted.

    Only rules of claimed features: a non-claimer's adapter refuses an unclaimed field itself
    (PROTOCOL.md §7), and a check decided on that refusal would judge the adapter, not the runtime.
    """
    if DEDUP not in tp.declared.capabilities:
        tp.not_testable(
            "err.several-invalid-config",
            "needs two rules the runtime itself validates (the dedup_key rules): the candidate does not "
            "claim toolsets.dedup_key, and its adapter refuses the fields on its own",
        )
        return
    servers = {
        "preferred": tenant_server(tp, "p", dedup_preferred=True),
        "blank": tenant_server(tp, "b", dedup_key=" "),
    }
    capped = "loop.turn_cap" in tp.declared.capabilities
    config = tp.config(servers, max_tool_turns=-1) if capped else tp.config(servers)
    build = tp.build(config, judged=True)
    _expect_rejected(tp, "err.several-invalid-config", build, "invalid_config")


@pytest.mark.checks("dedup.unsupported-key-rejected")
def test_non_claimer_rejects_dedup_fields(tp: Scenario) -> None:
    """A runtime without dedup rejects a key, and a preference, instead of ignoring them."""
    if DEDUP in tp.declared.capabilities:
        tp.not_testable("dedup.unsupported-key-rejected", "the candidate claims toolsets.dedup_key")
        return
    keyed = tp.build(tp.config({"alpha": tp.server("alpha", dedup_key="K")}), judged=True)
    tp.expect_outcome(
        "dedup.unsupported-key-rejected", keyed, {"ok": False, "kind": "invalid_config"}, what='dedup_key "K"'
    )
    other = tp.sibling()
    preferred = other.build(other.config({"alpha": other.server("alpha", dedup_preferred=True)}), judged=True)
    tp.expect_outcome(
        "dedup.unsupported-key-rejected",
        preferred,
        {"ok": False, "kind": "invalid_config"},
        what="dedup_preferred true",
    )


# -- tp-err-reference-messages (the reference candidate only) ------------------------

MESSAGE_CHECKS = (
    "err.reference-message-validation",
    "err.reference-message-dedup-conflict",
    "err.reference-message-duplicate-tool",
)


def _expect_message(tp: Scenario, check_id: str, servers: dict[str, Any], pinned: str) -> None:
    """Build `servers` on a fresh token; the error message contains `pinned`."""
    scenario = tp.sibling()
    build = scenario.build(
        scenario.config({sid: make(scenario) for sid, make in servers.items()}), judged=True
    )
    message = build.message or ""
    tp.expect(check_id, pinned in message, True, what=f"error message {message!r} contains {pinned!r}")


@pytest.mark.checks(*MESSAGE_CHECKS)
def test_reference_pins_upstream_messages(tp: Scenario) -> None:
    """The upstream wording, Go %q quoting and byte-wise ordering, for the reference only."""
    if tp.declared.implementation.get("name") != REFERENCE:
        for check_id in MESSAGE_CHECKS:
            tp.not_testable(
                check_id, "messages are pinned for the reference candidate only (tp-err-reference-messages)"
            )
        return
    _expect_message(
        tp,
        "err.reference-message-validation",
        {"lonely": lambda s: s.server("alpha", dedup_preferred=True)},
        "mcp server config validation failed: dedup_preferred requires dedup_key",
    )
    _expect_message(
        tp,
        "err.reference-message-validation",
        {
            "preferred": lambda s: s.server("alpha", dedup_preferred=True),
            "blank": lambda s: s.server("beta", dedup_key=" "),
        },
        "mcp server config validation failed: "
        "dedup_key must have at least 1 character; dedup_preferred requires dedup_key",
    )
    _expect_message(
        tp,
        "err.reference-message-dedup-conflict",
        {
            "ω-second": lambda s: tenant_server(s, "w", dedup_key="clé", dedup_preferred=True),
            "a-first": lambda s: tenant_server(s, "a", dedup_key="clé", dedup_preferred=True),
        },
        'mcp dedup key "clé" has multiple preferred configs: "a-first" and "ω-second"',
    )
    if tp.option("tool_namespacing") != "error":
        tp.not_testable(
            "err.reference-message-duplicate-tool",
            "the profile declares tool_namespacing prefix: no duplicate",
        )
        return
    _expect_message(
        tp,
        "err.reference-message-duplicate-tool",
        {"alpha": lambda s: s.server("alpha"), "beta": lambda s: s.server("beta")},
        'duplicate tool: "lookup"',
    )
