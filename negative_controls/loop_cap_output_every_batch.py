"""A declared `turn_cap_output: tool_results` that outputs every tool result of the run.

The candidate declares that a graceful stop outputs batch N's tool results, but collects the
tool messages of every batch of the run, so results the model already saw (and answered) come
back as the run's output.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-output-every-batch",
    provenance="contract",
    bug="declared turn_cap_output tool_results, but the output joins the tool results of every batch",
    source="plausible; CONTRACT.md tp-loop-cap-end (turn_cap_output)",
    kills=("loop.cap-end-text", "loop.cap-end-blank"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "turn_cap_final_call": False,\n',
            new='        "turn_cap_final_call": False,\n        "turn_cap_output": "tool_results",\n',
        ),
        Patch(
            file="loop.py",
            old=(
                "            return RunResult(graceful_stop_output(last_text, notice, max_tool_turns),"
                ' "max_tool_turns")\n'
            ),
            new=(
                "            results = [\n"
                '                e.message["content"] for e in history if e.message.get("role") == "tool"\n'
                "            ]\n"
                '            return RunResult("\\n".join(results), "max_tool_turns")\n'
            ),
        ),
    ),
)
