"""Runs on one build forget each other although `conversation` is declared.

The agent keeps each run's history in a local list and never stores it:
every run starts from the instruction alone, while hello promises that the
second run continues the first one's conversation.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-conversation-forgotten",
    provenance="contract",
    bug="a run's history is never kept on the agent; runs_per_build conversation is declared",
    source="CONTRACT.md §9.5 (tp-hist-runs-per-build)",
    kills=("hist.runs-per-build",),
    patches=(
        Patch(
            file="runtime.py",
            old="        self.history = history\n",
            new="",
        ),
    ),
)
