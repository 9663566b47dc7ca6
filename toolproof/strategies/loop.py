"""Hypothesis strategies for the tool loop: a turn cap and a model that stops after K batches.

A drawn `CapCase` is a cap N (1..8) and a script of K tool replies (batches
of one or two calls to `alpha/lookup` or `alpha/output_send__qq`, arguments
and payload lengths varying) followed by a text reply. K > N is a runaway
longer than the cap; K < N stops on its own. Kept small: every example is a
full build and run of the candidate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import strategies as st

from toolproof.fakes import Call, ToolCalls

CAP_TOOLS = ("alpha/lookup", "alpha/output_send__qq")
FINAL_TEXT = "done after the tools"


@dataclass(frozen=True)
class CapCase:
    """A cap and the model's tool replies (each a batch) before its final text reply."""

    cap: int
    batches: tuple[ToolCalls, ...]

    @property
    def stops_after(self) -> int:
        """K: how many tool replies the model gives before its text reply."""
        return len(self.batches)


def payload() -> st.SearchStrategy[str]:
    """Text of varying length, like the seed's 155-387 character messages."""
    return st.builds(lambda n, c: f"{n} " + c * (150 + n), st.integers(0, 240), st.sampled_from("xyzé中"))


def tool_call() -> st.SearchStrategy[Call]:
    """One call to one of the two loop tools, with arguments the tool accepts."""

    def make(tool: str, text: str) -> Call:
        if tool == "alpha/lookup":
            return Call(tool, json.dumps({"q": text}))
        return Call(tool, json.dumps({"channel": "qq", "text": text}))

    return st.builds(make, st.sampled_from(CAP_TOOLS), payload())


def batch() -> st.SearchStrategy[ToolCalls]:
    """One tool reply: one or two calls (a batch is one tool turn however many calls it holds)."""
    return st.builds(tuple, st.lists(tool_call(), min_size=1, max_size=2)).map(ToolCalls)


@st.composite
def cap_cases(draw: st.DrawFn) -> CapCase:
    """A cap N in 1..8 and K in 0..N+3 tool replies (K > N: a runaway longer than the cap)."""
    cap = draw(st.integers(min_value=1, max_value=8))
    # K drawn on its own so that runaways (K > N) and early stops (K < N) both come up often.
    stops_after = draw(st.integers(min_value=0, max_value=cap + 3))
    batches = draw(st.lists(batch(), min_size=stops_after, max_size=stops_after))
    return CapCase(cap=cap, batches=tuple(batches))
