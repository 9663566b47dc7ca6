"""The chain is not moved on: every request after the first names the conversation's first response.

Microsoft Agent Framework left `previous_response_id` at the response of the first
message when it sent tool results, so tool calling worked only on the first turn.
Naming an older response also sends again what came after it (the later calls).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-not-updated",
    provenance="public-bug",
    bug="previous_response_id keeps naming the first response of the conversation",
    source="upstream-resp-chain-not-updated (microsoft/agent-framework #3304)",
    kills=("responses.chain-names-last-response",),
    collateral=("responses.chain-no-resend",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old="    return made[-1] if made else None\n",
            new="    return made[0] if made else None\n",
        ),
    ),
    select="test_each_request_names_the_last_response",
)
