"""Self-tests of the scripted model endpoint, driven by the official `openai` client."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from endpoint_support import CHAT_TOOLS, client, run  # tests/fakes

from toolproof.fakes import AlwaysFail, Call, HttpError, ModelEndpoint, Runaway, StaleCall, Text, ToolCalls
from toolproof.fakes.replies import CREATED, runaway_arguments

TOOLS: list[Any] = [
    *CHAT_TOOLS,
    {"type": "function", "function": {"name": "bare", "parameters": {"type": "object"}}},
]
MESSAGES: list[Any] = [{"role": "user", "content": "hi"}]


@pytest.fixture(scope="module")
def model() -> Iterator[ModelEndpoint]:
    with ModelEndpoint() as endpoint:
        yield endpoint


async def create(model: ModelEndpoint, token: str, **extra: Any) -> Any:
    extra.setdefault("tools", TOOLS)
    async with client(model, token) as c:
        return await c.chat.completions.create(model="gpt-test", messages=MESSAGES, **extra)


async def status_error(model: ModelEndpoint, token: str, **extra: Any) -> openai.APIStatusError:
    with pytest.raises(openai.APIStatusError) as caught:
        await create(model, token, **extra)
    return caught.value


def message(error: openai.APIStatusError) -> tuple[int, str]:
    """(status, error.message of the OpenAI-style body)."""
    assert isinstance(error.body, dict)
    return error.status_code, str(error.body["message"])


def test_base_url_shape(model: ModelEndpoint, token: str) -> None:
    assert model.base_url(token) == f"http://127.0.0.1:{model.origin.rsplit(':', 1)[1]}/{token}/v1"
    assert model.origin.startswith("http://127.0.0.1:")


def test_text_reply_is_a_full_chat_completion(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("done")])
    result = run(create(model, token))
    assert result.choices[0].message.content == "done"
    assert result.choices[0].message.tool_calls is None
    (record,) = model.requests(token)
    assert record.status == 200
    assert record.note == ""
    assert record.response == {
        "id": f"chatcmpl-{token}-0",
        "object": "chat.completion",
        "created": CREATED,
        "model": "gpt-test",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "done"}, "finish_reason": "stop"}
        ],
        "usage": record.response["usage"],
    }
    usage = record.response["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_call_by_marker_resolves_the_offered_wire_name(model: ModelEndpoint, token: str) -> None:
    arguments = '{"q" :  "caf\\u00e9",  "n": 1.50}'
    model.script(token, [Call("alpha/lookup", arguments)])
    result = run(create(model, token))
    choice = result.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    (call,) = choice.message.tool_calls
    assert (call.id, call.type, call.function.name) == (f"call_{token}_0_0", "function", "alpha__lookup")
    assert call.function.arguments == arguments
    assert model.requests(token)[0].response["choices"][0]["message"]["tool_calls"] == [
        {
            "id": f"call_{token}_0_0",
            "type": "function",
            "function": {"name": "alpha__lookup", "arguments": arguments},
        }
    ]


def test_tool_calls_with_text_and_literal_name(model: ModelEndpoint, token: str) -> None:
    reply = ToolCalls(
        (Call("alpha/lookup", '{"q":"a"}'), Call(name="ghost_tool", arguments="{}")), text="two"
    )
    model.script(token, [Text("first"), reply])
    run(create(model, token))
    result = run(create(model, token))
    message = result.choices[0].message
    assert message.content == "two"
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls] == [
        (f"call_{token}_1_0", "alpha__lookup", '{"q":"a"}'),
        (f"call_{token}_1_1", "ghost_tool", "{}"),
    ]


def test_marker_missing_is_refused_and_noted(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Call("beta/lookup", "{}"), Text("after")])
    error = run(status_error(model, token))
    assert error.status_code == 400
    assert error.body == {
        "message": "toolproof: no offered tool carries marker [tp:beta/lookup]",
        "type": "invalid_request_error",
        "param": None,
        "code": "toolproof_marker_unresolved",
    }
    assert model.requests(token)[0].note == "toolproof: no offered tool carries marker [tp:beta/lookup]"
    assert run(create(model, token)).choices[0].message.content == "after"


def test_marker_on_several_tools_is_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Call("alpha/lookup", "{}")])
    doubled = [*TOOLS, {**TOOLS[0], "function": {**TOOLS[0]["function"], "name": "alpha__lookup_2"}}]
    error = run(status_error(model, token, tools=doubled))
    expected = (
        "toolproof: several offered tools carry marker [tp:alpha/lookup]: alpha__lookup, alpha__lookup_2"
    )
    assert message(error) == (400, expected)
    assert model.requests(token)[0].note == expected


def test_script_exhausted(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("only")])
    run(create(model, token))
    for _ in range(2):
        error = run(status_error(model, token))
        assert message(error) == (400, "toolproof: script exhausted after 1 replies")
    assert [r.note for r in model.requests(token)] == [
        "",
        *["toolproof: script exhausted after 1 replies"] * 2,
    ]
    assert model.safety_cap_hit(token) is False


def test_script_exhausted_is_a_safety_net(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("only")])
    run(create(model, token))
    assert model.safety_nets(token) == ()
    for _ in range(2):
        run(status_error(model, token))
    assert model.safety_nets(token) == ("toolproof: script exhausted after 1 replies",)


SERVER_ERROR = HttpError(500, {"error": {"message": "down", "type": "server_error"}})


def test_always_fail_answers_every_attempt_until_the_safety_cap(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("warmup"), AlwaysFail(SERVER_ERROR)], safety_cap=5)
    run(create(model, token))
    for _ in range(4):
        error = run(status_error(model, token))
        assert (error.status_code, error.body) == (500, {"message": "down", "type": "server_error"})
    assert model.safety_nets(token) == ()
    assert [r.note for r in model.requests(token)] == ["", *["scripted HTTP 500"] * 4]
    error = run(status_error(model, token))
    assert message(error) == (400, "toolproof: safety cap of 5 model requests reached")
    run(status_error(model, token))
    # Never "script exhausted": an endpoint that always fails never runs out; the cap is the net.
    assert model.safety_nets(token) == ("toolproof: safety cap of 5 model requests reached",)
    assert model.safety_cap_hit(token) is True
    assert [r.status for r in model.requests(token)] == [200, 500, 500, 500, 500, 400, 400]


def test_both_safety_nets_are_remembered_in_order(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("only")], safety_cap=2)
    run(create(model, token))
    for _ in range(3):
        run(status_error(model, token))
    assert model.safety_nets(token) == (
        "toolproof: script exhausted after 1 replies",
        "toolproof: safety cap of 2 model requests reached",
    )


def test_always_fail_must_come_last(model: ModelEndpoint, token: str) -> None:
    with pytest.raises(ValueError, match="AlwaysFail answers every remaining request"):
        model.script(token, [AlwaysFail(SERVER_ERROR), Text("x")])
    with pytest.raises(TypeError, match="must be an HttpError"):
        AlwaysFail(Text("x"))  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        model.safety_nets(token)


def test_runaway_varies_arguments_until_the_safety_cap(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("warmup"), Runaway("alpha/output_send__qq")], safety_cap=4)
    run(create(model, token))
    seen = []
    for index in (1, 2, 3):
        (call,) = run(create(model, token)).choices[0].message.tool_calls
        assert call.function.name == "alpha__output_send__qq"
        assert call.function.arguments == runaway_arguments(index)
        seen.append(call.function.arguments)
    assert len(set(seen)) == 3
    assert len({len(s) for s in seen}) == 3
    assert json.loads(seen[0]) == {"channel": "qq", "text": "1 " + "x" * 187}
    assert model.safety_cap_hit(token) is False
    error = run(status_error(model, token))
    assert message(error) == (400, "toolproof: safety cap of 4 model requests reached")
    assert error.code == "toolproof_safety_cap"
    assert model.safety_cap_hit(token) is True
    assert [r.status for r in model.requests(token)] == [200, 200, 200, 200, 400]


def test_responses_api_is_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("x")])

    async def responses() -> None:
        async with client(model, token) as c:
            await c.responses.create(model="gpt-test", input="hi")

    with pytest.raises(openai.BadRequestError) as caught:
        run(responses())
    expected = (
        "toolproof: POST /v1/responses is not supported by this harness (only POST /v1/chat/completions)"
    )
    assert message(caught.value) == (400, expected)
    assert model.requests(token)[0].path == f"/{token}/v1/responses"


def test_scripted_http_error(model: ModelEndpoint, token: str) -> None:
    model.script(token, [HttpError(503, {"error": {"message": "overloaded", "type": "server_error"}})])
    error = run(status_error(model, token))
    assert error.status_code == 503
    assert error.body == {"message": "overloaded", "type": "server_error"}
    assert model.requests(token)[0].note == "scripted HTTP 503"


def test_unknown_token_is_404(model: ModelEndpoint) -> None:
    ghost = f"g{uuid.uuid4().hex[:12]}"
    error = run(status_error(model, ghost))
    assert error.status_code == 404
    assert model.requests(ghost)[0].status == 404
    model.forget(ghost)


def test_records_raw_query_headers_and_body_exactly(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok")])
    body = b'{"model": "m",  "messages": [], "extra": "\xc3\xa9"}'
    query = "api-version=2024%2F01&flag&x=a+b"
    headers = [("X-Dup", "one"), ("x-dup", "two,  in\tside"), ("Authorization", "Bearer sk-A")]

    async def post() -> int:
        async with httpx2.AsyncClient() as http:
            url = f"{model.base_url(token)}/chat/completions?{query}"
            response = await http.post(url, content=body, headers=headers)
            return response.status_code

    assert run(post()) == 200
    (record,) = model.requests(token)
    assert (record.method, record.path, record.query) == ("POST", f"/{token}/v1/chat/completions", query)
    assert record.body == body
    assert record.json == {"model": "m", "messages": [], "extra": "é"}
    assert record.header_values("X-DUP") == ["one", "two,  in\tside"]
    assert record.header_values("authorization") == ["Bearer sk-A"]
    assert [name for name, _ in record.headers if name == "x-dup"] == ["x-dup", "x-dup"]
    assert record.response["model"] == "m"


def test_non_json_body_is_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok")])

    async def post() -> httpx2.Response:
        async with httpx2.AsyncClient() as http:
            return await http.post(f"{model.base_url(token)}/chat/completions", content=b"not json")

    response = run(post())
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "toolproof: request body is not a JSON object"
    assert model.requests(token)[0].json is None


def test_forget_drops_script_and_records(model: ModelEndpoint, token: str) -> None:
    model.script(token, [Text("ok")])
    run(create(model, token))
    model.forget(token)
    assert model.requests(token) == []
    with pytest.raises(KeyError):
        model.safety_cap_hit(token)
    assert run(status_error(model, token)).status_code == 404


def test_script_validation(model: ModelEndpoint, token: str) -> None:
    with pytest.raises(ValueError, match="must be the last reply"):
        model.script(token, [Runaway("alpha/lookup"), Text("x")])
    with pytest.raises(ValueError, match="safety_cap"):
        model.script(token, [Text("x")], safety_cap=0)
    with pytest.raises(ValueError, match="invalid token"):
        model.script("a/b", [Text("x")])
    model.script(token, [Text("x")])
    with pytest.raises(ValueError, match="already scripted"):
        model.script(token, [Text("y")])
    with pytest.raises(ValueError, match="exactly one"):
        Call()
    with pytest.raises(ValueError, match="exactly one"):
        Call("alpha/lookup", name="lookup")
    with pytest.raises(ValueError, match="non-empty tuple"):
        ToolCalls(())
    with pytest.raises(ValueError, match="4xx or 5xx"):
        HttpError(200, {})


def test_a_stale_call_names_the_tool_as_earlier_offered(model: ModelEndpoint, token: str) -> None:
    # StaleCall: the wire name the latest earlier request offering the marker gave it, even when the
    # current request no longer offers it (a changed tool list, conformance/test_mcp_lists.py).
    model.script(token, [Text("first"), Text("second"), StaleCall("alpha/lookup", '{"q": "x"}')])
    renamed = [{**TOOLS[0], "function": {**TOOLS[0]["function"], "name": "renamed_lookup"}}]
    run(create(model, token))
    run(create(model, token, tools=renamed))
    result = run(create(model, token, tools=TOOLS[1:]))
    (call,) = result.choices[0].message.tool_calls or []
    assert (call.function.name, call.function.arguments) == ("renamed_lookup", '{"q": "x"}')


def test_a_stale_call_no_earlier_request_offered_is_refused(model: ModelEndpoint, token: str) -> None:
    model.script(token, [StaleCall("alpha/lookup")])
    error = run(status_error(model, token))
    expected = "toolproof: no earlier request offered a tool carrying [tp:alpha/lookup]"
    assert message(error) == (400, expected)
    assert model.requests(token)[0].note == expected
