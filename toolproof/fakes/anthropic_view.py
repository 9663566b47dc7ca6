"""An Anthropic Messages request as the chat-completions body it stands for (CONTRACT.md §2 "view").

The semantic checks read one shape, the chat-completions request body
(`toolproof.fakes.views`); an Anthropic Messages request (`POST /v1/messages`,
stateless: `messages` holds the whole conversation) is rendered into it by fixed
rules, each one a renaming, never a repair:

- `system` (when present and not null) -> a first message `{"role": "system",
  "content": <system>}`, its text blocks as chat text parts. On this wire the
  instruction has one place only (a message's role is user or assistant, the
  published document's newer role `system` aside), so the view's role is the
  chat one and the default `instruction_role: system` reads it as it is;
- a message whose `content` is a string -> `{"role": <role>, "content": <content>}`;
- an assistant message's blocks -> one assistant message: its `text` blocks
  as chat text parts `{"type": "text", "text": ...}` and every other block
  that is neither `tool_use` nor thinking (`server_tool_use`, ...) kept as it
  arrived, in order, as its `content` (none: null); its `tool_use` blocks,
  in order, as `tool_calls` `{"id": <id>, "type": "function", "function":
  {"name": <name>, "arguments": <input as JSON text>}}` (compact separators,
  non-ASCII kept: the checks compare arguments JSON-equal);
- any other message's blocks, in order: each `tool_result` block -> a role
  `"tool"` message `{"tool_call_id": <tool_use_id>, "content": <content>}`
  (its text blocks as chat text parts; `content` absent stays absent), and each
  run of consecutive other blocks -> one message of the message's role with
  those blocks as its content (text blocks as chat text parts, any other block
  as it arrived). Where a runtime puts text before its results, the view shows
  it there: the wire's own checks judge place and order on the raw body;
- `tools`: a client tool (one with `input_schema`, `type` absent, null or
  `"custom"`) -> `{"type": "function", "function": {"name", "description",
  "parameters": <input_schema>, ...every other key but type}}`; any other tool
  (a server tool) kept as it arrived;
- `tool_choice` `{"type": "auto"}` -> `"auto"`, `{"type": "any"}` ->
  `"required"`, `{"type": "none"}` -> `"none"`, `{"type": "tool", "name": n}`
  -> `{"type": "function", "function": {"name": n}}`, and its
  `disable_parallel_tool_use` (a boolean) -> `parallel_tool_calls` its negation;
  any other value kept as it arrived;
- every other key (`model`, `max_tokens`, `stream`, `metadata`, ...) unchanged.

What the chat body has no place for is not carried: a block's `cache_control`
and `citations`, a `tool_result`'s `is_error`, an assistant turn's `thinking`
and `redacted_thinking` blocks (replayed model state, not the turn's text: kept
in `content` they would make the turn's text unreadable, CONTRACT.md §2 "text of
a message"); the wire's own checks read them on the raw body (the record's
`json`). A key absent from the request stays absent
from the view; a value of the wrong type is carried over as it is, so a check
reading it fails on it (`messages` that is not a list stays as it came, and
`system` then shows nowhere: the request schema judges such a body).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

ANTHROPIC_PATH: Final = "/v1/messages"
"""The Messages API path under a token's base URL (`/<token>/v1/messages`)."""

_RENAMED: Final = ("system", "messages", "tools", "tool_choice")
_THINKING: Final = ("thinking", "redacted_thinking")
_CHOICES: Final = {"auto": "auto", "any": "required", "none": "none"}


def is_anthropic(path: str) -> bool:
    """Whether a recorded model request's raw `path` (`/<token>/...`) is the Messages API path."""
    _, _, tail = path.removeprefix("/").partition("/")
    return "/" + tail == ANTHROPIC_PATH


def _part(block: Any) -> Any:
    if isinstance(block, Mapping) and block.get("type") == "text" and isinstance(block.get("text"), str):
        return {"type": "text", "text": block["text"]}
    return block


def _parts(content: Any) -> Any:
    return [_part(block) for block in content] if isinstance(content, list) else content


def _arguments(block: Mapping[str, Any]) -> Any:
    if "input" not in block:
        return None
    return json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))


def _is_block(block: Any, kind: str) -> bool:
    return isinstance(block, Mapping) and block.get("type") == kind


def _assistant(content: list[Any]) -> dict[str, Any]:
    kept = [
        _part(block)
        for block in content
        if not (isinstance(block, Mapping) and block.get("type") in ("tool_use", *_THINKING))
    ]
    message: dict[str, Any] = {"role": "assistant", "content": kept or None}
    calls = [
        {
            "id": block.get("id"),
            "type": "function",
            "function": {"name": block.get("name"), "arguments": _arguments(block)},
        }
        for block in content
        if _is_block(block, "tool_use")
    ]
    if calls:
        message["tool_calls"] = calls
    return message


def _result(block: Mapping[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "tool", "tool_call_id": block.get("tool_use_id")}
    if "content" in block:
        message["content"] = _parts(block["content"])
    return message


def _split(role: Any, content: list[Any]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    run: list[Any] = []
    for block in content:
        if not _is_block(block, "tool_result"):
            run.append(_part(block))
            continue
        if run:
            messages.append({"role": role, "content": run})
            run = []
        messages.append(_result(block))
    if run or not content:
        messages.append({"role": role, "content": run})
    return messages


def _message(message: Any) -> list[Any]:
    if not isinstance(message, Mapping):
        return [message]
    role, content = message.get("role"), message.get("content")
    if not isinstance(content, list):
        return [{"role": role, "content": content}]
    if role == "assistant":
        return [_assistant(content)]
    return list(_split(role, content))


def _messages(body: Mapping[str, Any]) -> list[Any]:
    messages: list[Any] = []
    system = body.get("system")
    if system is not None:
        messages.append({"role": "system", "content": _parts(system)})
    for message in body.get("messages") or []:
        messages.extend(_message(message))
    return messages


def _tool(tool: Any) -> Any:
    if not (isinstance(tool, Mapping) and "input_schema" in tool and tool.get("type") in (None, "custom")):
        return tool
    function = {k: v for k, v in tool.items() if k not in ("type", "input_schema")}
    function["parameters"] = tool["input_schema"]
    return {"type": "function", "function": function}


def _tool_choice(view: dict[str, Any], choice: Any) -> None:
    if not isinstance(choice, Mapping):
        view["tool_choice"] = choice
        return
    kind = choice.get("type")
    if isinstance(kind, str) and kind in _CHOICES:
        view["tool_choice"] = _CHOICES[kind]
    elif kind == "tool" and "name" in choice:
        view["tool_choice"] = {"type": "function", "function": {"name": choice["name"]}}
    else:
        view["tool_choice"] = choice
        return
    disable = choice.get("disable_parallel_tool_use")
    if isinstance(disable, bool):
        view["parallel_tool_calls"] = not disable


def anthropic_chat_view(body: Mapping[str, Any]) -> dict[str, Any]:
    """The chat-completions body an Anthropic Messages request body stands for (module docstring)."""
    view = {key: value for key, value in body.items() if key not in _RENAMED}
    given = body.get("messages")
    if "messages" in body and not isinstance(given, list):
        view["messages"] = given
    elif "messages" in body or body.get("system") is not None:
        view["messages"] = _messages(body)
    if "tools" in body:
        tools = body["tools"]
        view["tools"] = [_tool(tool) for tool in tools] if isinstance(tools, list) else tools
    if "tool_choice" in body:
        _tool_choice(view, body["tool_choice"])
    return view
