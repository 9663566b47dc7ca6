"""Each `input_json_delta` fragment is parsed on its own; the last one that parses is the input.

ai-agent-book #194: the fragments of a streamed `tool_use` input were parsed
one by one instead of joined. With the whole input in one fragment nothing
shows; cut anywhere, no fragment is JSON by itself and the tool receives `{}`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-stream-fragments-parsed-alone",
    provenance="public-bug",
    bug="each input_json_delta fragment is parsed alone (the last parsable one wins, else {})",
    source="contracts/sources.md#upstream-anth-stream-input (bojieli/ai-agent-book#194)",
    kills=("anthropic.stream-input-assembled", "anthropic.stream-chunking-invariant"),
    profile="reference-anthropic-stream",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    text = "".join(fragments)\n    try:\n        return json.loads(text) if text else {}\n'
            ),
            new=(
                "    parsed: list[Any] = [{}]\n"
                "    for fragment in fragments:\n"
                "        try:\n"
                "            parsed.append(json.loads(fragment))\n"
                "        except json.JSONDecodeError:\n"
                "            continue\n"
                '    text = "".join(fragments)\n'
                "    try:\n"
                "        return parsed[-1]\n"
            ),
        ),
    ),
    select=(
        "test_streamed_input_is_the_scripted_object or test_any_chunking_of_the_blocks_gives_the_same_calls"
    ),
)
