"""Hypothesis strategies for streamed answers: where a scripted reply is cut into chunks.

A `Plan` (toolproof.fakes.sse) says at which offsets the text and each call's arguments start a
new fragment, and in which order the calls' deltas come (one call after another, or interleaved
by `index`). `plans(reply)` draws any plan that fits the reply, from one fragment per string to
one character per fragment: the chunking-invariance property (issue 14) holds a candidate to the
same traffic under every one of them.
"""

from __future__ import annotations

from hypothesis import strategies as st

from toolproof.fakes import Call, Text, ToolCalls
from toolproof.fakes.sse import Plan


def cuts(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Strictly increasing offsets inside 1..length-1: where a string of `length` is cut."""
    if length < 2:
        return st.just(())
    return st.sets(st.integers(1, length - 1)).map(lambda chosen: tuple(sorted(chosen)))


def _calls(reply: Text | Call | ToolCalls) -> tuple[Call, ...]:
    if isinstance(reply, Text):
        return ()
    return reply.calls if isinstance(reply, ToolCalls) else (reply,)


def _text(reply: Text | Call | ToolCalls) -> str:
    if isinstance(reply, Call):
        return ""
    return reply.text or ""


@st.composite
def plans(draw: st.DrawFn, reply: Text | Call | ToolCalls) -> Plan:
    """Any plan that fits `reply`: text and arguments cut anywhere, calls in turn or interleaved."""
    arguments = tuple(draw(cuts(len(call.arguments))) for call in _calls(reply))
    # A call streams its opener, then one delta per fragment ("" streams no fragment).
    deltas = [
        1 + (len(c) + 1 if call.arguments else 0) for call, c in zip(_calls(reply), arguments, strict=True)
    ]
    labels = [i for i, count in enumerate(deltas) for _ in range(count)]
    order = draw(st.none() | st.permutations(labels).map(tuple))
    return Plan(text=draw(cuts(len(_text(reply)))), arguments=arguments, order=order)
