"""A streamed message that stopped with `refusal` is read as a tool-use turn: its calls run.

cursor-byok #423: a refused message that had streamed a `tool_use` block was
reported as a tool-use turn (the "tool seen" rule ranked above the stop
reason), and the refused turn's tool calls ran.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-refusal-tool-use-run",
    provenance="public-bug",
    bug="the stop reason refusal is ignored when the message holds tool_use blocks: they run",
    source="contracts/sources.md#upstream-anth-refusal-tool-use (leookun/cursor-byok#423)",
    kills=("anthropic.refusal-never-run",),
    profile="reference-anthropic-stream",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    if stop_reason == "refusal":\n'
                '        raise ModelError("model refused: stop_reason refusal")\n'
            ),
            new="",
        ),
    ),
    select="test_a_refused_turn_runs_no_call",
)
