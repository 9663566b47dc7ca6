"""The fakes the harness owns and observes through.

`ModelEndpoint` is a scripted OpenAI chat-completions endpoint; `McpServers`
serves real `mcp` SDK servers on the routes of HACKING.md. Both run in a
uvicorn thread on 127.0.0.1 (`ThreadedServer`) and record every request.
"""

from conformance.fakes.http_thread import ServerThreadError, ThreadedServer
from conformance.fakes.mcp_servers import McpServers
from conformance.fakes.mcp_tools import NAMES_LONG_TOOL, ROUTES
from conformance.fakes.model_server import ModelEndpoint
from conformance.fakes.records import NO_RESPONSE, McpRequest, ModelRequest
from conformance.fakes.replies import Call, HttpError, Reply, Runaway, Text, ToolCalls

__all__ = [
    "NAMES_LONG_TOOL",
    "NO_RESPONSE",
    "ROUTES",
    "Call",
    "HttpError",
    "McpRequest",
    "McpServers",
    "ModelEndpoint",
    "ModelRequest",
    "Reply",
    "Runaway",
    "ServerThreadError",
    "Text",
    "ThreadedServer",
    "ToolCalls",
]
