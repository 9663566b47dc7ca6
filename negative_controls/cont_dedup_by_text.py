"""Continuation messages are removed by comparing text, so a real user message goes too.

The seed's own proposed fix (§4.4) scans the history and deletes every
message equal to the placeholder text before appending one. A user who
types exactly that text loses their message from the conversation.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="cont-dedup-by-text",
    provenance="seed",
    bug="earlier continuation messages are found by text, removing a real user message with that text",
    source="seed homeagent-qq-output-send-loop §4.4 (string comparison instead of a marker)",
    kills=("cont.user-message-kept",),
    profile="reference-continuation",
    patches=(
        Patch(
            file="loop.py",
            old="    history[:] = [entry for entry in history if not entry.synthetic]\n",
            new='    history[:] = [entry for entry in history if entry.message.get("content") != text]\n',
        ),
    ),
)
