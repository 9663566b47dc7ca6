"""A streamed reply that begins with text is taken as a text reply.

Tool-call deltas that follow streamed text are ignored: the run ends on the
text, and the calls never run.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-calls-after-text-not-run",
    provenance="public-bug",
    bug="tool-call deltas after streamed text are ignored: the reply ends the run as text",
    source="upstream-stream-text-beside-calls (run-llama/llama_index #15083; pydantic/pydantic-ai #505)",
    kills=("stream.chunking-invariant", "stream.named-shapes"),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old=(
                "        for tool_delta in delta.tool_calls or ():\n"
                "            add_call_delta(reply, tool_delta)\n"
            ),
            new=(
                '        if not "".join(reply.text):\n'
                "            for tool_delta in delta.tool_calls or ():\n"
                "                add_call_delta(reply, tool_delta)\n"
            ),
        ),
    ),
    select="test_streaming",
)
