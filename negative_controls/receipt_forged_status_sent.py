"""A result that is empty or not a JSON object becomes a forged `{"status": "sent"}` (seed §2.2).

HomeAgent's plugin bridge unmarshalled each result into a map: the plugin's
`ok` is not a JSON object, so the bridge replaced it with
`{status: sent}`; an empty result got the same, and an object without a
status got one added. The tool's own answer never reached the model.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="receipt-forged-status-sent",
    provenance="seed",
    bug='results that are empty or not JSON objects are replaced by {"status": "sent"}',
    source="seed homeagent-qq-output-send-loop §2.2 (internal/plugin/proc/plugin.go:336)",
    kills=("receipt.ok-verbatim", "receipt.no-synthesized-status"),
    # Every tool's text is replaced, so every check that reads a tool's text fails too.
    collateral=(
        "dedup.balda-call-carries-token",
        "result.empty",
        "result.is-error",
        "result.multi-block",
        "result.verbatim",
        "wire.invalid-name-maps-back",
    ),
    patches=(
        Patch(
            file="runtime.py",
            old="        async def execute(call: ToolCall) -> ToolContent:\n",
            new=(
                "        async def execute(call: ToolCall) -> ToolContent:\n"
                "            text = await execute_plain(call)\n"
                "            import json\n"
                "\n"
                "            try:\n"
                "                result = json.loads(text)\n"
                "            except ValueError:\n"
                "                result = None\n"
                "            if not isinstance(result, dict):\n"
                '                return json.dumps({"status": "sent"})\n'
                '            result.setdefault("status", "sent")\n'
                "            return json.dumps(result)\n"
                "\n"
                "        async def execute_plain(call: ToolCall) -> ToolContent:\n"
            ),
        ),
    ),
)
