"""The reference making the final call after the cap (`turn_cap_final_call: true`), declared or
not, for tests/precision/test_final_call_variant.py.

No bundled runtime makes request N+1, so the suite's final-call branch is exercised here: the
reference's loop is wrapped to ask the model once more after batch N, withholding the tools as
`turn_cap_final_call_tools` says (`omit`: no tools key; `tool_choice_none`: the tools kept with
tool_choice "none"). A test double reaching into the reference, never a pattern for an adapter.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from _declaring import Declaring  # tests/fauxmplementations
from toolproof.candidates.reference import model, runtime
from toolproof.candidates.reference.loop import (
    RunResult,
    apply_continuation,
    graceful_stop_output,
    run_tool_loop,
)
from toolproof.candidates.reference.messages import assistant_message, request_messages


def _install(withhold: str) -> None:
    """Patch the reference runtime to make request N+1, withholding the tools by `withhold`."""
    final = {"now": False}
    original_request = runtime.request_completion

    async def request(
        client: Any, name: str, messages: list[dict[str, Any]], tools: list[Any], **keywords: Any
    ) -> Any:
        if not final["now"]:
            return await original_request(client, name, messages, tools, **keywords)
        if withhold == "omit":
            return await original_request(client, name, messages, [], **keywords)
        arguments = {**model.completion_arguments(name, messages, tools), "tool_choice": "none"}
        return model.parse_reply(await client.chat.completions.create(**arguments))

    async def loop(history: list[Any], ask_model: Any, execute: Any, **options: Any) -> RunResult:
        result = await run_tool_loop(history, ask_model, execute, **options)
        if result.stop_reason != "max_tool_turns":
            return result
        apply_continuation(history, options["continuation"])
        final["now"] = True
        try:
            reply = await ask_model(request_messages(history))
        finally:
            final["now"] = False
        history.append(assistant_message(reply))
        cap = options["max_tool_turns"]
        return RunResult(graceful_stop_output(reply.content, options["notice"], cap), "max_tool_turns")

    runtime.request_completion = request  # type: ignore[assignment]
    runtime.run_tool_loop = loop  # type: ignore[assignment]


def final_call_omit() -> Declaring:
    """Declares and makes the final call without tools: must pass."""
    return Declaring(
        {"turn_cap_final_call": True, "turn_cap_final_call_tools": "omit"}, partial(_install, "omit")
    )


def final_call_tool_choice_none() -> Declaring:
    """Declares and makes the final call with tool_choice "none": must pass."""
    options = {"turn_cap_final_call": True, "turn_cap_final_call_tools": "tool_choice_none"}
    return Declaring(options, partial(_install, "tool_choice_none"))


def final_call_withheld_the_other_way() -> Declaring:
    """Declares tool_choice_none but omits the tools: must fail."""
    options = {"turn_cap_final_call": True, "turn_cap_final_call_tools": "tool_choice_none"}
    return Declaring(options, partial(_install, "omit"))


def final_call_undeclared() -> Declaring:
    """Makes the final call without declaring it: must fail."""
    return Declaring({}, partial(_install, "omit"))


def final_call_declared_only() -> Declaring:
    """Declares the final call but never makes it: must fail."""
    return Declaring({"turn_cap_final_call": True, "turn_cap_final_call_tools": "omit"}, None)
