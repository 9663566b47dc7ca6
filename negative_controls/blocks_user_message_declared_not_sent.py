"""binary_result_chat user_message declared, but no image is forwarded after the tool messages.

The runtime puts the placeholder in the tool message, as `user_message`
asks, and never sends the follow-up user message with the image (Claude
Desktop and claude.ai attached such an image one turn late or not at all,
anthropics/claude-ai-mcp#969 and its companions): the model is told of an
image it never gets.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-user-message-declared-not-sent",
    provenance="public-bug",
    bug="declares binary_result_chat user_message, sends the placeholder and never the image",
    source="CONTRACT.md §5d.1 (tp-result-binary-block); sources.md upstream-binary-blocks-dropped "
    "(https://github.com/anthropics/claude-ai-mcp/issues/969)",
    kills=("result.block-image", "result.block-order"),
    patches=(
        Patch(
            file="profiles.py",
            old='        "binary_result_chat": "placeholder",\n',
            new='        "binary_result_chat": "user_message",\n',
        ),
    ),
    select="test_result_blocks",
)
