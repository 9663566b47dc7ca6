"""An `isError` tool result is treated as a failure that ends the run.

The runtime raises on `isError: true` (as if the server had failed), so a
tool that merely reports a problem aborts the whole run instead of telling
the model.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-is-error-ends-run",
    provenance="contract",
    bug="a tools/call result with isError true raises ToolError and ends the run",
    source="CONTRACT.md §10.2 and §8.4 (an isError result is not a failure)",
    kills=("err.is-error-not-a-failure",),
    collateral=("result.is-error", "loop.cap-end-blank", "loop.cap-per-run"),
    patches=(
        Patch(
            file="calls.py",
            old="from .errors import go_quote\n",
            new="from .errors import ToolError, go_quote\n",
        ),
        Patch(
            file="calls.py",
            old="    return tool_result_text(result, join)\n",
            new=(
                "    if result.is_error:\n"
                '        raise ToolError("tool reported an error: " + tool_result_text(result, join))\n'
                "    return tool_result_text(result, join)\n"
            ),
        ),
    ),
)
