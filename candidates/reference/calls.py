"""Executing one tool call of a model reply.

Declared options unknown_tool, invalid_json_arguments and tool_failure are all
"tool_error_message": the failure becomes the text of that call's tool
message and the run goes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .arguments import InvalidArguments, decode_arguments
from .errors import go_quote
from .hydrate import ServerConfig
from .messages import ErrorText, ToolCall
from .packing import ToolTable
from .results import has_binary_block, output_parts, tool_result_text
from .toolsets import call_server_tool, describe_exception


def unknown_tool_text(name: str) -> ErrorText:
    """The tool message for a call to a name that was not offered (a failure: `ErrorText`)."""
    return ErrorText(f"unknown tool: {go_quote(name)}")


def invalid_arguments_text(reason: str) -> ErrorText:
    """The tool message for arguments that are not JSON (the tool is not called; a failure)."""
    return ErrorText(f"invalid arguments: {reason}")


def tool_failure_text(exc: BaseException) -> ErrorText:
    """The tool message for an MCP call that failed (HTTP error, dropped, JSON-RPC error)."""
    return ErrorText(f"tool error: {describe_exception(exc)}")


async def execute_tool_call(
    call: ToolCall, table: ToolTable, servers: Mapping[str, ServerConfig], join: str, wire: str
) -> str | list[dict[str, Any]]:
    """Run one call and return the content of its tool message.

    On the `responses` wire a result with a binary block is its output parts
    (`binary_result_responses: output_parts`); otherwise its text.
    """
    tool = table.lookup(call.name)
    if tool is None:
        return unknown_tool_text(call.name)
    try:
        arguments = decode_arguments(call.arguments)
    except InvalidArguments as exc:
        return invalid_arguments_text(str(exc))
    try:
        # The server knows the tool by its original MCP name, not the wire name.
        result = await call_server_tool(servers[tool.server_id], tool.original_name, arguments)
    except Exception as exc:
        return tool_failure_text(exc)
    if wire == "responses" and has_binary_block(result):
        return output_parts(result)
    return tool_result_text(result, join)
