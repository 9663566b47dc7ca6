"""`zero_max_tool_turns: no_model_request` declared, but a cap of 0 still asks the model once.

A step budget checked before each step (Haystack's `while counter < max_agent_steps`) leaves a cap
of 0 no model request at all. This loop checks the budget only after the first step (a do-while),
so 0 asks the model once and returns its calls unrun: the `no_tool_runs` reading, behind a
declaration that promises no model request.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-zero-no-model-request-asks-once",
    provenance="contract",
    bug="hello declares zero_max_tool_turns no_model_request; max_tool_turns 0 asks the model once",
    source=(
        "CONTRACT.md §11.5 (tp-loop-cap-zero-unlimited, no_model_request); sources.md runtime-cap-below-one"
    ),
    kills=("loop.cap-zero-unlimited",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "default_max_tool_turns": profile.default_max_tool_turns,\n',
            new=(
                '        "default_max_tool_turns": profile.default_max_tool_turns,\n'
                '        "zero_max_tool_turns": "no_model_request",\n'
            ),
        ),
        Patch(
            file="loop.py",
            old='            return RunResult(reply.content or "", "completed")\n',
            new=(
                '            return RunResult(reply.content or "", "completed")\n'
                "        if max_tool_turns == 0:\n"
                '            return RunResult(reply.content or "", "max_tool_turns")\n'
            ),
        ),
    ),
)
