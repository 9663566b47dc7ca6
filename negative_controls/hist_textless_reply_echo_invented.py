"""The echo of a final reply without text gets invented text in the conversation.

OpenAI rejects an assistant message with neither content nor tool_calls, so a
runtime has to echo a text-less final reply with some content; this one puts
placeholder text there instead of "". Under `runs_per_build: conversation` the
next run's model then reads an assistant turn the model never wrote.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-textless-reply-echo-invented",
    provenance="contract",
    bug='the echo of a final reply without text has content "(empty reply)" instead of ""',
    source="contracts/CONTRACT.md §2 (text of a message), §9.5 tp-hist-runs-per-build",
    kills=("hist.runs-per-build-textless-reply",),
    patches=(
        Patch(
            file="messages.py",
            old='return HistoryEntry({"role": "assistant", "content": reply.content or ""})',
            new='return HistoryEntry({"role": "assistant", "content": reply.content or "(empty reply)"})',
        ),
    ),
)
