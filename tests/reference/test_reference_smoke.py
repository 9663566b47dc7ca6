"""Smoke tests of the reference runtime through its protocol v1 adapter.

Each test runs over both transports: in-process (`py:` spec, a long-lived
event loop in a thread) and the JSON Lines subprocess.
"""

from __future__ import annotations

from .conftest import Driver, SubprocessDriver, make_config
from .fakes import McpServers, ModelEndpoint, tool_call


def test_tool_call_round_trip(
    driver: Driver, model: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    config = make_config(
        model, token, {"alpha": {"type": "http", "url": mcp_servers.url(token, "alpha", "x=1")}}
    )
    assert driver.call({"op": "hello", "protocol": 1})["ok"] is True
    assert driver.call({"op": "build", "id": "a1", "config": config}) == {"ok": True}
    assert model.token_requests(token) == []  # build makes no model request

    model.script[:] = [
        {"content": "looking", "tool_calls": [tool_call("c1", "lookup", '{"q":"x"}')]},
        {"content": "the answer is alpha:x"},
    ]
    response = driver.call({"op": "run", "id": "a1", "input": "find x"})
    assert response == {"ok": True, "output": "the answer is alpha:x", "stop_reason": "completed"}

    first, second = model.token_requests(token)
    assert first["messages"] == [
        {"role": "system", "content": "You are a test agent."},
        {"role": "user", "content": "find x"},
    ]
    lookup = next(t for t in first["tools"] if t["function"]["name"] == "lookup")
    assert lookup["function"]["parameters"]["properties"]["q"] == {"type": "string"}
    assert second["messages"][2:] == [
        {
            "role": "assistant",
            "content": "looking",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"x"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "alpha:x"},
    ]
    calls = [
        hit for hit in mcp_servers.token_hits(token) if hit.body and hit.body.get("method") == "tools/call"
    ]
    assert [(hit.query, hit.body["params"]["name"], hit.body["params"]["arguments"]) for hit in calls] == [
        ("x=1", "lookup", {"q": "x"})
    ]
    assert driver.call({"op": "close", "id": "a1"}) == {"ok": True}


def test_duplicate_tool_fails_build(
    driver: Driver, model: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    config = make_config(
        model,
        token,
        {
            "one": {"type": "http", "url": mcp_servers.url(token, "alpha")},
            "two": {"type": "http", "url": mcp_servers.url(token, "beta")},
        },
    )
    response = driver.call({"op": "build", "id": "d1", "config": config})
    assert response == {
        "ok": False,
        "error": {"kind": "duplicate_tool", "message": 'duplicate tool: "lookup"'},
    }
    assert model.token_requests(token) == []


def test_dedup_preferred_survivor(
    driver: Driver, model: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    scoped = mcp_servers.url(token, "alpha", f"balda_context={token}")
    config = make_config(
        model,
        token,
        {
            "balda": {"type": "http", "url": mcp_servers.url(token, "beta"), "dedup_key": "K"},
            f"balda-session-memory-{token}": {
                "type": "http",
                "url": scoped,
                "dedup_key": "K",
                "dedup_preferred": True,
            },
        },
    )
    assert driver.call({"op": "build", "id": "s1", "config": config}) == {"ok": True}
    model.script[:] = [{"tool_calls": [tool_call("c1", "lookup", '{"q":"m"}')]}, {"content": "ok"}]
    assert driver.call({"op": "run", "id": "s1", "input": "go"})["output"] == "ok"
    hits = mcp_servers.token_hits(token)
    assert hits and {(hit.route, hit.query) for hit in hits} == {("alpha", f"balda_context={token}")}
    assert model.token_requests(token)[1]["messages"][-1]["content"] == "alpha:m"


def test_subprocess_survives_bad_requests_and_exits_on_eof() -> None:
    driver = SubprocessDriver("reference-prefix")
    try:
        for line in (b"not json", b"[]", b'{"op": "nope"}', b'{"op": "run", "id": "x", "input": "hi"}'):
            response = driver.send_line(line)
            assert response["ok"] is False and response["error"]["kind"] == "internal"
        hello = driver.call({"op": "hello", "protocol": 1})
        assert hello["options"]["tool_namespacing"] == "prefix"
    finally:
        assert driver.stop() == 0
