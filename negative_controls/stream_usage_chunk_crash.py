"""Every chunk's `choices[0]` is read, the usage chunk's too.

The last chunk of a stream that asked for usage has `choices: []`: reading it
raises IndexError, and every streamed turn fails.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-usage-chunk-crash",
    provenance="public-bug",
    bug="choices[0] read from every chunk: the usage chunk (choices: []) crashes the turn",
    source="upstream-stream-usage-chunk (pydantic/pydantic-ai #181, #5165; microsoft/autogen #5078)",
    kills=("stream.chunking-invariant", "stream.named-shapes"),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old=(
                '    choices = getattr(chunk, "choices", None)\n    return choices[0] if choices else None\n'
            ),
            new="    return chunk.choices[0]\n",
        ),
    ),
    select="test_streaming",
)
