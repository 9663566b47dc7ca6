"""Assistant text sent beside tool calls is dropped from the echo (seed ru §8 P2-a).

A reply carrying both text and tool calls was echoed with the calls only:
the model's own words vanished from the conversation it saw next.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hist-text-dropped-beside-calls",
    provenance="seed",
    bug="the echo of a reply with tool calls always has content null, losing the text beside the calls",
    source="seed ru §8 P2-a (Content{FunctionResponse + Text} lost its text)",
    kills=("hist.assistant-text-kept",),
    patches=(
        Patch(
            file="messages.py",
            old='            "content": reply.content or None,\n',
            new='            "content": None,\n',
        ),
    ),
)
