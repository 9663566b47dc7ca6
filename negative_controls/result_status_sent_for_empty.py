"""An empty result replaced by a synthesized `{"status": "sent"}` (seed zh: the forged status).

The tool returned nothing; the model is told it succeeded with a status the
tool never produced.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-status-sent-for-empty",
    provenance="seed",
    bug='tool_result_text returns {"status": "sent"} when the tool\'s text is empty',
    source="seed homeagent-qq-output-send-loop (plugin bridge forging {status: sent}); CONTRACT.md §8.2",
    # The seed's own bug: receipt.no-synthesized-status echoes an empty text too.
    kills=("result.empty", "result.no-content-block", "receipt.no-synthesized-status"),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new='    return join.join(text_blocks(result.content)) or \'{"status": "sent"}\'\n',
        ),
    ),
)
