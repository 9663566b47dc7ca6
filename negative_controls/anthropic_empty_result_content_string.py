"""An empty tool result sent as `content: ""`.

The tool's empty text passes through unchecked into the `tool_result`
(anomalyco/opencode #15371: "The content field in the Message object at
messages.N is empty"; zed-industries/zed #27130: the API "returns a 400 if a
tool output is an empty string"). The reference declares
`anthropic_empty_result: no_content` (the default).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-empty-result-content-string",
    provenance="public-bug",
    bug='an empty tool result is a tool_result with content ""',
    source="upstream-anth-empty-result (anomalyco/opencode #15371; zed-industries/zed #27130)",
    # One defect, one failure: anthropic.no-empty-text leaves an empty result's shape to this check.
    kills=("anthropic.empty-result-per-option",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old='    if message["content"]:\n        block["content"] = message["content"]\n    elif',
            new='    block["content"] = message["content"]\n    if not message["content"] and',
        ),
    ),
    select="test_empty_results_are_sent_as_declared",
)
