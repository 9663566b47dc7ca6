"""A chained request names the response that asked for tool calls, but sends no output for them.

openai-agents runs chained by `previous_response_id` failed with "No tool output
found for function call call_...": a call of the named response was left without
its `function_call_output`.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-output-missing",
    provenance="public-bug",
    bug="a chained request leaves the named response's calls without their outputs",
    source="upstream-resp-call-id (openai/openai-agents-python #673, #1061)",
    kills=("responses.chain-outputs-paired",),
    collateral=("responses.chain-names-last-response",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old='        "input": input_items(messages[last + 1 :]),\n',
            new='        "input": input_items([m for m in messages[last + 1 :] if m["role"] != "tool"]),\n',
        ),
    ),
    select="test_each_request_names_the_last_response and call",
)
