"""The turn cap is configured but never read (seed homeagent-qq-output-send-loop §2.4).

`core.agent.max_tool_turns` was registered with a default of 10, but nothing
in the agent loop read it: the only way out was a reply without tool calls.
A model calling `output_send__qq` with a new text every time ran 80+ calls
over 30 minutes in one turn. Here the runaway goes on until the harness's
safety cap answers 400, and the run fails with model_error: every cap check
fails on its count or its end, within seconds.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-never-read",
    provenance="seed",
    bug="the agent loop never reads max_tool_turns: no cap at all",
    source="seed homeagent-qq-output-send-loop §2.4 (grep max_tool_turns internal/agent/ -> nothing)",
    kills=(
        "loop.cap-exact",
        "loop.cap-property",
        "loop.cap-end-text",
        "loop.cap-end-blank",
        "loop.cap-default",
        "loop.cap-per-run",
    ),
    # A runaway fails its checks as soon as it passes the cap the test set, and the harness never
    # sets a test's cap below the declared default + 4 (14 for the reference): it may end the run at
    # 16 model requests instead of 64.
    pytest_args=("--toolproof-safety-cap=16",),
    patches=(
        Patch(
            file="runtime.py",
            old="                max_tool_turns=self.config.max_tool_turns,\n",
            new="                max_tool_turns=0,\n",
        ),
    ),
)
