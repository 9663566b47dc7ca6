"""Each run starts a new chain: its first request resends the whole conversation, naming nothing.

Declared `runs_per_build: conversation` and `responses_state:
previous_response_id`, the runtime does not carry the chain into the next run.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-reset-between-runs",
    provenance="contract",
    bug="a later run of a build does not continue the stored chain",
    source="CONTRACT.md §6e (tp-resp-chain-across-runs)",
    kills=("responses.chain-across-runs",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old='    if last is None:\n        return {"store": True}\n',
            new='    if last is None or messages[-1]["role"] == "user":\n        return {"store": True}\n',
        ),
    ),
    select="test_the_next_run_continues_the_stored_conversation",
)
