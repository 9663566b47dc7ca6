"""Item references name a function call by its `call_id` instead of its item id.

The AI SDK referenced calls by the wrong id (`item_reference` / `fc_...` against
outputs paired by `call_id`); the API answers a reference to no item with 404.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reference-by-call-id",
    provenance="public-bug",
    bug="an item_reference names a function call by its call_id",
    source="upstream-resp-call-id (vercel/ai PR #15795)",
    kills=("responses.references-resolve",),
    collateral=("responses.item-references-as-declared",),
    profile="reference-responses-refs",
    patches=(
        Patch(
            file="responses.py",
            old='    ids = [getattr(item, "id", None) for item in items]\n',
            new='    ids = [getattr(item, "call_id", None) or getattr(item, "id", None) for item in items]\n',
        ),
    ),
    select="test_the_turns_items_are_named_by_reference",
)
