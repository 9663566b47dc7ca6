"""An invalid `max_tool_turns`, rejected in the declared phase (`invalid_cap_phase`).

Most runtimes take their cap with the agent and reject a bad one at build; some take it as an
argument of each run (openai-agents' `max_turns`, pydantic-ai's `UsageLimits`), and can only
reject it at the first run, before any model request. Both are correct; the candidate declares
which, and the checks assert exactly that (CONTRACT.md `tp-loop-cap-invalid`). A negative cap
declared `rejected` (`negative_max_tool_turns`) must never reach the model whatever the error
(`tp-loop-cap-negative`): that check pins `ok` false and the traffic, not the kind.
"""

from __future__ import annotations

from typing import Any

from toolproof.plugin.scenario import Scenario


def expect_cap_rejected(
    tp: Scenario, check_id: str, config: dict[str, Any], *, what: str, any_kind: bool = False
) -> None:
    """Build `config` (its cap is invalid for this candidate) and judge the rejection under `check_id`.

    `build`: the build fails with invalid_config and contacts nothing. `run`: the build succeeds,
    and the first run fails with invalid_config before any model request (listing the MCP tools at
    build is the runtime's business). `any_kind`: the failure's kind is not this check's concern.
    """
    failed: dict[str, Any] = {"ok": False} if any_kind else {"ok": False, "kind": "invalid_config"}
    build = tp.build(config, judged=True)
    if tp.option("invalid_cap_phase") == "build":
        tp.expect_outcome(check_id, build, failed, what=f"build with {what}")
        tp.expect(
            check_id,
            {"mcp requests": len(tp.mcp_requests()), "model requests": len(tp.model_requests())},
            {"mcp requests": 0, "model requests": 0},
            what=f"build with {what}: nothing contacted",
        )
        return
    tp.expect_outcome(
        check_id, build, {"ok": True}, what=f"build with {what} (declared invalid_cap_phase run)"
    )
    run = tp.run("Use the tools.", judged=True)
    tp.expect_outcome(check_id, run, failed, what=f"first run with {what}")
    tp.expect(check_id, len(tp.model_requests()), 0, what=f"first run with {what}: model requests")
