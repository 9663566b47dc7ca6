"""A model request as the chat-completions body it stands for, whatever its wire (CONTRACT.md §2 "view").

The semantic checks (toolsets, names, schema meaning, arguments, results,
errors, the loop, receipts) read one shape, the chat-completions request body;
the wire checks read the raw body of their own wire. A chat-completions request
is its own view. A Responses API request is rendered by fixed rules, each one
a renaming, never a repair, from its whole conversation: a stateless request's
`input`, or a chained request's resolved one (`ModelRequest.conversation_body`:
the stored items its `previous_response_id` and references stand for, then the
rest of its input, `toolproof.fakes.responses_store`):

- `instructions` (when present and not null) -> a first message
  `{"role": "instructions", "content": <instructions>}` (its own role, so that
  `instruction_role: instructions` is asserted exactly, never guessed);
- `input` as a string -> one `{"role": "user", "content": <input>}` message;
- a `message` item (typed, or the easy form with `role` and no `type`) ->
  `{"role": <role>, "content": <content>}`, its `input_text` / `output_text`
  parts as chat text parts `{"type": "text", "text": ...}` (any other part
  kept as it arrived, so the checks show it);
- a run of consecutive assistant-side items (assistant `message` items and
  `function_call` items, in any order) -> one assistant message, its content
  the message items' content (string alone, else parts in order; none: null)
  and its `tool_calls` the function calls in order, each
  `{"id": <call_id>, "type": "function", "function": {"name", "arguments"}}`
  (the item `id`, `fc_...`, is not a call id: the wire checks judge it);
- a `function_call_output` item -> `{"role": "tool", "tool_call_id":
  <call_id>, "content": <output>}` (a list output's `input_text` parts as chat
  text parts);
- a `reasoning` item -> nothing (it is the model's own state, replayed for the
  API: the wire's own checks judge it, CONTRACT.md §6e; the conversation it
  belongs to reads the same with and without it);
- any other item (item_reference, ...) -> kept as it arrived;
- `tools`: a flat `{"type": "function", "name", "description", "parameters",
  "strict"}` -> `{"type": "function", "function": {...the same keys...}}`,
  any other tool kept as it arrived; `tool_choice` `{"type": "function",
  "name": n}` -> `{"type": "function", "function": {"name": n}}`;
- every other key (`model`, `stream`, `parallel_tool_calls`, ...) unchanged.

A key absent from the request stays absent from the view; a value of the
wrong type is carried over as it is, so a check reading it fails on it (an
`input` that is neither a string nor a list becomes `messages` as it is, and
`instructions` then shows nowhere: the request schema judges such a body).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

RESPONSES_PATH: Final = "/v1/responses"
"""The Responses API path under a token's base URL's origin (`/<token>/v1/responses`)."""

_TEXT_PARTS: Final = ("input_text", "output_text")
_RENAMED: Final = ("input", "instructions", "tools", "tool_choice")


def is_responses(path: str) -> bool:
    """Whether a recorded model request's raw `path` (`/<token>/...`) is the Responses API path."""
    _, _, tail = path.removeprefix("/").partition("/")
    return "/" + tail == RESPONSES_PATH


def _parts(content: Any) -> Any:
    if not isinstance(content, list):
        return content
    return [
        {"type": "text", "text": part["text"]}
        if isinstance(part, Mapping) and part.get("type") in _TEXT_PARTS and isinstance(part.get("text"), str)
        else part
        for part in content
    ]


def _is_message(item: Any) -> bool:
    return isinstance(item, Mapping) and (
        item.get("type") == "message" or ("type" not in item and "role" in item)
    )


def _assistant_side(item: Any) -> bool:
    if not isinstance(item, Mapping):
        return False
    return item.get("type") == "function_call" or (_is_message(item) and item.get("role") == "assistant")


def _assistant(run: list[Mapping[str, Any]]) -> dict[str, Any]:
    texts = [_parts(item.get("content")) for item in run if item.get("type") != "function_call"]
    content: Any
    if not texts:
        content = None
    elif len(texts) == 1:
        content = texts[0]
    else:  # several message items: their parts in order (a string counts as one text part)
        content = [
            part
            for text in texts
            for part in ([{"type": "text", "text": text}] if isinstance(text, str) else list(text or []))
        ]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    calls = [
        {
            "id": item.get("call_id"),
            "type": "function",
            "function": {"name": item.get("name"), "arguments": item.get("arguments")},
        }
        for item in run
        if item.get("type") == "function_call"
    ]
    if calls:
        message["tool_calls"] = calls
    return message


def _item(item: Any) -> Any:
    if _is_message(item):
        return {"role": item.get("role"), "content": _parts(item.get("content"))}
    if isinstance(item, Mapping) and item.get("type") == "function_call_output":
        return {"role": "tool", "tool_call_id": item.get("call_id"), "content": _parts(item.get("output"))}
    return item


def _messages(body: Mapping[str, Any]) -> list[Any]:
    messages: list[Any] = []
    instructions = body.get("instructions")
    if instructions is not None:
        messages.append({"role": "instructions", "content": instructions})
    given = body.get("input")
    if isinstance(given, str):
        return [*messages, {"role": "user", "content": given}]
    items = list(given) if isinstance(given, list) else []
    run: list[Mapping[str, Any]] = []
    for item in items:
        if isinstance(item, Mapping) and item.get("type") == "reasoning":
            continue
        if _assistant_side(item):
            run.append(item)
            continue
        if run:
            messages.append(_assistant(run))
            run = []
        messages.append(_item(item))
    if run:
        messages.append(_assistant(run))
    return messages


def _tool(tool: Any) -> Any:
    if not (isinstance(tool, Mapping) and tool.get("type") == "function"):
        return tool
    return {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}


def _tool_choice(choice: Any) -> Any:
    if isinstance(choice, Mapping) and choice.get("type") == "function" and "name" in choice:
        return {"type": "function", "function": {"name": choice["name"]}}
    return choice


def chat_view(body: Mapping[str, Any]) -> dict[str, Any]:
    """The chat-completions body a stateless Responses API request body stands for (module docstring)."""
    view = {key: value for key, value in body.items() if key not in _RENAMED}
    given = body.get("input")
    if "input" in body and not isinstance(given, str | list):
        view["messages"] = given
    elif "input" in body or "instructions" in body:
        view["messages"] = _messages(body)
    if "tools" in body:
        tools = body["tools"]
        view["tools"] = [_tool(tool) for tool in tools] if isinstance(tools, list) else tools
    if "tool_choice" in body:
        view["tool_choice"] = _tool_choice(body["tool_choice"])
    return view
