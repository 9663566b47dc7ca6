"""Tool lists that change during a run (CONTRACT.md §5c; contracts/requirements/lists.yaml).

The `shifting` server declares `tools.listChanged`. Its tools are `shift_tools`, `stale_tool` and
`steady_tool`, two a page; a call of `shift_tools` changes that build's list (`stale_tool` gone,
`fresh_tool` added, still two pages) and sends `notifications/tools/list_changed`. When the
changed list reaches the model is declared (`tool_list_refresh`): the checks pin exactly that.
A call the model makes to the removed tool, once the runtime no longer offers it, is a call to an
unoffered name (`unknown_tool`). `beta` declares no listChanged: it is listed only as the declared
policy asks (a SHOULD).
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from toolproof.fakes import Call, McpRequest, StaleCall, Text
from toolproof.plugin.scenario import Scenario

from ._calls import FINAL_TEXT, answered, expect_not_called_path
from .test_wire import markers_offered

REFRESH: Final = "mcp.list-refresh"
REMOVED: Final = "mcp.list-removed-unknown"
NEEDLESS: Final = "mcp.list-no-needless-relist"

BEFORE: Final = ["[tp:shifting/shift_tools]", "[tp:shifting/stale_tool]", "[tp:shifting/steady_tool]"]
AFTER: Final = ["[tp:shifting/fresh_tool]", "[tp:shifting/shift_tools]", "[tp:shifting/steady_tool]"]
FIRST_TEXT: Final = "The first run is over."


def _calls_received(tp: Scenario) -> list[Any]:
    """(route, tool name) of every tools/call any server received for this build, in order."""
    return [
        (r.route, r.rpc_params.get("name") if isinstance(r.rpc_params, dict) else None)
        for r in tp.tool_calls_received()
    ]


def _cursor(record: McpRequest) -> Any:
    """The cursor a tools/list request carries (None: the first page, the start of one listing)."""
    params = record.rpc_params
    return params.get("cursor") if isinstance(params, dict) else None


def _listings(tp: Scenario, route: str) -> list[str]:
    """The listings of `route`'s tools this build has made so far (first pages only), each as
    its JSON-RPC method and transport (a failing check shows them)."""
    return [
        f"tools/list over {r.transport}"
        for r in tp.mcp_requests(route)
        if r.rpc_method == "tools/list" and _cursor(r) is None
    ]


@pytest.mark.checks("mcp.list-refresh", "mcp.list-removed-unknown")
@pytest.mark.capability("model.*")
def test_a_changed_list_reaches_the_model_as_declared(tp: Scenario) -> None:
    """Run 1 calls shift_tools. `per_run`: run 1's next request still offers the old list, run 2's
    first the new one, where the model calls stale_tool. `on_notification`: the next request of
    run 1 offers the new list and the model calls stale_tool there. `never`: the old list stays."""
    refresh = tp.option("tool_list_refresh")
    shift = Call("shifting/shift_tools")
    if refresh == "per_run":
        tp.script(shift, Text(FIRST_TEXT), StaleCall("shifting/stale_tool", '{"q": "x"}'), Text(FINAL_TEXT))
        expected = [BEFORE, BEFORE, AFTER]
    elif refresh == "on_notification":
        tp.script(shift, StaleCall("shifting/stale_tool", '{"q": "x"}'), Text(FINAL_TEXT))
        expected = [BEFORE, AFTER]
    else:
        tp.script(shift, Text(FIRST_TEXT), Text(FINAL_TEXT))
        expected = [BEFORE, BEFORE, BEFORE]
    tp.build(tp.config({"shifting": tp.server("shifting")}))
    if refresh == "on_notification":  # the removed tool is called in this run: its outcome is judged
        judged = tp.run("Change the tool list, then use the new tools.", judged=True)
    else:
        tp.run("Change the tool list.")
        judged = tp.run("Now use the new tools.", judged=refresh == "per_run")
    tp.expect_needed(
        REFRESH,
        [markers_offered(r.view) for r in answered(tp)][: len(expected)],
        expected,
        what=f"markers offered by each model request, in order (tool_list_refresh {refresh}; "
        "shift_tools was called in reply to the first)",
    )
    if refresh == "never":
        tp.not_testable(REMOVED, "declares tool_list_refresh never: the removed tool stays offered")
        return
    tp.expect(
        REMOVED,
        _calls_received(tp),
        [("shifting", "shift_tools")],
        what="tools/call requests the servers received (stale_tool, no longer offered, must reach none)",
    )
    expect_not_called_path(
        tp,
        REMOVED,
        tp.option("unknown_tool"),
        judged,
        what="a call to the removed tool",
        turn=len(expected) - 1,
    )


@pytest.mark.checks("mcp.list-no-needless-relist")
@pytest.mark.capability("model.*")
def test_a_server_without_list_changed_is_not_listed_needlessly(tp: Scenario) -> None:
    """`beta` declares no listChanged while `shifting`'s list changes in run 1 (its notification
    sent). Needless: a listing of beta beyond the policy's. `per_run`: beyond the first of each run
    (one at build is not judged); `on_notification` and `never`: beyond the first of the agent's
    life. Too few listings are not needless (the tools the model is offered judge those)."""
    tp.script(Call("shifting/shift_tools"), Text(FIRST_TEXT), Text(FINAL_TEXT))
    tp.build(tp.config({"shifting": tp.server("shifting"), "beta": tp.server("beta")}))
    at_build = _listings(tp, "beta")
    tp.run("Change the tool list.")
    in_first = _listings(tp, "beta")[len(at_build) :]
    tp.run("Just answer.")
    in_second = _listings(tp, "beta")[len(at_build) + len(in_first) :]
    refresh = tp.option("tool_list_refresh")
    calls = _calls_received(tp)
    if refresh == "per_run":
        tp.expect(
            NEEDLESS,
            {"calls": calls, "needless listings of beta": [in_first[1:], in_second[1:]]},
            {"calls": [("shifting", "shift_tools")], "needless listings of beta": [[], []]},
            what="declared per_run: listings of beta (no listChanged) after the first of each run",
        )
    else:
        tp.expect(
            NEEDLESS,
            {"calls": calls, "needless listings of beta": [*at_build, *in_first, *in_second][1:]},
            {"calls": [("shifting", "shift_tools")], "needless listings of beta": []},
            what=f"declared {refresh}: listings of beta (no listChanged) after its first",
        )
