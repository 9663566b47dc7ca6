"""Tool namespacing: one MCP name on several servers is never silently shadowed (CONTRACT.md §4).

Observed at the model endpoint (what is offered, and whether any request is
made at all) and at the MCP servers (which route receives each `tools/call`,
under which MCP name). Every test asserts exactly the declared
`tool_namespacing` branch and records the other branch as not_testable.
"""

from __future__ import annotations

import pytest

from toolproof.connect.candidate import Outcome
from toolproof.fakes import Call, Text, ToolCalls
from toolproof.fakes.mcp_tools import COLLIDE_TOOLS
from toolproof.plugin.scenario import Scenario

from .toolsets_support import (
    DuplicateChecks,
    build_and_run,
    duplicate_lookup_case,
    expect_duplicate_reported,
    expect_offered_apart,
    tool_calls_by_route,
)

ERROR_CHECK = "ns.duplicate-error-outcome"
PREFIX_CHECKS = ("ns.duplicate-prefix-offered", "ns.duplicate-prefix-call-own-server")
DUPLICATE_CHECKS = DuplicateChecks(ERROR_CHECK, *PREFIX_CHECKS)


def _one_server_per_route(tp: Scenario, routes: tuple[str, ...]) -> tuple[Outcome, Outcome]:
    """Build one server per route (server id = route) and run once if the build succeeded."""
    return build_and_run(tp, {route: tp.server(route) for route in routes}, "Look it up everywhere.")


def _duplicate_case(tp: Scenario, routes: tuple[str, ...]) -> None:
    """Every route exposes `lookup`: the declared namespacing outcome, exactly."""
    duplicate_lookup_case(tp, routes, DUPLICATE_CHECKS)


@pytest.mark.checks(ERROR_CHECK, *PREFIX_CHECKS)
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("model.*")
def test_same_tool_name_on_two_servers(tp: Scenario) -> None:
    """alpha and beta both expose `lookup`."""
    _duplicate_case(tp, ("alpha", "beta"))


@pytest.mark.checks(ERROR_CHECK, *PREFIX_CHECKS)
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("model.*")
def test_same_tool_name_on_three_servers(tp: Scenario) -> None:
    """alpha, beta and gamma all expose `lookup`."""
    _duplicate_case(tp, ("alpha", "beta", "gamma"))


@pytest.mark.checks("ns.case-distinct-offered", "ns.case-distinct-call-own-server")
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("model.*")
def test_names_differing_in_case_are_not_duplicates(tp: Scenario) -> None:
    """alpha `lookup` and cased `Lookup`: both offered, each call reaches its own server."""
    tp.script(
        ToolCalls((Call("alpha/lookup", '{"q": "lower"}'), Call("cased/Lookup", '{"q": "upper"}'))),
        Text("done"),
    )
    _, run = _one_server_per_route(tp, ("alpha", "cased"))
    expect_offered_apart(tp, "ns.case-distinct-offered", run, ["alpha/lookup", "cased/Lookup"])
    tp.expect(
        "ns.case-distinct-call-own-server",
        tool_calls_by_route(tp, ("alpha", "cased")),
        {
            "alpha": [{"name": "lookup", "arguments": {"q": "lower"}}],
            "cased": [{"name": "Lookup", "arguments": {"q": "upper"}}],
        },
        what="tools/call requests per route after one batch calling alpha/lookup and cased/Lookup",
    )


COLLIDE_ROUTES = ("collide_one", "collide_two")
COLLIDE_MARKERS = [f"{route}/{tool}" for route in COLLIDE_ROUTES for tool in COLLIDE_TOOLS]
SEPARATORS = {"underscore": "_", "double-underscore": "__", "hyphen": "-"}
"""The separators a runtime may join `<server>` and `<tool>` with (the reference uses `__`)."""


@pytest.mark.checks(ERROR_CHECK, *PREFIX_CHECKS)
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("model.*")
@pytest.mark.parametrize("separator", list(SEPARATORS))
def test_prefixed_names_that_collide_stay_apart(tp: Scenario, separator: str) -> None:
    """Servers `a<sep>b` (collide_one) and `a` (collide_two) both expose `c`, `b_c`, `b__c` and `b-c`.

    Joined with that separator, `a<sep>b` + `c` and `a` + `b<sep>c` spell one name (`a_b_c`): under
    prefix every one of the eight tools is still offered under its own wire name, and a call to each
    of the two reaches its own server (issue 22 §6). Under error, the shared names are duplicates.
    """
    sep = SEPARATORS[separator]
    servers = {f"a{sep}b": tp.server("collide_one"), "a": tp.server("collide_two")}
    if tp.option("tool_namespacing") == "error":
        tp.script(Text("done"))
        build, run = build_and_run(tp, servers, "Look it up.")
        for check_id in PREFIX_CHECKS:
            tp.not_testable(check_id, "the candidate declares tool_namespacing error")
        expect_duplicate_reported(tp, ERROR_CHECK, build, run)
        return
    # Built to show unique-function-names the colliding pair: a pass without them offered would
    # rest on other tests' names.
    tp.must_show("wire.unique-function-names", *COLLIDE_MARKERS)
    tp.script(
        ToolCalls((Call("collide_one/c", '{"q": "one"}'), Call(f"collide_two/b{sep}c", '{"q": "two"}'))),
        Text("done"),
    )
    build, run = build_and_run(tp, servers, "Look it up on both.")
    tp.not_testable(ERROR_CHECK, "the candidate declares tool_namespacing prefix")
    expect_offered_apart(tp, "ns.duplicate-prefix-offered", run, COLLIDE_MARKERS)
    tp.expect(
        "ns.duplicate-prefix-call-own-server",
        tool_calls_by_route(tp, COLLIDE_ROUTES),
        {
            "collide_one": [{"name": "c", "arguments": {"q": "one"}}],
            "collide_two": [{"name": f"b{sep}c", "arguments": {"q": "two"}}],
        },
        what=f"tools/call requests per route after one batch calling a{sep}b's c and a's b{sep}c",
    )
