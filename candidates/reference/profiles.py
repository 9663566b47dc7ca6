"""The profiles of the reference runtime and the options each declares.

The suite asserts exactly what `hello.options` declares, so the behaviour
switches the runtime reads (namespacing, continuation, cap, notice) are taken
from the same `Profile` object the declaration is built from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .results import BINARY_PLACEHOLDER

CONTINUATION_TEXT = "请根据以上工具结果继续。"
TURN_CAP_NOTICE = "[系统] 已达到最大工具轮次 {n}，任务中止。"
DEFAULT_MAX_TOOL_TURNS = 10
MODEL_CAPABILITIES = {
    "chat": "openai.chat",
    "responses": "openai.responses",
    "anthropic": "anthropic.messages",
}
"""The capability each model wire is claimed as."""
REASONING_MODEL = "o4-mini"
"""The declared `reasoning_model_name`: under this model name the reference keeps a response's
reasoning items and replays them as `reasoning_replay` says."""


@dataclass(frozen=True)
class Profile:
    """One way to run the reference runtime."""

    name: str
    tool_namespacing: str = "error"
    continuation: str | None = None
    turn_cap_notice: str = TURN_CAP_NOTICE
    default_max_tool_turns: int = DEFAULT_MAX_TOOL_TURNS
    multi_block_join: str = "\n"
    stream: bool = False
    """Stream every model request (`model_stream: always`)."""
    wire: str = "chat"
    """The model wire: "chat" (chat completions), "responses" (the Responses API) or "anthropic" (the
    Anthropic Messages API)."""
    state: str = "stateless"
    """How the Responses wire carries the conversation (`responses_state`): "stateless" (the whole
    input every time), "previous_response_id" (stored, chained by id) or "item_reference" (stored,
    earlier responses' items named by id)."""


PROFILES: dict[str, Profile] = {
    "reference": Profile(name="reference"),
    "reference-continuation": Profile(name="reference-continuation", continuation=CONTINUATION_TEXT),
    "reference-prefix": Profile(name="reference-prefix", tool_namespacing="prefix"),
    "reference-stream": Profile(name="reference-stream", stream=True),
    "reference-responses": Profile(name="reference-responses", wire="responses"),
    "reference-responses-stream": Profile(name="reference-responses-stream", stream=True, wire="responses"),
    "reference-responses-chained": Profile(
        name="reference-responses-chained", wire="responses", state="previous_response_id"
    ),
    "reference-responses-chained-stream": Profile(
        name="reference-responses-chained-stream", stream=True, wire="responses", state="previous_response_id"
    ),
    "reference-responses-refs": Profile(
        name="reference-responses-refs", wire="responses", state="item_reference"
    ),
    "reference-anthropic": Profile(name="reference-anthropic", wire="anthropic"),
    "reference-anthropic-stream": Profile(name="reference-anthropic-stream", stream=True, wire="anthropic"),
}


def get_profile(name: str) -> Profile:
    """Return the profile called `name`; ValueError for an unknown name."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown profile {name!r} (known: {known})") from None


def declared_options(profile: Profile) -> dict[str, Any]:
    """The `hello.options` object for `profile` (see contracts/options.yaml).

    On the `responses` wire also `responses_state` (the profile's `state`),
    `reasoning_replay` (`reasoning_replay`: stateless replays each reasoning
    item whole, a stored state names it by id), `reasoning_model_name`
    (`REASONING_MODEL`) and `items_from_done_events` (a `response.completed`
    with an empty `output` is answered from the `response.output_item.done`
    items); on
    the `anthropic` wire `anthropic_key_header` (how the official client sends
    the key).
    """
    options: dict[str, Any] = {
        "duplicate_tool_phase": "build",
        "tool_namespacing": profile.tool_namespacing,
        "invalid_tool_name": "alias",
        "tool_content": "string",
        "tool_result_pointer": "",
        "multi_block_join": profile.multi_block_join,
        "structured_content": "text",
        "string_encoded_arguments": "unwrap",
        "non_object_arguments": "wrap_value",
        "invalid_json_arguments": "tool_error_message",
        "unknown_tool": "tool_error_message",
        "tool_failure": "tool_error_message",
        "turn_cap_end": "graceful",
        "turn_cap_final_call": False,
        "turn_cap_notice": profile.turn_cap_notice,
        "default_max_tool_turns": profile.default_max_tool_turns,
        "continuation": profile.continuation,
        "runs_per_build": "conversation",
        "model_stream": "always" if profile.stream else "never",
        "stdio_env_inherit": "all",
        "header_non_ascii": "utf8",
        "tool_list_refresh": "per_run",
        "tool_timeout": "config",
        "binary_result_chat": "placeholder",
        "binary_result_responses": "output_parts",
        "binary_placeholder": BINARY_PLACEHOLDER,
        "resource_link_result": "json_block",
        "embedded_text_resource": "text",
    }
    if profile.wire == "responses":
        options["responses_state"] = profile.state
        options["reasoning_replay"] = reasoning_replay(profile.state)
        options["reasoning_model_name"] = REASONING_MODEL
        options["items_from_done_events"] = "yes"
    if profile.wire == "anthropic":
        options["anthropic_key_header"] = "authorization"  # the official client's `api_key` is a Bearer token
    return options


def reasoning_replay(state: str) -> str:
    """The declared `reasoning_replay` under responses_state `state`: a stateless request carries
    reasoning items whole (`encrypted`), a stored state leaves them with the server (`by_id`)."""
    return "encrypted" if state == "stateless" else "by_id"


def model_capability(profile: Profile) -> str:
    """The one model wire `profile` claims in `hello.capabilities`."""
    return MODEL_CAPABILITIES[profile.wire]
