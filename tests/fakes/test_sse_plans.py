"""Every chunking of a scripted reply (`toolproof.strategies.streams.plans`) streams the same
assistant message: accumulated by `index`, the chunks give exactly what the chat JSON answer
carries. The property the suite holds candidates to (stream.chunking-invariant), held here by the
fake first.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.fakes.replies import assistant_message
from toolproof.fakes.sse import Plan, chunks
from toolproof.strategies.streams import plans

TOOLS: list[Any] = [
    {"type": "function", "function": {"name": "alpha__lookup", "description": "[tp:alpha/lookup]"}},
    {"type": "function", "function": {"name": "alpha__qq", "description": "[tp:alpha/output_send__qq]"}},
]
REQUEST: dict[str, Any] = {"model": "gpt-test", "messages": [], "tools": TOOLS, "stream": True}
REPLIES = [
    Text("Grüße, 世界 🌍 — a longer text"),
    Call("alpha/lookup", '{"q": "weather in Zürich", "days": [1, 2]}'),
    ToolCalls(
        (
            Call("alpha/lookup", '{"q":"a"}'),
            Call("alpha/output_send__qq", ""),
            Call("alpha/lookup", '{"q":"\\u00e9"}'),
        ),
        text="On it.",
    ),
]


def accumulate(stream: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant message a list of chunk dicts assembles to (calls keyed by `index`)."""
    message: dict[str, Any] = {"role": None, "content": None}
    calls: dict[int, dict[str, Any]] = {}
    for chunk in stream:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            if "role" in delta:
                message["role"] = delta["role"]
            if delta.get("content") is not None:
                message["content"] = (message["content"] or "") + delta["content"]
            for part in delta.get("tool_calls", []):
                entry = calls.setdefault(part["index"], {"function": {"arguments": ""}})
                for key in ("id", "type"):
                    if key in part:
                        entry[key] = part[key]
                if "name" in part.get("function", {}):
                    entry["function"]["name"] = part["function"]["name"]
                entry["function"]["arguments"] += part.get("function", {}).get("arguments", "")
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": c["type"], "function": c["function"]} for _, c in sorted(calls.items())
        ]
    return message


@given(st.sampled_from(REPLIES).flatmap(lambda reply: st.tuples(st.just(reply), plans(reply))))
def test_every_plan_streams_the_same_message(case: tuple[Any, Any]) -> None:
    reply, plan = case
    streamed = chunks(reply, REQUEST, "tk", 0, plan)
    assert accumulate(streamed) == assistant_message(reply, REQUEST, "tk", 0)[0]


def test_one_character_per_fragment_and_calls_interleaved_is_a_plan() -> None:
    reply = REPLIES[2]
    args = ('{"q":"a"}', "", '{"q":"\\u00e9"}')
    counts = [1 + len(a) for a in args]  # an opener, then one delta per character ("" has none)
    order = tuple(i for step in range(max(counts)) for i in range(len(counts)) if step < counts[i])
    plan = Plan(
        text=(1, 2, 3, 4, 5),  # "On it." one character at a time
        arguments=tuple(tuple(range(1, len(a))) for a in args),
        order=order,  # the calls dealt round-robin by index
    )
    streamed = chunks(reply, REQUEST, "tk", 0, plan)
    assert accumulate(streamed) == assistant_message(reply, REQUEST, "tk", 0)[0]
    assert len(streamed) == 1 + 6 + sum(counts) + 1  # role, six text deltas, the calls' deltas, finish


@given(plans(REPLIES[2]))
def test_drawn_calls_open_in_index_order(plan: Plan) -> None:
    """Fragments and text interleave freely, but call i+1 opens only after call i (as OpenAI's
    indexes count up): a runtime keeping calls in arrival order is not failed on that alone."""
    streamed = chunks(REPLIES[2], REQUEST, "tk", 0, plan)
    openers = [
        part["index"]
        for chunk in streamed
        for choice in chunk["choices"]
        for part in choice["delta"].get("tool_calls", [])
        if "id" in part
    ]
    assert openers == [0, 1, 2]
