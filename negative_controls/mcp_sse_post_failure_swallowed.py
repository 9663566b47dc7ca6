"""A failed SSE message POST is swallowed: the call waits for a stream answer that never comes.

The official MCP Python SDK's `sse_client` logs and drops a POST that fails
(HTTP 500, a dropped connection) and leaves its request waiting
(modelcontextprotocol/python-sdk#2110, fixed for sse_client by PR #2483). The
reference works around it (`PostFailures`, `raced`); this control removes the
workaround, so the call waits on the SDK's read timeout with nothing left in
flight. The patched reference declares `idle_answer_seconds: 1` and the runs
use a 3 s request timeout, so the wait shows in seconds.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="mcp-sse-post-failure-swallowed",
    provenance="public-bug",
    bug="raced() awaits the operation alone: a failed SSE message POST leaves the call waiting",
    source=(
        "contracts/sources.md#upstream-sse-post-failure-swallowed "
        "(modelcontextprotocol/python-sdk#2110, PR #2483)"
    ),
    kills=("proto.answers-when-idle",),
    select="test_sse_message_post",
    pytest_args=("--toolproof-timeout=3",),
    patches=(
        Patch(
            file="toolsets.py",
            old=(
                '    """`operation`\'s result, or ToolError as soon as a message POST failed (SSE only)."""\n'
            ),
            new=(
                '    """`operation`\'s result, or ToolError as soon as a message POST failed (SSE only)."""\n'
                "    return await operation\n"
            ),
        ),
        Patch(
            file="profiles.py",
            old='        "model_stream": "always" if profile.stream else "never",\n',
            new=(
                '        "model_stream": "always" if profile.stream else "never",\n'
                '        "idle_answer_seconds": 1,\n'
            ),
        ),
    ),
)
