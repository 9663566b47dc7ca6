"""Under item references, the reasoning item's reference is left out; its call's stays.

A runtime that pruned reasoning items from history kept the calls they belong to
(openai-agents: a dangling item after pruning; agency-swarm: "function_call was
provided without its required 'reasoning' item").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reasoning-reference-dropped",
    provenance="public-bug",
    bug="item references leave out the reasoning item before a referenced call",
    source="upstream-resp-reasoning-dropped-id-kept (openai/openai-agents-python PR #3207)",
    kills=("responses.reasoning-by-id",),
    profile="reference-responses-refs",
    patches=(
        Patch(
            file="responses.py",
            old='    return [{"type": "item_reference", "id": item_id} for item_id in item_ids]\n',
            new=(
                '    return [{"type": "item_reference", "id": item_id} for item_id in item_ids'
                ' if not item_id.startswith("rs_")]\n'
            ),
        ),
    ),
    select="test_stored_reasoning_stands_before_its_call",
)
