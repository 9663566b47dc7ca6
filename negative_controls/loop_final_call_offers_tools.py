"""A declared final call after the cap still offers the tools.

The candidate declares `turn_cap_final_call: true` and makes request N+1,
but sends it with the same `tools` as every other request, so the model may
call yet another tool (CONTRACT.md §11.2: request N+1 has no tools).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-final-call-offers-tools",
    provenance="contract",
    bug="the final request after the cap (declared turn_cap_final_call) is sent with tools",
    source="plausible; CONTRACT.md §11.2 (turn_cap_final_call)",
    kills=("loop.cap-exact", "loop.cap-default"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "turn_cap_final_call": False,\n',
            new='        "turn_cap_final_call": True,\n',
        ),
        Patch(
            file="loop.py",
            old=("        if turn_cap_reached(batches_done, max_tool_turns):\n            return RunResult("),
            new=(
                "        if turn_cap_reached(batches_done, max_tool_turns):\n"
                "            apply_continuation(history, continuation)\n"
                "            last_text = (await ask_model(request_messages(history))).content\n"
                "            return RunResult("
            ),
        ),
    ),
)
