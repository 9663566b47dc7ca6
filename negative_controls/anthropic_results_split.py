"""The results of parallel calls, one user message each.

Each tool result becomes a user message of its own, so only the first result
is in the message right after the tool-use turn (MoonshotAI/kosong #45: the API
answers "tool_use ids were found without tool_result blocks immediately
after").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-results-split",
    provenance="public-bug",
    bug="every tool_result of one turn goes in a user message of its own",
    source="upstream-anth-pairing (MoonshotAI/kosong #45)",
    kills=("anthropic.results-paired",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old='        if turns and turns[-1][0] == role == "user":\n',
            new='        if turns and turns[-1][0] == role == "user" and blocks[0]["type"] == "text":\n',
        ),
    ),
    # Named mode: one batch of five calls.
    select="test_tool_text_reaches_the_model_byte_for_byte",
)
