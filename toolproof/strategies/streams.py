"""Hypothesis strategies for streamed answers: where a scripted reply is cut into chunks.

A `Plan` (toolproof.fakes.sse) says at which offsets the text and each call's arguments start a
new fragment, and in which order the calls' deltas come (one call after another, or interleaved
by `index`, with the text fragments first or among them). `plans(reply)` draws any plan that
fits the reply, from one fragment per string to one character per fragment: the
chunking-invariance property (stream.chunking-invariant) holds a candidate to the same traffic
under every one of them. `block_plans(reply)` draws the plans of Anthropic's Messages API wire,
whose content blocks stream one after another.
"""

from __future__ import annotations

from hypothesis import strategies as st

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.fakes.sse import TEXT, Plan, call_deltas, reply_calls, reply_text


def cuts(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Strictly increasing offsets inside 1..length-1: where a string of `length` is cut."""
    if length < 2:
        return st.just(())
    return st.sets(st.integers(1, length - 1)).map(lambda chosen: tuple(sorted(chosen)))


@st.composite
def interleavings(draw: st.DrawFn, deltas: list[int], texts: int) -> tuple[int, ...]:
    """Which call (or `TEXT`) sends the next delta, step by step, until every delta is sent.

    `deltas[i]`: how many deltas call i streams; `texts`: how many text fragments go among
    them. A call opens only once every call before it has opened: indexes count up as
    calls open in OpenAI's streams (the official client's accumulator assumes it), while
    the fragments of open calls and the text may come in any order.
    """
    left = list(deltas)
    text_left = texts
    opened = 0
    order: list[int] = []
    while any(left) or text_left:
        choices = [i for i in range(opened) if left[i]]
        choices += [opened] if opened < len(left) else []
        choices += [TEXT] if text_left else []
        pick = draw(st.sampled_from(choices))
        order.append(pick)
        if pick == TEXT:
            text_left -= 1
            continue
        opened += pick == opened
        left[pick] -= 1
    return tuple(order)


@st.composite
def plans(draw: st.DrawFn, reply: Text | Call | ToolCalls) -> Plan:
    """Any plan that fits `reply`: text and arguments cut anywhere, calls in turn or interleaved."""
    arguments = tuple(draw(cuts(len(call.arguments))) for call in reply_calls(reply))
    deltas = call_deltas(reply, arguments)
    reply_says = reply_text(reply) or ""
    text = draw(cuts(len(reply_says)))
    # Text fragments take their place among the calls' deltas too (TEXT), or all come first.
    fragments = len(text) + 1 if reply_says else 0
    order = draw(st.none() | interleavings(deltas, 0) | interleavings(deltas, fragments))
    return Plan(text=text, arguments=arguments, order=order)


@st.composite
def block_plans(draw: st.DrawFn, reply: Text | Call | ToolCalls) -> Plan:
    """Any plan that fits `reply` on Anthropic's Messages API wire (issue 25): text and arguments cut
    anywhere, blocks one after another (content blocks never interleave there, so no `order`)."""
    arguments = tuple(draw(cuts(len(call.arguments))) for call in reply_calls(reply))
    return Plan(text=draw(cuts(len(reply_text(reply) or ""))), arguments=arguments)
