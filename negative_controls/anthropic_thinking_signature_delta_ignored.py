"""A streamed thinking block's `signature_delta` is ignored: the block goes back unsigned.

turnstone #214, goclaw #566: the streaming path read `thinking_delta`s but not
the `signature_delta`, so the thinking block was replayed with the empty
signature of its `content_block_start`, and the API answered 400.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-thinking-signature-delta-ignored",
    provenance="public-bug",
    bug='a streamed thinking block\'s signature_delta is ignored (replayed with signature "")',
    source=(
        "contracts/sources.md#upstream-anth-thinking-replay "
        "(turnstonelabs/turnstone#214, nextlevelbuilder/goclaw#566)"
    ),
    kills=("anthropic.thinking-replayed",),
    profile="reference-anthropic-stream",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old='    elif kind == "signature_delta":\n        block["signature"] = delta.signature\n',
            new="",
        ),
    ),
    select="test_thinking_blocks_go_back_unchanged_before_the_calls",
)
