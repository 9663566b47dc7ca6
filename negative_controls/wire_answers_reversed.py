"""Tool messages of a batch appended in completion order (here: reversed), not call order.

Runtimes that run a batch concurrently and append answers as they finish
reorder them (SHOULD: tp-wire-answer-order).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-answers-reversed",
    provenance="contract",
    bug="the tool messages of a batch are appended in reverse call order",
    source="CONTRACT.md §6.12 (tp-wire-answer-order, SHOULD)",
    kills=("wire.tool-answers-in-call-order",),
    patches=(
        Patch(
            file="loop.py",
            old=(
                "        for call in reply.tool_calls:\n"
                "            history.append(tool_message(call.id, await execute_call(call)))\n"
            ),
            new=(
                "        answers = [\n"
                "            tool_message(call.id, await execute_call(call)) for call in reply.tool_calls\n"
                "        ]\n"
                "        history.extend(reversed(answers))\n"
            ),
        ),
    ),
    # Named mode: one batch of four echo_text calls: its answers go out reversed.
    select="test_tool_text_reaches_the_model_byte_for_byte",
)
