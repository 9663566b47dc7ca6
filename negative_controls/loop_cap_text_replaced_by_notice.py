"""At the cap, the notice replaces the model's text even when that text is not blank.

The seed's proposed fix appends a system notice and returns; a runtime that
always returns the notice drops what the model last said.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-text-replaced-by-notice",
    provenance="contract",
    bug="the graceful output is always turn_cap_notice, even when the last reply has text",
    source="plausible; seed homeagent-qq-output-send-loop §4.2 (notice at the cap)",
    kills=("loop.cap-end-text",),
    patches=(
        Patch(
            file="loop.py",
            old='    if last_text is not None and last_text.strip() != "":\n        return last_text\n',
            new="",
        ),
    ),
)
