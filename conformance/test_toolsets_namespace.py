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
from toolproof.plugin.scenario import Scenario

from .toolsets_support import (
    build_and_run,
    expect_duplicate_reported,
    expect_offered_apart,
    tool_calls_by_route,
)

ERROR_CHECK = "ns.duplicate-error-outcome"
PREFIX_CHECKS = ("ns.duplicate-prefix-offered", "ns.duplicate-prefix-call-own-server")


def _lookup_calls(routes: tuple[str, ...]) -> ToolCalls:
    """One batch calling `lookup` on every route, by marker, each with its own argument."""
    return ToolCalls(tuple(Call(f"{route}/lookup", f'{{"q": "{route}-q"}}') for route in routes))


def _one_server_per_route(tp: Scenario, routes: tuple[str, ...]) -> tuple[Outcome, Outcome]:
    """Build one server per route (server id = route) and run once if the build succeeded."""
    return build_and_run(tp, {route: tp.server(route) for route in routes}, "Look it up everywhere.")


def _duplicate_case(tp: Scenario, routes: tuple[str, ...]) -> None:
    """Every route exposes `lookup`: the declared namespacing outcome, exactly."""
    if tp.option("tool_namespacing") == "error":
        tp.script(Text("done"))
        build, run = _one_server_per_route(tp, routes)
        for check_id in PREFIX_CHECKS:
            tp.not_testable(check_id, "the candidate declares tool_namespacing error")
        expect_duplicate_reported(tp, ERROR_CHECK, build, run)
        return
    tp.script(_lookup_calls(routes), Text("done"))
    build, run = _one_server_per_route(tp, routes)
    tp.not_testable(ERROR_CHECK, "the candidate declares tool_namespacing prefix")
    expect_offered_apart(tp, "ns.duplicate-prefix-offered", run, [f"{route}/lookup" for route in routes])
    tp.expect(
        "ns.duplicate-prefix-call-own-server",
        tool_calls_by_route(tp, routes),
        {route: [{"name": "lookup", "arguments": {"q": f"{route}-q"}}] for route in routes},
        what="tools/call requests per route after one batch calling each server's lookup",
    )


@pytest.mark.checks(ERROR_CHECK, *PREFIX_CHECKS)
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("openai.*")
def test_same_tool_name_on_two_servers(tp: Scenario) -> None:
    """alpha and beta both expose `lookup`."""
    _duplicate_case(tp, ("alpha", "beta"))


@pytest.mark.checks(ERROR_CHECK, *PREFIX_CHECKS)
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("openai.*")
def test_same_tool_name_on_three_servers(tp: Scenario) -> None:
    """alpha, beta and gamma all expose `lookup`."""
    _duplicate_case(tp, ("alpha", "beta", "gamma"))


@pytest.mark.checks("ns.case-distinct-offered", "ns.case-distinct-call-own-server")
@pytest.mark.capability("toolsets.namespace")
@pytest.mark.capability("openai.*")
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
