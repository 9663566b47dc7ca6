"""MCP toolset composition and explicit dedup (contracts/requirements/toolsets.yaml)."""

from __future__ import annotations

import pytest

from conformance.fakes import Call, Text
from conformance.scenario import Scenario, tool_texts


@pytest.mark.checks("dedup.balda-scoped-only", "dedup.balda-call-carries-token")
@pytest.mark.capability("toolsets.dedup_key")
def test_balda_session_memory_golden(tp: Scenario) -> None:
    """Seed ru §3-§5a: the scoped binding must win, through the public build path."""
    key = "balda-bundled-mcp"
    tp.script(Call("balda/session_memory_read", "{}"), Text("remembered"))
    config = tp.config(
        {
            "balda": tp.server("balda", dedup_key=key),
            "balda-session-memory-abc123": tp.server(
                "balda", query="balda_context=abc123", dedup_key=key, dedup_preferred=True
            ),
        }
    )
    build = tp.build(config)
    run = tp.run("What do you remember?") if build.ok else build
    tp.expect_outcome("dedup.balda-scoped-only", run, {"ok": True}, what="build and run of the balda pair")
    tp.expect(
        "dedup.balda-scoped-only",
        sorted({r.query for r in tp.mcp_requests("balda")}),
        ["balda_context=abc123"],
        what="raw query strings of every request the balda route received",
    )
    calls = [(r.query, r.rpc_params.get("name")) for r in tp.tool_calls_received("balda")]
    tp.expect(
        "dedup.balda-call-carries-token",
        calls,
        [("balda_context=abc123", "session_memory_read")],
        what="tools/call requests at the balda route (query, tool)",
    )
    tp.expect(
        "dedup.balda-call-carries-token",
        tool_texts(tp.model_bodies()[-1], tp.declared),
        ["context=abc123"],
        what="what the session-memory tool returned to the model",
    )
