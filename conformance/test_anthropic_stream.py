"""The Messages API's streams, stop reasons and thinking (CONTRACT.md §6d;
contracts/requirements/anthropic_stream.yaml).

A candidate claiming `anthropic.messages` runs every `model.*` test of the
suite on this wire, streamed ones included: a stream that breaks off (the
connection drops, or an `error` event comes) or ends without `message_stop`
is `tp-stream-unfinished` / `tp-stream-unterminated`'s, through `Cut`. The
tests here judge what only this wire carries: a streamed call's input as
`input_json_delta` fragments (tp-anth-stream-input: one empty `partial_json`
is `{}`; under every chunking, what one fragment each gives), a turn that
stopped at `max_tokens` or with `refusal` (tp-anth-max-tokens,
tp-anth-refusal: none of its calls runs), and the `thinking` /
`redacted_thinking` blocks of a tool-use turn (tp-anth-thinking-replayed:
sent back unchanged and in order, before the `tool_use` blocks). Thinking
blocks are not in the view (CONTRACT.md §2): that check reads the raw body.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from toolproof.fakes import (
    Call,
    Ended,
    ModelRequest,
    Plan,
    RedactedThought,
    Stopped,
    Streamed,
    Text,
    Thinking,
    Thought,
    ToolCalls,
)
from toolproof.plugin.draws import run_drawn
from toolproof.plugin.scenario import Scenario
from toolproof.strategies.streams import block_plans

from ._calls import (
    FINAL_TEXT,
    answered,
    as_multiset,
    expect_every_request_answered_with,
    expect_json_equal,
    not_streaming,
    received_arguments,
    sent_calls,
)

ROUTE: Final = "stream"
TEXT_BESIDE_CALLS: Final = '  Checking two cities: Zürich 🌦 & "Genève".\n'
CALLS: Final = (
    Call("stream/lookup", '{"q": "Zürich 🌦"}'),
    Call("stream/lookup", '{"q": "Genève, \\"CH\\" \\u00e9"}'),
)
RECEIVED: Final[list[Any]] = [{"q": "Zürich 🌦"}, {"q": 'Genève, "CH" é'}]
"""What the tools receive for CALLS, written from the scripted arguments."""

REPLY: Final = ToolCalls(CALLS, text=TEXT_BESIDE_CALLS)
PARAMETERLESS: Final = ToolCalls((Call("stream/ping", ""), Call("stream/lookup", '{"q": "up?"}')))
"""The first call's input streams as one `input_json_delta` whose `partial_json` is `""`: `{}`."""
ONLY_PARAMETERLESS: Final = ToolCalls((Call("stream/ping", ""),))


def every_character(text: str) -> tuple[int, ...]:
    """Cuts before every character but the first: one character per fragment."""
    return tuple(range(1, len(text)))


def eights(text: str) -> tuple[int, ...]:
    """Cuts every eight characters."""
    return tuple(range(8, len(text), 8))


SHAPES: Final[dict[str, tuple[ToolCalls, Plan]]] = {
    "one-character-fragments": (
        REPLY,
        Plan(
            text=every_character(TEXT_BESIDE_CALLS),
            arguments=tuple(every_character(call.arguments) for call in CALLS),
        ),
    ),
    # The cuts fall inside escapes (`\\"`, `\\u00e9`) and inside a surrogate pair's character.
    "fragments-of-eight": (
        REPLY,
        Plan(text=eights(TEXT_BESIDE_CALLS), arguments=tuple(map(eights, (c.arguments for c in CALLS)))),
    ),
    "empty-partial-json-beside-a-call": (
        PARAMETERLESS,
        Plan(arguments=((), eights(PARAMETERLESS.calls[1].arguments))),
    ),
    "empty-partial-json-alone": (ONLY_PARAMETERLESS, Plan(arguments=((),))),
}
"""Each named shape: the reply, and where its text and inputs are cut."""

RECEIVED_BY_REPLY: Final[dict[ToolCalls, list[Any]]] = {
    REPLY: RECEIVED,
    PARAMETERLESS: [{}, {"q": "up?"}],
    ONLY_PARAMETERLESS: [{}],
}
"""What the tools receive for each reply, written from its scripted arguments."""

