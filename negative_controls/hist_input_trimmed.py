"""The run's input is trimmed before it is sent to the model.

`input.strip()` on the way in: leading and trailing whitespace (an indented
code snippet, a trailing newline) is lost, so the model never sees the
user's exact text.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-input-trimmed",
    provenance="contract",
    bug="the user message of a run holds the input with surrounding whitespace stripped",
    source="CONTRACT.md §9.1 (tp-hist-first-request-input)",
    kills=("hist.first-request-ends-with-input",),
    patches=(
        Patch(
            file="messages.py",
            old=(
                '    """A real user message (the run\'s input)."""\n'
                '    return HistoryEntry({"role": "user", "content": text})\n'
            ),
            new=(
                '    """A real user message (the run\'s input)."""\n'
                '    return HistoryEntry({"role": "user", "content": text.strip()})\n'
            ),
        ),
    ),
)
