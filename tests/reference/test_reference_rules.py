"""Rule-level tests of the reference runtime: pure functions, and a few runs in-process.

These pin the function that holds each rule (the negative controls patch
those functions), so the reference's own suite notices a re-inserted bug.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from toolproof.candidates.reference.arguments import InvalidArguments, decode_arguments
from toolproof.candidates.reference.config import parse_config, validate_max_tool_turns
from toolproof.candidates.reference.dedup import dedup_servers
from toolproof.candidates.reference.errors import DedupConflict, DuplicateTool, InvalidConfig
from toolproof.candidates.reference.hydrate import ServerConfig, hydrate_servers
from toolproof.candidates.reference.loop import apply_continuation, graceful_stop_output, turn_cap_reached
from toolproof.candidates.reference.messages import HistoryEntry, synthetic_user_message, user_message
from toolproof.candidates.reference.packing import McpTool, alias_wire_name, pack_tools
from toolproof.candidates.reference.schema import lowercase_schema_types

from .conftest import InProcessDriver, make_config
from .fakes import McpServers, ModelEndpoint, tool_call

MODEL = {"base_url": "http://127.0.0.1:1/t/v1", "api_key": "k", "name": "m"}


def config_with(servers: dict[str, object], **extra: object) -> dict[str, object]:
    return {"model": MODEL, "instruction": "", "mcp_servers": servers, **extra}


def server(
    id: str, key: str = "", preferred: bool = False, url: str = "http://127.0.0.1:1/m"
) -> ServerConfig:
    return ServerConfig(id=id, url=url, dedup_key=key, dedup_preferred=preferred)


# --- validation -----------------------------------------------------------------


def test_validation_messages_sorted_deduplicated_wrapped() -> None:
    with pytest.raises(InvalidConfig) as caught:
        parse_config(
            config_with(
                {
                    "a": {"type": "http", "url": "http://127.0.0.1:1/a", "dedup_key": " \t"},
                    "b": {
                        "type": "http",
                        "url": "http://127.0.0.1:1/b",
                        "dedup_key": " ",
                        "dedup_preferred": True,
                    },
                    "c": {"type": "http", "url": "http://127.0.0.1:1/c", "dedup_preferred": True},
                }
            ),
            10,
        )
    assert caught.value.message == (
        "mcp server config validation failed: "
        "dedup_key must have at least 1 character; dedup_preferred requires dedup_key"
    )


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"type": "stdio", "cmd": "x"}, "command is required for stdio type"),
        ({"type": "stdio", "command": "/x", "args": "a b"}, "args must be an array of strings"),
        ({"type": "stdio", "command": "/x", "env": {"A": 1}}, "env must be an object of strings"),
        ({"type": "stdio", "command": "/x", "cwd": 7}, "cwd must be a string"),
        ({"type": "sse"}, "url is required for http/sse type"),
        ({"type": "http"}, "url is required for http/sse type"),
        ({"type": "ws", "url": "http://127.0.0.1:1/w"}, "type must be one of: stdio http sse"),
        (
            {"type": "http", "url": "http://127.0.0.1:1/h", "tool_timeout_s": 0},
            "tool_timeout_s must be a number above 0",
        ),
        (
            {"type": "sse", "url": "http://127.0.0.1:1/s", "tool_timeout_s": "1"},
            "tool_timeout_s must be a number above 0",
        ),
        (
            {"type": "stdio", "command": "/x", "tool_timeout_s": True},
            "tool_timeout_s must be a number above 0",
        ),
    ],
)
def test_unsupported_or_incomplete_server_is_invalid(entry: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidConfig) as caught:
        parse_config(config_with({"s": entry}), 10)
    assert caught.value.message == f"mcp server config validation failed: {message}"


def test_every_transport_parses_with_its_own_fields() -> None:
    config = parse_config(
        config_with(
            {
                "h": {"type": "http", "url": "http://127.0.0.1:1/h", "headers": {"A": "1"}},
                "s": {"type": "sse", "url": "http://127.0.0.1:1/s", "dedup_key": "k"},
                "p": {
                    "type": "stdio",
                    "command": "/bin/x",
                    "args": ["a b", ""],
                    "env": {"E": "v"},
                    "cwd": "/t",
                },
            }
        ),
        10,
    )
    assert [
        (s.id, s.type, s.url, dict(s.headers), s.command, s.args, dict(s.env), s.cwd) for s in config.servers
    ] == [
        ("h", "http", "http://127.0.0.1:1/h", {"A": "1"}, "", (), {}, None),
        ("s", "sse", "http://127.0.0.1:1/s", {}, "", (), {}, None),
        ("p", "stdio", "", {}, "/bin/x", ("a b", ""), {"E": "v"}, "/t"),
    ]


@pytest.mark.parametrize(("value", "expected"), [(None, 10), (0, 0), (3, 3)])
def test_max_tool_turns_accepted(value: object, expected: int) -> None:
    assert validate_max_tool_turns(value, 10) == expected


@pytest.mark.parametrize("value", [True, False, -1, 1.5, "3", 2.0])
def test_max_tool_turns_rejected(value: object) -> None:
    with pytest.raises(InvalidConfig):
        validate_max_tool_turns(value, 10)


def test_hydration_carries_dedup_metadata() -> None:
    agent = parse_config(
        config_with(
            {"s": {"type": "http", "url": "http://127.0.0.1:1/s", "dedup_key": "K", "dedup_preferred": True}}
        ),
        10,
    )
    (hydrated,) = hydrate_servers(agent.servers)
    assert (hydrated.dedup_key, hydrated.dedup_preferred) == ("K", True)


@pytest.mark.parametrize(
    ("raw", "expected"), [({}, None), ({"tool_timeout_s": None}, None), ({"tool_timeout_s": 1.5}, 1.5)]
)
def test_hydration_carries_the_tool_timeout(raw: dict[str, object], expected: object) -> None:
    agent = parse_config(config_with({"s": {"type": "stdio", "command": "/x", **raw}}), 10)
    (hydrated,) = hydrate_servers(agent.servers)
    assert hydrated.tool_timeout_s == expected


# --- dedup ----------------------------------------------------------------------


def ids(servers: list[ServerConfig]) -> list[str]:
    return [s.id for s in servers]


def test_dedup_first_in_byte_order_keeps_key_and_keys_are_raw() -> None:
    servers = [server("b", "K"), server("a", "K"), server("Z", "K"), server("c", " K ")]
    assert ids(dedup_servers(servers)) == ["Z", "c"]


def test_dedup_preferred_replaces_keeper_and_empty_key_never_groups() -> None:
    servers = [server("a", "K"), server("b", "K", True), server("c", "K"), server("d"), server("e")]
    assert ids(dedup_servers(servers)) == ["b", "d", "e"]


def test_dedup_ignores_urls() -> None:
    same = "http://127.0.0.1:1/same"
    assert ids(dedup_servers([server("a", url=same), server("b", url=same)])) == ["a", "b"]


def test_dedup_two_preferred_conflict() -> None:
    with pytest.raises(DedupConflict) as caught:
        dedup_servers([server("z", "K", True), server("m", "K"), server("a", "K", True)])
    assert caught.value.message == 'mcp dedup key "K" has multiple preferred configs: "a" and "z"'


# --- packing and schema ---------------------------------------------------------


def mcp(server_id: str, name: str) -> McpTool:
    return McpTool(server_id=server_id, name=name, description=None, input_schema={"type": "object"})


def test_pack_duplicate_is_exact_and_case_sensitive() -> None:
    assert len(pack_tools([mcp("a", "Lookup"), mcp("b", "lookup")], "error").tools) == 2
    with pytest.raises(DuplicateTool) as caught:
        pack_tools([mcp("a", "lookup"), mcp("b", "lookup")], "error")
    assert caught.value.message == 'duplicate tool: "lookup"'


def test_pack_alias_and_prefix() -> None:
    name = "balda.control.shutdown"
    assert (
        alias_wire_name(name)
        == "runtime_tool_" + __import__("hashlib").sha256(name.encode()).hexdigest()[:12]
    )
    table = pack_tools([mcp("s", name), mcp("s", "x" * 65), mcp("t", "ok-name_1")], "error")
    assert [t.wire_name for t in table.tools] == [
        alias_wire_name(name),
        alias_wire_name("x" * 65),
        "ok-name_1",
    ]
    prefixed = pack_tools([mcp("one", "lookup"), mcp("two", "lookup")], "prefix")
    assert [(t.wire_name, t.original_name) for t in prefixed.tools] == [
        ("one__lookup", "lookup"),
        ("two__lookup", "lookup"),
    ]
    assert pack_tools([mcp("s", "a\n")], "error").tools[0].wire_name == alias_wire_name("a\n")


def test_pack_prefix_collision_aliases_the_later_pair() -> None:
    # `a__b` + `c` and `a` + `b__c` spell one prefixed name: the later is aliased, neither is lost.
    table = pack_tools([mcp("a__b", "c"), mcp("a", "b__c")], "prefix")
    assert [(t.wire_name, t.server_id, t.original_name) for t in table.tools] == [
        ("a__b__c", "a__b", "c"),
        (alias_wire_name("a\x00b__c"), "a", "b__c"),
    ]


def test_lowercase_schema_types() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "a": {"type": "ARRAY", "items": {"type": "INTEGER"}, "default": {"type": "KEEP"}},
            "b": {"anyOf": [{"type": "STRING"}, {"type": "TYPE_UNSPECIFIED"}]},
        },
        "required": ["a"],
    }
    assert lowercase_schema_types(schema) == {
        "type": "object",
        "properties": {
            "a": {"type": "array", "items": {"type": "integer"}, "default": {"type": "KEEP"}},
            "b": {"anyOf": [{"type": "string"}, {}]},
        },
        "required": ["a"],
    }


# --- arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", {}),
        ("null", {}),
        ('{"q": 1}', {"q": 1}),
        ('"{\\"q\\": 1}"', {"q": 1}),
        ("[1, 2]", {"value": [1, 2]}),
        ("5", {"value": 5}),
        ("true", {"value": True}),
        ('"plain"', {"value": "plain"}),
    ],
)
def test_decode_arguments(raw: str, expected: dict[str, object]) -> None:
    assert decode_arguments(raw) == expected


def test_decode_arguments_four_extra_levels_then_too_deep() -> None:
    import json

    encoded = json.dumps({"q": 1})
    for _ in range(4):
        encoded = json.dumps(encoded)
    assert decode_arguments(encoded) == {"q": 1}
    deeper = json.dumps(encoded)
    decoded = decode_arguments(deeper)
    assert list(decoded) == ["value"] and isinstance(decoded["value"], str)


def test_decode_arguments_invalid_json() -> None:
    with pytest.raises(InvalidArguments):
        decode_arguments("{bad")


# --- loop -----------------------------------------------------------------------


def test_turn_cap_and_graceful_output() -> None:
    assert not turn_cap_reached(2, 3) and turn_cap_reached(3, 3) and not turn_cap_reached(99, 0)
    assert graceful_stop_output("  text ", "N={n}", 3) == "  text "
    assert graceful_stop_output(" \n", "N={n}", 3) == "N=3"
    assert graceful_stop_output(None, "N={n}", 3) == "N=3"


def test_continuation_is_found_by_marker_not_text() -> None:
    text = "continue"
    history: list[HistoryEntry] = [user_message(text), synthetic_user_message(text)]
    history.append(HistoryEntry({"role": "tool", "tool_call_id": "c", "content": ""}))
    apply_continuation(history, text)
    assert [(e.role, e.synthetic) for e in history] == [("user", False), ("tool", False), ("user", True)]
    apply_continuation(history, None)
    assert [e.synthetic for e in history] == [False, False]


# --- runs in-process ------------------------------------------------------------


@pytest.fixture
def inproc() -> Iterator[InProcessDriver]:
    driver = InProcessDriver("reference")
    yield driver
    driver.stop()


def test_turn_cap_conversation_and_notice(
    inproc: InProcessDriver, model: ModelEndpoint, mcp_servers: McpServers, token: str
) -> None:
    config = make_config(
        model, token, {"alpha": {"type": "http", "url": mcp_servers.url(token, "alpha")}}, max_tool_turns=3
    )
    assert inproc.call({"op": "build", "id": "c", "config": config}) == {"ok": True}
    model.script[:] = [
        lambda body: {"tool_calls": [tool_call(f"c{len(body['messages'])}", "lookup", '{"q":"x"}')]}
    ] * 5
    response = inproc.call({"op": "run", "id": "c", "input": "loop"})
    assert response == {
        "ok": True,
        "output": "[系统] 已达到最大工具轮次 3，任务中止。",
        "stop_reason": "max_tool_turns",
    }
    assert len(model.token_requests(token)) == 3
    model.script[:] = [{"content": "second"}]
    assert inproc.call({"op": "run", "id": "c", "input": "again"})["output"] == "second"
    last = model.token_requests(token)[-1]["messages"]
    assert [m["role"] for m in last] == ["system", "user"] + ["assistant", "tool"] * 3 + ["user"]


def test_continuation_profile(model: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    driver = InProcessDriver("reference-continuation")
    try:
        config = make_config(
            model, token, {"alpha": {"type": "http", "url": mcp_servers.url(token, "alpha")}}
        )
        assert driver.call({"op": "build", "id": "c", "config": config}) == {"ok": True}
        cont = "请根据以上工具结果继续。"
        model.script[:] = [
            {"tool_calls": [tool_call("c1", "lookup", "{}")]},
            {"tool_calls": [tool_call("c2", "lookup", "{}")]},
            {"content": "end"},
        ]
        assert driver.call({"op": "run", "id": "c", "input": cont})["output"] == "end"
        requests = model.token_requests(token)
        counts = [
            sum(1 for m in r["messages"] if m["role"] == "user" and m["content"] == cont) for r in requests
        ]
        assert counts == [1, 2, 2]  # the real user message with the same text always survives
        assert requests[2]["messages"][-1] == {"role": "user", "content": cont}
        assert requests[2]["messages"][-2]["role"] == "tool"
    finally:
        driver.stop()


def test_prefix_profile_routes_calls(model: ModelEndpoint, mcp_servers: McpServers, token: str) -> None:
    driver = InProcessDriver("reference-prefix")
    try:
        config = make_config(
            model,
            token,
            {
                "one": {"type": "http", "url": mcp_servers.url(token, "beta")},
                "two": {"type": "http", "url": mcp_servers.url(token, "gamma")},
            },
        )
        assert driver.call({"op": "build", "id": "p", "config": config}) == {"ok": True}
        model.script[:] = [
            {"tool_calls": [tool_call("a", "two__lookup", '{"q":"1"}'), tool_call("b", "lookup", "{}")]},
            {"content": ""},
        ]
        assert driver.call({"op": "run", "id": "p", "input": "x"}) == {
            "ok": True,
            "output": "",
            "stop_reason": "completed",
        }
        first, second = model.token_requests(token)
        assert [t["function"]["name"] for t in first["tools"]] == ["one__lookup", "two__lookup"]
        assert [m["content"] for m in second["messages"][-2:]] == ["gamma:1", 'unknown tool: "lookup"']
    finally:
        driver.stop()


def test_adapter_errors_never_crash(inproc: InProcessDriver) -> None:
    assert inproc.call({"op": "run", "id": "nope", "input": ""})["error"]["kind"] == "internal"
    assert inproc.call({"op": "close", "id": "nope"})["error"]["kind"] == "internal"
    bad = inproc.call({"op": "build", "id": "b", "config": config_with({}, max_tool_turns=-1)})
    assert bad["error"]["kind"] == "invalid_config"
