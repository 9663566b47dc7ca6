"""A streamed call whose arguments stay "" is dropped.

A call to a tool without parameters streams its opener (`arguments: ""`) and
no fragment; an accumulator that keeps only calls with arguments loses it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-parameterless-call-dropped",
    provenance="public-bug",
    bug='a streamed call with no arguments fragment (arguments stay "") is dropped',
    source="upstream-stream-parameterless-call (vercel/ai #5658, #6687)",
    kills=("stream.named-shapes",),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old="        for _, call in sorted(reply.calls.items())\n",
            new="        for _, call in sorted(reply.calls.items())\n        if call.fragments\n",
        ),
    ),
    select="test_historical_stream_shapes",
)
