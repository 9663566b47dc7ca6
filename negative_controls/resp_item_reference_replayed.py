"""`responses_state: stateless` declared, but earlier assistant text is replayed as an
`item_reference` to the stored message.

That leans on the server having stored the earlier response (the AI SDK does
so under its default `store: true`); a stateless exchange must send the item.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-item-reference-replayed",
    provenance="contract",
    bug="declares responses_state stateless, replays an assistant message as an item_reference",
    source="CONTRACT.md §6b item 17 (tp-resp-endpoint, responses_state)",
    kills=("responses.endpoint",),
    collateral=("hist.append-only", "hist.assistant-text-kept"),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='        items.append(message_item(role, message["content"]))\n',
            new=(
                '        items.append({"type": "item_reference", "id": "msg_stored"} if role == "assistant"'
                ' else message_item(role, message["content"]))\n'
            ),
        ),
    ),
    select="test_echo_keeps_calls_and_text",
)
