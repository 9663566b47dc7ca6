"""Candidates for the probe's self-tests: the reference adapter, its answers changed at the cap.

A test double reaching into the reference's answers (never a pattern for a real adapter).
"""

from __future__ import annotations

from typing import Any

from toolproof.candidates.reference import adapter

Response = dict[str, Any]


class AtTheCap:
    """The reference, answering a run stopped at the cap with `changed` merged into its answer."""

    def __init__(self, changed: Response) -> None:
        self.inner = adapter.factory("reference")
        self.changed = changed

    async def hello(self) -> Response:
        return await self.inner.hello()

    async def build(self, id: str, config: Any) -> Response:
        return await self.inner.build(id, config)

    async def run(self, id: str, input: str) -> Response:
        answer = await self.inner.run(id, input)
        if answer.get("stop_reason") == "max_tool_turns":
            return {**answer, **self.changed}
        return answer

    async def close(self, id: str) -> Response:
        return await self.inner.close(id)


def cap_output_lost() -> AtTheCap:
    """A defect: a run stopped at the cap answers ok with an output that is neither the last reply's
    text nor the notice, so neither turn_cap_end value fits."""
    return AtTheCap({"output": "<lost>"})


def cap_stop_hidden() -> AtTheCap:
    """A wrong declaration, not a defect: the run at the cap says stop_reason completed (the
    runtime exposes nothing about the cap), while hello keeps the default cap_stop_reason reported."""
    return AtTheCap({"stop_reason": "completed"})
