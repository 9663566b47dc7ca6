"""Beside `previous_response_id`, the named response's own items are sent again.

The AI SDK resent the function calls (and reasoning items) a stored response
already held when it chained by `previousResponseId`: the API answers such
duplicates with 400 or 404.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-resends-calls",
    provenance="public-bug",
    bug="a chained request resends the named response's function calls beside previous_response_id",
    source="upstream-resp-chain-resend (vercel/ai #15502, PR #15503)",
    kills=("responses.chain-no-resend",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old='        "input": input_items(messages[last + 1 :]),\n',
            new='        "input": input_items(messages[last:]),\n',
        ),
    ),
    select="test_each_request_names_the_last_response and call",
)
