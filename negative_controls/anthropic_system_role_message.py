"""The instruction sent as a first message of role `system` on the Messages API.

The chat-completions habit carried over: the system message stays in
`messages` (QuixiAI/dolphin-mcp #5, charmbracelet/mods #273: "Unexpected role
"system". The Messages API accepts a top-level `system` parameter").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-system-role-message",
    provenance="public-bug",
    bug="the instruction stays a message of role system in messages, not the top-level system",
    source="upstream-anth-system-role (QuixiAI/dolphin-mcp #5; charmbracelet/mods #273)",
    kills=("anthropic.request-schema",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '        if message["role"] == "system":\n'
                "            continue\n"
                '        role = "assistant" if message["role"] == "assistant" else "user"\n'
            ),
            new='        role = message["role"] if message["role"] in ("assistant", "system") else "user"\n',
        ),
        Patch(
            file="anthropic_wire.py",
            old='    system = system_text(chat["messages"])\n',
            new="    system = None\n",
        ),
    ),
    # Named mode: a run with CONFIG's instruction.
    select="test_model_request_uses_configured_model_and_key",
)
