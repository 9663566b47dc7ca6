"""One accumulator for every streamed call: the deltas' `index` is ignored.

Parallel calls streamed one after another become one call whose arguments
are the two objects back to back (`{"q": ...}{"q": ...}`), which is no JSON.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-index-ignored",
    provenance="public-bug",
    bug="a single accumulator for all streamed tool-call deltas, ignoring their index",
    source="upstream-stream-index-accumulator (google/adk-python #484, #1038; langchain #34807)",
    kills=("stream.chunking-invariant", "stream.named-shapes"),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old="    call = reply.calls.setdefault(index, _StreamedCall())\n",
            new="    call = reply.calls.setdefault(0, _StreamedCall())\n",
        ),
    ),
    select="test_streaming",
)
