"""A tool call whose MCP server failed never returns: the run hangs with nothing left to answer.

After an HTTP 500 or a dropped connection the call waits for an answer that will never come (as the
MCP clients of contracts/sources.md#upstream-hang-after-mcp-failure did): every request of the
harness was answered, and the run is never answered. The patched reference declares
`idle_answer_seconds: 1` and the control's runs use a 3 s request timeout, so the hang shows in
seconds; in-process, the verdict is recorded before the timeout aborts the session.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-hang-after-tool-failure",
    provenance="public-bug",
    bug="a tools/call that failed (HTTP 500, dropped connection) waits forever: the run never returns",
    source="contracts/sources.md#upstream-hang-after-mcp-failure (fastmcp #2595, MCP python-sdk #1577)",
    kills=("proto.answers-when-idle",),
    select="test_tool_failure_http_500_goes_the_declared_way",
    pytest_args=("--toolproof-timeout=3",),
    patches=(
        Patch(
            file="calls.py",
            old="from collections.abc import Mapping\n",
            new="import asyncio\nfrom collections.abc import Mapping\n",
        ),
        Patch(
            file="calls.py",
            old="    except Exception as exc:\n        return tool_failure_text(exc)\n",
            new=(
                "    except Exception:\n"
                "        await asyncio.Event().wait()  # an answer that never comes\n"
                "        raise\n"
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
