"""Function calls are left out of the referenced conversation; their outputs stay.

The AI SDK's fix for resent items skipped client function calls too, and the
`function_call_output` it still sent had no call: the API's 400 for the
conversation the request's references stand for.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-output-orphan",
    provenance="public-bug",
    bug="function calls dropped from the referenced conversation, their outputs kept",
    source="upstream-resp-chain-resend (vercel/ai #18537, PR #18543)",
    kills=("responses.chain-outputs-paired",),
    collateral=("responses.item-references-as-declared",),
    profile="reference-responses-refs",
    patches=(
        Patch(
            file="responses.py",
            old='    return [{"type": "item_reference", "id": item_id} for item_id in item_ids]\n',
            new=(
                '    return [{"type": "item_reference", "id": item_id} for item_id in item_ids'
                ' if not item_id.startswith("fc_")]\n'
            ),
        ),
    ),
    select="test_the_turns_items_are_named_by_reference",
)
