"""A continuation message is added even to a run's first request.

The runtime appends its placeholder before every model call, not only after
a tool round, so the first request of a run already ends with it instead of
with the user's input.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="cont-first-request-placeholder",
    provenance="contract",
    bug="the continuation message is added before every model call, the first one included",
    source="plausible; seed homeagent-qq-output-send-loop §4.4 (only after an assistant/tool message)",
    kills=("cont.none-in-first-request",),
    # The first request no longer ends with the input, and run 2 starts after a synthetic message.
    collateral=("hist.first-request-ends-with-input", "hist.runs-per-build"),
    profile="reference-continuation",
    patches=(
        Patch(
            file="loop.py",
            old='    if text is not None and history and history[-1].role in ("assistant", "tool"):\n',
            new="    if text is not None and history:\n",
        ),
    ),
)