ECHOED_INPUTS: Final[dict[ToolCalls, list[Any]]] = {
    REPLY: RECEIVED,
    PARAMETERLESS: [{}, {"q": "up?"}],
    ONLY_PARAMETERLESS: [{}],
}
"""The `input` of each echoed `tool_use` block, in the reply's order (an empty `partial_json`: {})."""


def body_messages(request: ModelRequest) -> list[Any]:
    """The raw body's `messages` ([] when it has none)."""
    body = request.json if isinstance(request.json, Mapping) else {}
    messages = body.get("messages")
    return list(messages) if isinstance(messages, list) else []


def last_assistant_blocks(request: ModelRequest) -> Any:
    """The content blocks of the raw body's last assistant message (a `<...>` note when it has none,
    or when its content is not a list of blocks)."""
    turns = [m for m in body_messages(request) if isinstance(m, Mapping) and m.get("role") == "assistant"]
    if not turns:
        return "<no assistant message in the request>"
    content = turns[-1].get("content")
    if not isinstance(content, list):
        return f"<the assistant message's content is not a list of blocks: {content!r}>"
    return content


def echoed_tool_uses(request: ModelRequest) -> Any:
    """`id`, `name` and `input` of each `tool_use` block of the last assistant message, in order."""
    blocks = last_assistant_blocks(request)
    if isinstance(blocks, str):
        return blocks
    return [
        {"id": b.get("id"), "name": b.get("name"), "input": b.get("input")}
        for b in blocks
        if isinstance(b, Mapping) and b.get("type") == "tool_use"
    ]


def expected_tool_uses(sent: list[dict[str, Any]], reply: ToolCalls) -> list[dict[str, Any]]:
    """The calls the fake sent (its ids and names), with the inputs ECHOED_INPUTS pins."""
    return [
        {"id": call["id"], "name": call["name"], "input": value}
        for call, value in zip(sent, ECHOED_INPUTS[reply], strict=True)
    ]


