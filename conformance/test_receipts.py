"""Tool receipts (contracts/requirements/loop.yaml, CONTRACT.md §13).

Seed: the QQ plugin returned exactly `ok`, but HomeAgent's plugin bridge
replaced it with a forged `{status: sent}` (`ok` is not a JSON object) and
the core wrapped it as `已通过 [qq] 通道发送: map[status:sent]`. The model
read that rich receipt as "go on" and called `output_send__qq` again, 80+
times in one turn. An output-channel tool is an ordinary tool: called with
the model's arguments, its text passed on unchanged.
"""

from __future__ import annotations

import json

import pytest

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.plugin.scenario import Scenario, answers_in_call_order, tool_texts

QQ_ARGUMENTS = [
    {"channel": "qq", "text": "你好，这是第一条消息。"},
    {"channel": "qq", "text": "Second, longer message."},
]


@pytest.mark.checks("receipt.output-tool-called", "receipt.ok-verbatim")
@pytest.mark.capability("model.*")
def test_output_channel_receipt_is_exactly_ok(tp: Scenario) -> None:
    """Two rounds of output_send__qq: each call reaches the server, each receipt is exactly `ok`."""
    calls = [Call("alpha/output_send__qq", json.dumps(a, ensure_ascii=False)) for a in QQ_ARGUMENTS]
    tp.script(*calls, Text("Both messages are out."))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run("Send the user two messages on qq.")
    received = [
        {"name": r.rpc_params.get("name"), "arguments": r.rpc_params.get("arguments")}
        for r in tp.tool_calls_received("alpha")
    ]
    tp.expect(
        "receipt.output-tool-called",
        received,
        [{"name": "output_send__qq", "arguments": a} for a in QQ_ARGUMENTS],
        what="tools/call requests at the alpha route (MCP name, arguments)",
    )
    bodies = tp.model_bodies()
    tp.expect(
        "receipt.ok-verbatim",
        tool_texts(bodies[-1], tp.declared) if bodies else [],
        ["ok", "ok"],
        what="the tool texts in the last model request (two output_send__qq receipts)",
    )


@pytest.mark.checks("receipt.no-synthesized-status")
@pytest.mark.capability("openai.*")
def test_no_status_is_synthesized_for_empty_or_scalar_results(tp: Scenario) -> None:
    """Seed: an empty or non-object plugin result became `{status: sent}`. Scalars pass unchanged."""
    results = ["", "42", '"ok"']
    calls = tuple(Call("alpha/echo_text", json.dumps({"text": r})) for r in results)
    tp.script(ToolCalls(calls), Text("done"))
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run("Echo three things.")
    bodies = tp.model_bodies()
    tp.expect(
        "receipt.no-synthesized-status",
        answers_in_call_order(bodies[-1], tp.declared) if bodies else [],
        ["", "42", '"ok"'],
        what="the tool texts of echo_text('' / '42' / '\"ok\"') in the next model request",
    )
