"""A message that stopped at `max_tokens` is read as a complete turn: its `tool_use` runs.

superdav-ai-agent #1388: a `tool_use` block cut at `max_tokens` was dispatched
with the fragment that had arrived. Here the stop reason is not looked at: the
blocks of a truncated message are a turn, and its calls run.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-max-tokens-tool-use-run",
    provenance="public-bug",
    bug="the stop reason max_tokens is ignored: a truncated message's tool_use blocks run",
    source=(
        "contracts/sources.md#upstream-anth-max-tokens-tool-use (Ultimate-Multisite/superdav-ai-agent#1388)"
    ),
    kills=("anthropic.max-tokens-never-run",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    if stop_reason == "max_tokens":\n'
                '        raise ModelError("model reply stopped at max_tokens: the reply is incomplete")\n'
            ),
            new="",
        ),
    ),
    select="test_a_max_tokens_turn_runs_no_call",
)
