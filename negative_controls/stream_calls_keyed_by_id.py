"""Streamed calls keyed by their `id`, which only a call's first delta carries.

Every later delta (the arguments fragments) has no id, so the fragments of all
calls pile up on one anonymous call, and the real calls keep `arguments: ""`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-calls-keyed-by-id",
    provenance="public-bug",
    bug="streamed tool-call deltas merged by id, though ids arrive only in a call's first delta",
    source="upstream-stream-id-concat (openai/openai-agents-python #990, #999)",
    kills=("stream.chunking-invariant", "stream.named-shapes"),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old="    finish_reason: str | None = None\n",
            new=(
                "    finish_reason: str | None = None\n"
                "    ids: dict[str, int] = field(default_factory=dict)\n"
            ),
        ),
        Patch(
            file="streaming.py",
            old="    call = reply.calls.setdefault(index, _StreamedCall())\n",
            new=(
                "    key = reply.ids.setdefault(tool_delta.id or '', len(reply.ids))\n"
                "    call = reply.calls.setdefault(key, _StreamedCall())\n"
            ),
        ),
    ),
    select="test_streaming",
)
