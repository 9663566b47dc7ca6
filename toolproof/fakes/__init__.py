"""The fakes the harness owns and observes through.

`ModelEndpoint` is a scripted model endpoint (OpenAI chat completions and the
Responses API, and Anthropic's Messages API, plain and streamed); `McpServers`
serves real `mcp` SDK servers on the routes of HACKING.md. Both run in a
uvicorn thread on 127.0.0.1 (`ThreadedServer`) and record every request.
"""

from toolproof.fakes.anthropic_wire import RedactedThought, Stopped, Thinking, Thought
from toolproof.fakes.http_thread import ServerThreadError, ThreadedServer
from toolproof.fakes.mcp_servers import McpServers
from toolproof.fakes.mcp_tools import NAMES_LONG_TOOL, NAMES_LONG_TWIN, NAMES_OVERLONG_TOOL, ROUTES
from toolproof.fakes.model_server import ModelEndpoint
from toolproof.fakes.records import NO_RESPONSE, McpRequest, ModelRequest
from toolproof.fakes.replies import AlwaysFail, Call, HttpError, Reply, Runaway, StaleCall, Text, ToolCalls
from toolproof.fakes.responses import DoneEventsOnly, Ended, Forgotten, Reasoned, TextParts
from toolproof.fakes.sse import Cut, Plan, Streamed

__all__ = [
    "NAMES_LONG_TOOL",
    "NAMES_LONG_TWIN",
    "NAMES_OVERLONG_TOOL",
    "NO_RESPONSE",
    "ROUTES",
    "AlwaysFail",
    "Call",
    "Cut",
    "DoneEventsOnly",
    "Ended",
    "Forgotten",
    "HttpError",
    "McpRequest",
    "McpServers",
    "ModelEndpoint",
    "ModelRequest",
    "Plan",
    "Reasoned",
    "RedactedThought",
    "Reply",
    "Runaway",
    "ServerThreadError",
    "StaleCall",
    "Stopped",
    "Streamed",
    "Text",
    "TextParts",
    "Thinking",
    "Thought",
    "ThreadedServer",
    "ToolCalls",
]
