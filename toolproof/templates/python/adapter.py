"""toolproof protocol v1 adapter for MY-RUNTIME, on toolproof's adapter kit.

Written by `toolproof init --lang python`. Two kinds of TODO:

- `TODO(adapt)`: how CONFIG becomes your runtime's objects, how an input runs, how a build closes,
  which of its exceptions mean which error kind (contracts/PROTOCOL.md §3-§5).
- `TODO(declare)`: what your runtime does where correct runtimes differ: the capabilities it has
  (PROTOCOL.md §7) and one value per option (contracts/options.yaml; each line links its entry).
  The values below are the defaults: change each to what your runtime does, never to what the suite
  expects. `toolproof probe` proposes values from the runtime's observed behaviour.

The kit is `toolproof.adapter` where toolproof is installed in the runtime's environment; otherwise
the copy `toolproof_adapter.py` that `toolproof init` wrote beside this file (standard library only,
any Python from 3.11). Run this file with the runtime's own Python:

    toolproof smoke --candidate 'cmd:/path/to/runtime/python adapter.py'
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

try:  # toolproof installed beside the runtime: its kit
    from toolproof import adapter as kit
except ImportError:  # otherwise the kit's copy beside this file (toolproof init wrote it)
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "toolproof_adapter", Path(__file__).resolve().with_name("toolproof_adapter.py")
    )
    assert _spec is not None and _spec.loader is not None
    kit = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = kit
    _spec.loader.exec_module(kit)

NAME = "my-runtime"  # TODO(adapt): hello.implementation.name
DISTRIBUTION = "my-runtime"  # TODO(adapt): the runtime's distribution (its version goes in hello)
HOMEPAGE = None  # TODO(adapt): a URL, or None

# Claim a capability only if the runtime really has the feature (contracts/PROTOCOL.md §7).
CAPABILITIES = [
    "openai.chat",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: the model wire, openai.chat, openai.responses or anthropic.messages (exactly one)
    # "toolsets.namespace",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: duplicate tool names fail or are prefixed (tool_namespacing), never shadowed
    # "toolsets.dedup_key",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: dedup_key / dedup_preferred as CONTRACT.md §5 defines them
    # "loop.turn_cap",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: max_tool_turns as CONTRACT.md §11 defines it
    # "loop.continuation",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: the runtime's "continue" messages, as `continuation` declares
    # "mcp.stdio",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: CONFIG stdio servers (command, args, env, cwd), CONTRACT.md §5b
    # "mcp.sse",  # TODO(declare) contracts/PROTOCOL.md#7-capabilities: CONFIG sse servers (the legacy HTTP+SSE transport), CONTRACT.md §5b
]

# hello.options: every option with its default (a missing option means its default).
OPTIONS: dict[str, Any] = {
    "duplicate_tool_phase": "run",  # TODO(declare) contracts/options.yaml#duplicate_tool_phase: build | run
    "tool_namespacing": "error",  # TODO(declare) contracts/options.yaml#tool_namespacing: error | prefix
    "invalid_tool_name": "reject",  # TODO(declare) contracts/options.yaml#invalid_tool_name: alias | reject
    "tool_content": "string",  # TODO(declare) contracts/options.yaml#tool_content: string | text_parts
    "tool_result_pointer": "",  # TODO(declare) contracts/options.yaml#tool_result_pointer: a string
    "multi_block_join": "\n",  # TODO(declare) contracts/options.yaml#multi_block_join: a string
    "tool_result_encoding": "text",  # TODO(declare) contracts/options.yaml#tool_result_encoding: text | json_texts | json_blocks | call_tool_result
    "error_result_encoding": "text",  # TODO(declare) contracts/options.yaml#error_result_encoding: text | call_tool_result
    "error_result_pointer": None,  # TODO(declare) contracts/options.yaml#error_result_pointer: a string or None
    "json_tool_text": "verbatim",  # TODO(declare) contracts/options.yaml#json_tool_text: verbatim | reserialised
    "structured_content": "text",  # TODO(declare) contracts/options.yaml#structured_content: text | structured | call_tool_result
    "parameters_strict": False,  # TODO(declare) contracts/options.yaml#parameters_strict: False | True | closed | closed_root
    "string_encoded_arguments": "unwrap",  # TODO(declare) contracts/options.yaml#string_encoded_arguments: unwrap | reject
    "non_object_arguments": "tool_error_message",  # TODO(declare) contracts/options.yaml#non_object_arguments: wrap_value | tool_error_message | run_error
    "invalid_json_arguments": "tool_error_message",  # TODO(declare) contracts/options.yaml#invalid_json_arguments: tool_error_message | run_error
    "null_arguments": "empty_object",  # TODO(declare) contracts/options.yaml#null_arguments: empty_object | non_object
    "empty_array_arguments": "non_object",  # TODO(declare) contracts/options.yaml#empty_array_arguments: non_object | empty_object
    "undeclared_arguments": "forward",  # TODO(declare) contracts/options.yaml#undeclared_arguments: forward | drop
    "unknown_tool": "tool_error_message",  # TODO(declare) contracts/options.yaml#unknown_tool: tool_error_message | run_error
    "tool_failure": "tool_error_message",  # TODO(declare) contracts/options.yaml#tool_failure: tool_error_message | run_error
    "turn_cap_end": "error",  # TODO(declare) contracts/options.yaml#turn_cap_end: graceful | error
    "invalid_cap_phase": "build",  # TODO(declare) contracts/options.yaml#invalid_cap_phase: build | run
    "zero_max_tool_turns": "unlimited",  # TODO(declare) contracts/options.yaml#zero_max_tool_turns: unlimited | invalid_config | default_cap | no_tool_runs | no_model_request
    "negative_max_tool_turns": "rejected",  # TODO(declare) contracts/options.yaml#negative_max_tool_turns: rejected | default_cap | no_tool_runs | no_model_request
    "turn_cap_final_call": False,  # TODO(declare) contracts/options.yaml#turn_cap_final_call: True | False
    "turn_cap_final_call_tools": "omit",  # TODO(declare) contracts/options.yaml#turn_cap_final_call_tools: omit | tool_choice_none
    "cap_stop_reason": "reported",  # TODO(declare) contracts/options.yaml#cap_stop_reason: reported | not_exposed
    "turn_cap_notice": None,  # TODO(declare) contracts/options.yaml#turn_cap_notice: a string or None
    "turn_cap_output": "last_reply",  # TODO(declare) contracts/options.yaml#turn_cap_output: last_reply | tool_results
    "default_max_tool_turns": 10,  # TODO(declare) contracts/options.yaml#default_max_tool_turns: an integer
    "continuation": None,  # TODO(declare) contracts/options.yaml#continuation: a string or None
    "runs_per_build": "independent",  # TODO(declare) contracts/options.yaml#runs_per_build: conversation | independent
    "empty_reply": "completes",  # TODO(declare) contracts/options.yaml#empty_reply: completes | reprompts
    "instruction_role": "system",  # TODO(declare) contracts/options.yaml#instruction_role: system | developer | instructions
    "model_stream": "never",  # TODO(declare) contracts/options.yaml#model_stream: never | always
    "responses_state": "stateless",  # TODO(declare) contracts/options.yaml#responses_state: stateless | previous_response_id | item_reference
    "reasoning_replay": "encrypted",  # TODO(declare) contracts/options.yaml#reasoning_replay: encrypted | by_id | none
    "reasoning_model_name": "o4-mini",  # TODO(declare) contracts/options.yaml#reasoning_model_name: a string
    "items_from_done_events": "yes",  # TODO(declare) contracts/options.yaml#items_from_done_events: yes | no
    "anthropic_key_header": "x-api-key",  # TODO(declare) contracts/options.yaml#anthropic_key_header: x-api-key | authorization
    "anthropic_empty_result": "no_content",  # TODO(declare) contracts/options.yaml#anthropic_empty_result: no_content | empty_array | placeholder
    "anthropic_empty_placeholder": "(no output)",  # TODO(declare) contracts/options.yaml#anthropic_empty_placeholder: your runtime's text
    "idle_answer_seconds": 30,  # TODO(declare) contracts/options.yaml#idle_answer_seconds: a number
    "stdio_env_inherit": "sdk_allowlist",  # TODO(declare) contracts/options.yaml#stdio_env_inherit: all | sdk_allowlist
    "header_non_ascii": "utf8",  # TODO(declare) contracts/options.yaml#header_non_ascii: utf8 | refused
    "tool_list_refresh": "per_run",  # TODO(declare) contracts/options.yaml#tool_list_refresh: per_run | on_notification | never
    "tool_timeout": "none",  # TODO(declare) contracts/options.yaml#tool_timeout: config | none | seconds (a number)
    "binary_result_chat": "placeholder",  # TODO(declare) contracts/options.yaml#binary_result_chat: placeholder | data_url_text | user_message
    "binary_result_responses": "placeholder",  # TODO(declare) contracts/options.yaml#binary_result_responses: placeholder | data_url_text | user_message | output_parts
    "binary_placeholder": "[MCP tool returned {type} content ({mimeType})]",  # TODO(declare) contracts/options.yaml#binary_placeholder: your runtime's text
    "resource_link_result": "json_block",  # TODO(declare) contracts/options.yaml#resource_link_result: json_block | placeholder
    "embedded_text_resource": "text",  # TODO(declare) contracts/options.yaml#embedded_text_resource: text | json_block | placeholder
}


class Adapter(kit.Adapter):
    """The runtime's part of the adapter; the kit does the protocol (toolproof.adapter)."""

    def describe(self) -> kit.Response:
        """The hello answer."""
        return kit.hello(NAME, kit.version(DISTRIBUTION), CAPABILITIES, OPTIONS, homepage=HOMEPAGE)

    async def create(self, id: str, config: dict[str, Any]) -> Any:
        """CONFIG -> an agent, through the runtime's public build path (PROTOCOL.md §5)."""
        # Refuse what the runtime has no place for, before contacting anything (PROTOCOL.md §7).
        kit.refuse_unclaimed(config, CAPABILITIES, NAME)
        # TODO(adapt): import the runtime here (after the kit's stdout guard), then build its agent:
        # model: config["model"]["base_url"], ["api_key"], ["name"]; system prompt: config["instruction"];
        # one MCP client per config["mcp_servers"] entry ("url", optional "headers"; optional
        # "tool_timeout_s": the runtime's per-server call timeout, tool_timeout "config"). Connect if the
        # runtime connects at build. Raise what the runtime raises: rules() gives it its kind.
        raise NotImplementedError("TODO(adapt): build the runtime's agent from CONFIG")

    async def invoke(self, agent: Any, input: str) -> kit.Response:
        """One input through the agent's tool loop: the text of the run's last model reply."""
        # TODO(adapt): run the agent; report the last reply's text, untrimmed, and whether the turn
        # cap stopped the run (`kit.run_ok(text, "max_tool_turns")`). Do not count turns here.
        raise NotImplementedError("TODO(adapt): run the agent")

    async def release(self, agent: Any) -> None:
        """Close what was opened for the agent (its MCP sessions, its HTTP client)."""
        # TODO(adapt): the runtime's public close; without one, close what create() opened.

    def rules(self) -> list[kit.Rule]:
        """The runtime's exception types -> error kinds (PROTOCOL.md §4); unmatched: internal."""
        # TODO(adapt): e.g. (my_runtime.ModelError, "model_error"), (my_runtime.MaxTurnsError,
        # "max_tool_turns"), (lambda e: kit.raised_in(e, "validate_limits"), "invalid_config").
        # Never match on message text.
        return []


def factory() -> Adapter:
    """In-process form (`--candidate py:adapter:factory`), where the runtime shares toolproof's env."""
    return Adapter()


def main(argv: list[str] | None = None) -> int:
    """`cmd:` entry point: stdout guarded, then the adapter, then JSON Lines until EOF."""
    return kit.main(factory, argv)


if __name__ == "__main__":
    sys.exit(main())
