"""Every `tool_result` is sent without `is_error`, failures included.

The model reads a failed call, an unknown tool and an MCP isError result as
results (JetBrains/koog #1598, fixed by #1700 / #1753: "the framework wasn't
using" the API's is_error field).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-is-error-dropped",
    provenance="public-bug",
    bug="tool_result blocks never carry is_error true",
    source="upstream-anth-is-error (JetBrains/koog #1598, #1700)",
    kills=("anthropic.error-results-flagged",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old='        block["is_error"] = True\n',
            new="        pass\n",
        ),
    ),
    select="test_failed_calls_and_is_error_results_are_flagged",
)
