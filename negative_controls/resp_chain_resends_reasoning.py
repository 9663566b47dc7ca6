"""Beside `previous_response_id`, the named response's reasoning items are sent again.

The AI SDK resent a stored response's reasoning items when it chained by
`previousResponseId`; the API answers the duplicate item with an error.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-resends-reasoning",
    provenance="public-bug",
    bug="a chained request resends the named response's reasoning items beside previous_response_id",
    source="upstream-resp-chain-resend (vercel/ai #15502, PR #15503)",
    kills=("responses.chain-no-resend",),
    collateral=("responses.chain-names-last-response",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old='        "input": input_items(messages[last + 1 :]),\n',
            new=(
                '        "input": list(messages[last].get(REASONING_KEY, ()))'
                " + input_items(messages[last + 1 :]),\n"
            ),
        ),
    ),
    select="test_each_request_names_the_last_response and reasoning",
)
