"""The final reply's text is trimmed before it is returned as the run's output.

A "helpful" normalisation of the model's text: the contract says the output is
exactly the final reply's text, and a caller that relays it (a chat channel, a
file) gets something the model never wrote.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-completed-output-trimmed",
    provenance="contract",
    bug="the completed run's output is reply.content.strip() instead of the text as sent",
    source="contracts/CONTRACT.md tp-loop-completed",
    kills=("loop.completed-output",),
    patches=(
        Patch(
            file="loop.py",
            old='return RunResult(reply.content or "", "completed")',
            new='return RunResult((reply.content or "").strip(), "completed")',
        ),
    ),
)