def judge_streamed_input(tp: Scenario, check_id: str, reply: ToolCalls, plan: Plan, *, what: str) -> None:
    """Script `reply` streamed under `plan`, then the final text; pin what the run did.

    Pinned: the run completes with the final text after two model turns, the
    tools receive exactly the scripted inputs (in any order), and the second
    request echoes each call as a `tool_use` block with its input object. Each is
    what the same reply gives with every string in one fragment.
    """
    tp.script(Streamed(reply, plan), Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Check both cities, please.", judged=True)
    tp.expect_outcome(
        check_id,
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what=f"{what}: the run",
    )
    expect_json_equal(
        tp,
        check_id,
        as_multiset(received_arguments(tp, ROUTE)),
        as_multiset(RECEIVED_BY_REPLY[reply]),
        what=f"{what}: the inputs the tools received (any order)",
    )
    turns = answered(tp)
    tp.expect(
        check_id,
        {
            "model turns": len(turns),
            "echoed tool_use blocks": echoed_tool_uses(turns[1]) if len(turns) > 1 else [],
        },
        {
            "model turns": 2,
            # The ids and names are the fake's own (its record of what it sent).
            "echoed tool_use blocks": expected_tool_uses(sent_calls(turns[0]), reply),
        },
        what=f"{what}: the second request (the streamed calls echoed as tool_use blocks)",
    )


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.checks("anthropic.stream-input-assembled")
@pytest.mark.capability("anthropic.messages")
def test_streamed_input_is_the_scripted_object(tp: Scenario, shape: str) -> None:
    """`input_json_delta` fragments joined, parsed once: the scripted input; one empty `partial_json`
    is `{}` (upstream-anth-stream-input: an empty buffer parsed as JSON failed the call; fragments
    parsed one by one)."""
    if not_streaming(tp, "anthropic.stream-input-assembled"):
        return
    reply, plan = SHAPES[shape]
    judge_streamed_input(tp, "anthropic.stream-input-assembled", reply, plan, what=shape)


@pytest.mark.checks("anthropic.stream-chunking-invariant")
@pytest.mark.capability("anthropic.messages")
def test_any_chunking_of_the_blocks_gives_the_same_calls(tp: Scenario) -> None:
    """Hypothesis draws where the text and each call's `partial_json` are cut (blocks stream one
    after another on this wire)."""
    if not_streaming(tp, "anthropic.stream-chunking-invariant"):
        return

    @settings(
        max_examples=10,
        deadline=None,
        database=None,
        # Each example is a whole build and run: shrinking a failure would cost minutes.
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(plan=block_plans(REPLY))
    def example(plan: Plan) -> None:
        judge_streamed_input(
            tp.sibling(), "anthropic.stream-chunking-invariant", REPLY, plan, what=f"chunking {plan}"
        )

    # The unchunked reply first: the one every drawn chunking is held to.
    judge_streamed_input(
        tp,
        "anthropic.stream-chunking-invariant",
        REPLY,
        Plan(arguments=((), ())),
        what="one fragment each",
    )
    run_drawn(example)  # on the run's seeds (toolproof.plugin.draws)


TRUNCATED: Final[dict[str, Call | ToolCalls]] = {
    "one-call": Call("stream/lookup", '{"q": "Zürich 🌦"}'),
    "text-and-two-calls": REPLY,
}
LAST_INPUT: Final[dict[str, Any]] = {"one-call": {"q": "Zürich 🌦"}, "text-and-two-calls": RECEIVED[-1]}
"""The input of each reply's last `tool_use`: the block a `max_tokens` stop can cut (an earlier one is
whole; whether it runs is silent)."""


def judge_ended_by_itself(tp: Scenario, check_id: str, *, what: str) -> None:
    """No harness safety net ended the run (how it ends is silent)."""
    # A runtime re-asking forever ran no tool either: the run must have ended by itself.
    tp.expect(check_id, tp.safety_nets(), [], what=f"{what}: the harness's safety nets that ended the run")


def judge_never_run(tp: Scenario, check_id: str, *, what: str) -> None:
    """No tools/call reached the server, and the run ended by itself (how it ends is silent)."""
    tp.expect(check_id, len(tp.tool_calls_received()), 0, what=f"{what}: tools/call requests")
    judge_ended_by_itself(tp, check_id, what=what)


@pytest.mark.parametrize("reply", list(TRUNCATED))
@pytest.mark.checks("anthropic.max-tokens-never-run")
@pytest.mark.capability("anthropic.messages")
def test_a_max_tokens_turn_runs_no_call(tp: Scenario, reply: str) -> None:
    """Every attempt stops at `max_tokens` with its `tool_use` blocks (plain: whole; streamed: every
    delta sent): the last one, the block such a stop cuts, never runs (upstream-anth-max-tokens-tool-use:
    a truncated call dispatched); an earlier, whole one may (silent)."""
    tp.script(Ended(TRUNCATED[reply], "incomplete"))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    tp.run("Check both cities, please.", judged=True)
    expect_every_request_answered_with(
        tp, "anthropic.max-tokens-never-run", "stop_reason max_tokens", what=reply
    )
    last = LAST_INPUT[reply]
    tp.expect(
        "anthropic.max-tokens-never-run",
        [
            r.rpc_params.get("arguments")
            for r in tp.tool_calls_received()
            if r.rpc_params.get("arguments") == last
        ],
        [],
        what=f"{reply}, stopped at max_tokens: tools/call requests carrying the last tool_use's input {last}",
    )
    judge_ended_by_itself(tp, "anthropic.max-tokens-never-run", what=f"{reply}, stopped at max_tokens")


@pytest.mark.parametrize("reply", list(TRUNCATED))
@pytest.mark.checks("anthropic.refusal-never-run")
@pytest.mark.capability("anthropic.messages")
def test_a_refused_turn_runs_no_call(tp: Scenario, reply: str) -> None:
    """The first answer stops with `refusal`, its `tool_use` blocks there; then the final text: no
    call of the refused turn runs (upstream-anth-refusal-tool-use: a refused turn's tool blocks
    executed). How the run goes on (an error, or a turn ended) is silent."""
    stopped = Stopped(TRUNCATED[reply], "refusal")
    tp.script(stopped, Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    tp.run("Check both cities, please.", judged=True)
    tp.expect(
        "anthropic.refusal-never-run",
        [request.note for request in tp.model_requests()][:1],
        [stopped.note()],
        what=f"{reply}: what answered the run's first model request (none: the model was never asked)",
    )
    judge_never_run(tp, "anthropic.refusal-never-run", what=f"{reply}, stopped with refusal")


THOUGHT_ONE: Final = Thought(
    '  Look up Zürich 🌦 first,\nthen Genève — both "quoted".  ',
    "EqQBCkgIBRABGAIqQPz/3+8q9x/Zm+Y1aW2kL0Vt+Qw==",
)
"""Whitespace at both ends, a newline, non-ASCII and quotes (streamed, cut into several
`thinking_delta`s); a signature with `+`, `/` and `=` padding (opaque: sent back byte for byte)."""
THOUGHT_TWO: Final = Thought("Second thought.", "ErcBCkgIBRABGAIqQL2t/9o+ZmFrZS1zaWduYXR1cmU=")
REDACTED: Final = RedactedThought("EmwKAhgBEgy3va3pzGAHzhrxW8caDAojP1+/cmVkYWN0ZWQ=")

THINKING: Final = {
    "one-thought-one-call": Thinking(TRUNCATED["one-call"], (THOUGHT_ONE,)),
    "thought-redacted-thought-text-two-calls": Thinking(REPLY, (THOUGHT_ONE, REDACTED, THOUGHT_TWO)),
}
REPLAYED: Final[dict[str, list[dict[str, Any]]]] = {
    "one-thought-one-call": [
        {"type": "thinking", "thinking": THOUGHT_ONE.thinking, "signature": THOUGHT_ONE.signature},
        {"type": "tool_use"},
    ],
    "thought-redacted-thought-text-two-calls": [
        {"type": "thinking", "thinking": THOUGHT_ONE.thinking, "signature": THOUGHT_ONE.signature},
        {"type": "redacted_thinking", "data": REDACTED.data},
        {"type": "thinking", "thinking": THOUGHT_TWO.thinking, "signature": THOUGHT_TWO.signature},
        {"type": "tool_use"},
        {"type": "tool_use"},
    ],
}
"""The blocks of the echoed turn but its text, in order, written from the script (the text's echo is
tp-hist-assistant-text-kept's)."""


def without_text(block: Any) -> Any:
    """A block as the thinking check reads it: a `tool_use` block as its type alone, a text block as
    None (left out), any other block whole."""
    kind = block.get("type") if isinstance(block, Mapping) else None
    if kind == "tool_use":
        return {"type": "tool_use"}
    if kind == "text":
        return None
    return dict(block) if isinstance(block, Mapping) else block


def thinking_and_calls(request: ModelRequest) -> Any:
    """The last assistant message's blocks but its text: thinking blocks whole, `tool_use` blocks as
    their type, in order."""
    blocks = last_assistant_blocks(request)
    if isinstance(blocks, str):
        return blocks
    return [block for block in map(without_text, blocks) if block is not None]


@pytest.mark.parametrize("turn", list(THINKING))
@pytest.mark.checks("anthropic.thinking-replayed")
@pytest.mark.capability("anthropic.messages")
def test_thinking_blocks_go_back_unchanged_before_the_calls(tp: Scenario, turn: str) -> None:
    """The request carrying the tool results sends the turn's thinking and redacted_thinking blocks
    back whole, in order, before its tool_use blocks (anthropic-extended-thinking: "Preserving
    thinking blocks"; upstream-anth-thinking-replay: the API's 400 when they are dropped or
    moved)."""
    tp.script(THINKING[turn], Text(FINAL_TEXT))
    tp.build(tp.config({"stream": tp.server(ROUTE)}))
    outcome = tp.run("Check both cities, please.")
    turns = answered(tp)
    tp.expect(
        "anthropic.thinking-replayed",
        {
            "model turns": len(turns),
            "echoed thinking and tool_use blocks": thinking_and_calls(turns[1]) if len(turns) > 1 else [],
        },
        {"model turns": 2, "echoed thinking and tool_use blocks": REPLAYED[turn]},
        what=f"{turn}: the request carrying the tool results, its echo of the thinking turn",
    )
    tp.expect_outcome(
        "anthropic.thinking-replayed",
        outcome,
        {"ok": True, "stop_reason": "completed", "output": FINAL_TEXT},
        what=f"{turn}: the run after the thinking turn",
    )
