"""A streamed call is final as soon as its arguments parse as JSON.

The call is dispatched then, not when the stream ends: when the stream breaks
off later, the calls already final still run (with arguments that may be a
prefix of what the model was sending).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-finalised-on-parsable-arguments",
    provenance="public-bug",
    bug="a streamed call finalised when its partial arguments parse as JSON, run though the stream broke off",
    source="upstream-stream-partial-json (vercel/ai #13137, #16838)",
    kills=("stream.unfinished-never-run",),
    profile="reference-stream",
    patches=(
        Patch(
            file="streaming.py",
            old=(
                "    reply = StreamedReply()\n"
                "    async for chunk in chunks:\n"
                "        add_chunk(reply, chunk)\n"
            ),
            new=(
                "    reply = StreamedReply()\n"
                "    try:\n"
                "        async for chunk in chunks:\n"
                "            add_chunk(reply, chunk)\n"
                "    except Exception:\n"
                "        import json\n"
                "\n"
                "        done = []\n"
                "        for _, call in sorted(reply.calls.items()):\n"
                "            try:\n"
                '                json.loads("".join(call.fragments))\n'
                "            except ValueError:\n"
                "                continue\n"
                '            done.append(ToolCall(call.id, call.name, "".join(call.fragments)))\n'
                "        if not done:\n"
                "            raise\n"
                "        return ModelReply(content=None, tool_calls=tuple(done))\n"
            ),
        ),
    ),
    select="test_a_stream_that_breaks_off_runs_no_tool",
)
