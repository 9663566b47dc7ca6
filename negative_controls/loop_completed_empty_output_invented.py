"""A final reply without text is turned into a made-up output.

A runtime that wants "something to show" replaces an empty final reply with
placeholder text. The contract says the output is exactly the reply's text,
and the text of a reply whose `content` is "" (or null, or absent) is "".
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-completed-empty-output-invented",
    provenance="contract",
    bug='a completed run whose final reply has no text returns "(no output)" instead of ""',
    source="contracts/CONTRACT.md §2 (text of a message), §11.1 tp-loop-completed",
    kills=("loop.completed-empty-output",),
    patches=(
        Patch(
            file="loop.py",
            old='return RunResult(reply.content or "", "completed")',
            new='return RunResult(reply.content or "(no output)", "completed")',
        ),
    ),
)
