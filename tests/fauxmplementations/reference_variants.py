"""The reference behind a thin in-process wrapper that declares (and acts out) a variant the reference
itself does not take, for the precision self-tests (tests/precision): each declared variant must
pass exactly when acted out, and fail when declared but not acted out.

Wrapping the adapter, not the runtime: a fauxmplementation, never a pattern for real adapters
(PROTOCOL.md: the adapter passes CONFIG on and does not emulate behaviour).
"""

from __future__ import annotations

from typing import Any

from toolproof.candidates.reference import adapter

Response = dict[str, Any]


class Variant:
    """The reference adapter declaring `declared` in hello and acting out `acted` (the two differ in
    the variants that must fail)."""

    def __init__(self, declared: dict[str, Any], acted: dict[str, Any]) -> None:
        self.inner = adapter.factory("reference")
        self.declared = declared
        self.acted = acted
        self.refused_at_run: dict[str, Any] = {}
        if acted.get("parameters_strict") == "closed_root":
            close_roots()

    async def hello(self) -> Response:
        answer = await self.inner.hello()
        return {**answer, "options": {**answer["options"], **self.declared}}

    async def build(self, id: str, config: Any) -> Response:
        rejects_zero = self.acted.get("zero_max_tool_turns") == "invalid_config"
        if rejects_zero and isinstance(config, dict) and config.get("max_tool_turns") == 0:
            return {"ok": False, "error": {"kind": "invalid_config", "message": "no unlimited setting"}}
        answer = await self.inner.build(id, config)
        at_run = self.acted.get("invalid_cap_phase") == "run"
        if at_run and not answer["ok"] and isinstance(config, dict) and "max_tool_turns" in config:
            # A runtime taking its cap per run: the agent builds, the cap is refused at the run.
            rebuilt = await self.inner.build(id, {k: v for k, v in config.items() if k != "max_tool_turns"})
            if rebuilt["ok"]:
                self.refused_at_run[id] = answer["error"]
            return rebuilt
        return answer

    async def run(self, id: str, input: str) -> Response:
        if id in self.refused_at_run:
            return {"ok": False, "error": self.refused_at_run[id]}
        answer = await self.inner.run(id, input)
        hides = self.acted.get("cap_stop_reason") == "not_exposed"
        if hides and answer.get("stop_reason") == "max_tool_turns":
            return {**answer, "stop_reason": "completed"}
        return answer

    async def close(self, id: str) -> Response:
        return await self.inner.close(id)


def close_roots() -> None:
    """Act out parameters_strict closed_root (as @ai-sdk/mcp does): every tool's parameters get
    `additionalProperties: false` at the root. The suite runs in a process of its own (suite_run), so
    patching the reference's packing module stays there."""
    from toolproof.candidates.reference import packing

    convert = packing.lowercase_schema_types

    def closed(schema: Any) -> Any:
        return {**convert(schema), "additionalProperties": False}

    packing.lowercase_schema_types = closed


ZERO_INVALID = {"zero_max_tool_turns": "invalid_config"}
STOP_HIDDEN = {"cap_stop_reason": "not_exposed"}
CAP_AT_RUN = {"invalid_cap_phase": "run"}


def rejects_zero() -> Variant:
    """Declares zero_max_tool_turns invalid_config and rejects max_tool_turns 0 at build."""
    return Variant(ZERO_INVALID, ZERO_INVALID)


def rejects_zero_undeclared() -> Variant:
    """Rejects max_tool_turns 0 at build without declaring it: must fail."""
    return Variant({}, ZERO_INVALID)


def zero_declared_only() -> Variant:
    """Declares zero_max_tool_turns invalid_config but runs 0 as unlimited: must fail."""
    return Variant(ZERO_INVALID, {})


def hides_cap_stop() -> Variant:
    """Declares cap_stop_reason not_exposed and answers a capped run with stop_reason completed."""
    return Variant(STOP_HIDDEN, STOP_HIDDEN)


def hides_cap_stop_undeclared() -> Variant:
    """Answers a capped run with stop_reason completed without declaring it: must fail."""
    return Variant({}, STOP_HIDDEN)


def refuses_cap_at_run() -> Variant:
    """Declares invalid_cap_phase run and refuses an invalid cap at the first run."""
    return Variant(CAP_AT_RUN, CAP_AT_RUN)


def refuses_cap_at_run_undeclared() -> Variant:
    """Refuses an invalid cap at the first run without declaring it: must fail."""
    return Variant({}, CAP_AT_RUN)


ROOT_CLOSED = {"parameters_strict": "closed_root"}


def closes_roots() -> Variant:
    """Declares parameters_strict closed_root and closes every tool's root object."""
    return Variant(ROOT_CLOSED, ROOT_CLOSED)


def closes_roots_undeclared() -> Variant:
    """Closes every tool's root object without declaring it: must fail."""
    return Variant({}, ROOT_CLOSED)


def roots_closed_declared_only() -> Variant:
    """Declares parameters_strict closed_root but offers inputSchema unchanged: must fail."""
    return Variant(ROOT_CLOSED, {})
