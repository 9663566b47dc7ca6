"""`responses_state: item_reference` declared, but earlier output items are resent whole.

The declaration says the runtime names stored items; this one behaves stateless.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-references-sent-whole",
    provenance="contract",
    bug="declares responses_state item_reference, resends earlier output items whole",
    source="CONTRACT.md §6e (tp-resp-item-references)",
    kills=("responses.item-references-as-declared",),
    profile="reference-responses-refs",
    patches=(
        Patch(
            file="responses.py",
            old="        return item_references(message[ITEM_IDS_KEY])\n",
            new="        return input_items_of(message)\n",
        ),
    ),
    select="test_the_turns_items_are_named_by_reference",
)
