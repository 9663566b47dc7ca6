"""A tool-use turn is sent back without its thinking blocks.

opencode #3077, OpenRouter ai-sdk-provider #162: the assistant turn carrying
the tool calls went back without the thinking blocks it opened with, and the
API answered 400 ("Expected `thinking` or `redacted_thinking`, but found
`tool_use`").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-thinking-dropped",
    provenance="public-bug",
    bug="the echoed tool-use turn leaves out its thinking and redacted_thinking blocks",
    source=(
        "contracts/sources.md#upstream-anth-thinking-replay "
        "(anomalyco/opencode#3077, OpenRouterTeam/ai-sdk-provider#162)"
    ),
    kills=("anthropic.thinking-replayed",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old="    blocks: list[dict[str, Any]] = list(message.get(THINKING_KEY, ()))\n",
            new="    blocks: list[dict[str, Any]] = []\n",
        ),
    ),
    select="test_thinking_blocks_go_back_unchanged_before_the_calls",
)
