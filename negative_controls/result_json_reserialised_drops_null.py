"""Under `json_tool_text: reserialised`, the re-serialised JSON object loses its null-valued keys.

A declared re-serialisation is judged JSON-equal, exactly (tp-result-verbatim):
the value the tool sent, every key kept. This control declares reserialised
(pydantic-ai's way) and drops `"detail": null` from `{"status": "sent", "detail": null}`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-json-reserialised-drops-null",
    provenance="contract",
    bug="a JSON object tool text is re-serialised without its null-valued keys (json_tool_text reserialised)",
    source="CONTRACT.md §8.1 (tp-result-verbatim: under reserialised, JSON-equal, nothing dropped)",
    kills=("result.verbatim",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "multi_block_join": profile.multi_block_join,\n',
            new=(
                '        "multi_block_join": profile.multi_block_join,\n'
                '        "json_tool_text": "reserialised",\n'
            ),
        ),
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    import json\n"
                "\n"
                "    text = join.join(text_blocks(result.content))\n"
                "    try:\n"
                "        value = json.loads(text)\n"
                "    except ValueError:\n"
                "        return text\n"
                "    if isinstance(value, dict):\n"
                "        return json.dumps({k: v for k, v in value.items() if v is not None})\n"
                "    return json.dumps(value) if isinstance(value, list) else text\n"
            ),
        ),
    ),
)
