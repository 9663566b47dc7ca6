"""`"tools": []` sent when no tool is offered (OpenAI rejects an empty tools array)."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-empty-tools-array",
    provenance="contract",
    bug="completion_arguments always sets tools, [] when there are none",
    source="open-questions (no tools: absent or []?); CONTRACT.md §6.5",
    kills=("wire.tools-never-empty",),
    patches=(
        Patch(
            file="model.py",
            old='    if tools:\n        arguments["tools"] = tools\n',
            new='    arguments["tools"] = tools\n',
        ),
    ),
    # Named mode: a run with no server: no tool to offer.
    select="test_no_server_offers_no_tool",
)
