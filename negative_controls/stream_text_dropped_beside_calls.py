"""Text streamed beside tool calls is dropped from the reply.

The calls run, but the assistant message echoing the reply has no text: what
the model said before calling is lost from the history.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-text-dropped-beside-calls",
    provenance="public-bug",
    bug="a streamed reply with tool calls keeps no text (the content deltas are dropped)",
    source="upstream-stream-text-beside-calls (google/adk-python #1368)",
    kills=("stream.chunking-invariant", "stream.named-shapes"),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old='    content = "".join(reply.text) if reply.text else None\n',
            new='    content = "".join(reply.text) if reply.text and not calls else None\n',
        ),
    ),
    select="test_streaming",
)
