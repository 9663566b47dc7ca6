"""The reference reading a cap of 0 or below as runtimes do (issue 22 §3), declared or not, for
tests/precision/test_cap_below_one_variants.py.

- `default_cap`: 0 and negative caps read as "not set" (a falsy-zero check: `cap or DEFAULT`, and
  `cap < 1` the same way), so the declared default cap applies;
- `no_tool_runs`: 0 and negative caps mean "do not run tools automatically" (Semantic Kernel's
  `max_auto_invoke_attempts > 0`, Google Gen AI SDK's `maximumRemoteCalls`): one model request,
  its calls returned unrun; the adapter answers ok, stop_reason max_tool_turns, the reply's text;
- `no_model_request`: 0 and negative caps leave no step to run (Haystack's
  `while counter < max_agent_steps`): no model request at all; the adapter answers ok,
  stop_reason max_tool_turns, output "".

A test double reaching into the reference (its config and runtime modules), never a pattern for a
real adapter.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import config, runtime
from toolproof.candidates.reference.loop import RunResult
from toolproof.candidates.reference.messages import assistant_message, request_messages

DEFAULT_CAP = {"zero_max_tool_turns": "default_cap", "negative_max_tool_turns": "default_cap"}
NO_TOOL_RUNS = {"zero_max_tool_turns": "no_tool_runs", "negative_max_tool_turns": "no_tool_runs"}
NO_MODEL_REQUEST = {"zero_max_tool_turns": "no_model_request", "negative_max_tool_turns": "no_model_request"}

BelowOne = Callable[[list[Any], Callable[..., Any]], Awaitable[RunResult]]
"""What a run does with a cap below 1, given its history and the model."""


def _below_one(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value < 1


def _default_for_below_one() -> None:
    """Patch the reference: a cap below 1 is the default cap."""
    validate = config.validate_max_tool_turns

    def read(value: object, default: int) -> int:
        return default if _below_one(value) else validate(value, default)

    config.validate_max_tool_turns = read


def _below_one_runs(below_one: BelowOne) -> None:
    """Patch the reference: a cap below 1 passes validation, and a run with it does `below_one`."""
    validate = config.validate_max_tool_turns
    loop = runtime.run_tool_loop

    def read(value: object, default: int) -> int:
        return -1 if _below_one(value) else validate(value, default)

    async def run(
        history: list[Any],
        ask_model: Callable[..., Any],
        execute_call: Callable[..., Any],
        max_tool_turns: int,
        continuation: str | None,
        notice: str | None,
    ) -> RunResult:
        if max_tool_turns >= 1:
            return await loop(history, ask_model, execute_call, max_tool_turns, continuation, notice)
        return await below_one(history, ask_model)

    config.validate_max_tool_turns = read
    runtime.run_tool_loop = run  # type: ignore[assignment]


async def _one_request_calls_unrun(history: list[Any], ask_model: Callable[..., Any]) -> RunResult:
    """Ask the model once and return its calls unrun."""
    reply = await ask_model(request_messages(history))
    history.append(assistant_message(reply))
    return RunResult(reply.content or "", "max_tool_turns" if reply.tool_calls else "completed")


async def _no_step(history: list[Any], ask_model: Callable[..., Any]) -> RunResult:
    """Run no step: the cap is used up before the first model request."""
    return RunResult("", "max_tool_turns")


def _no_tool_runs_below_one() -> None:
    """Patch the reference: a cap below 1 asks the model once and returns its calls unrun."""
    _below_one_runs(_one_request_calls_unrun)


def _no_model_request_below_one() -> None:
    """Patch the reference: a cap below 1 runs no step, so the model is never asked."""
    _below_one_runs(_no_step)


def reads_below_one_as_default() -> Declaring:
    """Declares default_cap for 0 and negatives and acts it out: must pass."""
    return Declaring(DEFAULT_CAP, _default_for_below_one)


def reads_below_one_as_default_undeclared() -> Declaring:
    """Reads 0 and negatives as the default cap without declaring it: must fail."""
    return Declaring({}, _default_for_below_one)


def runs_no_tools_below_one() -> Declaring:
    """Declares no_tool_runs for 0 and negatives and acts it out: must pass."""
    return Declaring(NO_TOOL_RUNS, _no_tool_runs_below_one)


def runs_no_tools_below_one_undeclared() -> Declaring:
    """Runs no tools for 0 and negatives without declaring it: must fail."""
    return Declaring({}, _no_tool_runs_below_one)


def no_tool_runs_declared_only() -> Declaring:
    """Declares no_tool_runs but takes 0 as unlimited and rejects negatives: must fail."""
    return Declaring(NO_TOOL_RUNS, None)


def runs_no_step_below_one() -> Declaring:
    """Declares no_model_request for 0 and negatives and acts it out: must pass."""
    return Declaring(NO_MODEL_REQUEST, _no_model_request_below_one)


def runs_no_step_below_one_undeclared() -> Declaring:
    """Runs no step for 0 and negatives without declaring it: must fail."""
    return Declaring({}, _no_model_request_below_one)


def no_model_request_declared_only() -> Declaring:
    """Declares no_model_request but takes 0 as unlimited and rejects negatives: must fail."""
    return Declaring(NO_MODEL_REQUEST, None)


def no_model_request_declared_one_request() -> Declaring:
    """Declares no_model_request but asks the model once for 0 and negatives (the no_tool_runs
    reading): must fail."""
    return Declaring(NO_MODEL_REQUEST, _no_tool_runs_below_one)


def no_tool_runs_declared_no_request() -> Declaring:
    """Declares no_tool_runs but never asks the model for 0 and negatives (the no_model_request
    reading): must fail."""
    return Declaring(NO_TOOL_RUNS, _no_model_request_below_one)
