"""`parallel_tool_calls: false` on every request, tools or not.

OpenAI answers 400 "parallel_tool_calls is only allowed when 'tools' are specified".
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-parallel-tool-calls-without-tools",
    provenance="contract",
    bug="completion_arguments sets parallel_tool_calls false even when no tool is offered",
    source="CONTRACT.md §6.5 (tp-wire-no-empty-tools); OpenAI 400 on parallel_tool_calls without tools",
    kills=("wire.no-tool-keys-without-tools",),
    patches=(
        Patch(
            file="model.py",
            old='    arguments: dict[str, Any] = {"model": model_name, "messages": messages}\n',
            new=(
                '    arguments: dict[str, Any] = {"model": model_name, "messages": messages}\n'
                '    arguments["parallel_tool_calls"] = False\n'
            ),
        ),
    ),
    # Named mode: a run with no server: no tool to offer.
    select="test_no_server_offers_no_tool",
)
