"""Stateless with `store: false`, but the encrypted reasoning content is never asked for.

openai-agents replayed reasoning items under `store=False` without having asked
`include: ["reasoning.encrypted_content"]`: the API looked the `rs_` item up in a
store that kept nothing, 404.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reasoning-no-include",
    provenance="public-bug",
    bug="store false without include reasoning.encrypted_content: reasoning replayed by id only",
    source="upstream-resp-store-false-reasoning (openai/openai-agents-python #919, PR #920)",
    kills=("responses.reasoning-replayed",),
    collateral=("responses.unstored-never-referenced",),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='    return {"store": False, "include": [ENCRYPTED_REASONING]}\n',
            new='    return {"store": False}\n',
        ),
    ),
    select="test_reasoning_is_replayed_unchanged_before_its_call",
)
