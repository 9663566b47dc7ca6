#!/usr/bin/env node
// toolproof protocol v1 adapter for TODO-your-runtime, on the toolproof Node kit (adapter_kit.mjs,
// beside this file). Written by `toolproof init --lang node`; contracts/PROTOCOL.md is the protocol.
//
// Fill in every `TODO(declare)` (what the runtime is and does: its package, capabilities and the
// options of options.yaml, in toolproof's contracts/ directory) and every `TODO(adapt)` (the code
// that drives the runtime through its public API). Then, in this directory:
//   npm install <your runtime's packages>      (or name another directory: --runtime-dir DIR)
//   toolproof smoke --candidate 'cmd:node adapter.mjs'
//   toolproof probe --candidate 'cmd:node adapter.mjs'     (proposes the options' values, with evidence)
//   toolproof run --candidate 'cmd:node adapter.mjs'
// The adapter never validates, dedups, renames or retries on the runtime's behalf: the suite judges
// the runtime, so it must see what the runtime does.

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// The kit imports only node: built-ins and prints nothing. The runtime is loaded later, in the
// factory kit.main calls once stdout is guarded (a static `import` of it would run before the guard).
import * as kit from './adapter_kit.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** `--runtime-dir DIR` (else this directory), and the arguments left for kit.main. */
function runtimeDirectory(argv) {
  const at = argv.indexOf('--runtime-dir');
  if (at === -1 || at + 1 >= argv.length) return [HERE, argv];
  return [resolve(argv[at + 1]), [...argv.slice(0, at), ...argv.slice(at + 2)]];
}

// TODO(declare) the runtime directory: where `npm install` put the runtime (this directory by
// default, or `--runtime-dir DIR` in the candidate spec: 'cmd:node adapter.mjs --runtime-dir DIR').
const [RUNTIME_DIR, ARGV] = runtimeDirectory(process.argv.slice(2));
// TODO(declare) the runtime's npm package: its public entry point (ESM-only packages work: the kit
// reads package.json `exports` with the `import` condition).
const RUNTIME_PACKAGE = 'TODO-your-runtime-package';

// TODO(declare) capabilities (PROTOCOL.md §7): claim only what the runtime really has. Exactly one
// model wire: 'openai.chat', 'openai.responses' or 'anthropic.messages' (on that wire CONFIG's
// model.base_url has no /v1: Anthropic's clients add /v1/messages; the key goes in x-api-key). A CONFIG key of a capability not claimed here is
// refused with invalid_config before anything is contacted (kit.refuseUnclaimed in buildAgent).
const CAPABILITIES = [
  'openai.chat', // TODO(declare) the model wire: 'openai.chat' | 'openai.responses' | 'anthropic.messages'
  // 'toolsets.namespace', // TODO(declare) duplicate tool names across servers: an error or prefixes (options.yaml#tool_namespacing)
  // 'toolsets.dedup_key', // TODO(declare) CONFIG's dedup_key / dedup_preferred (CONTRACT.md §5)
  // 'loop.turn_cap', // TODO(declare) CONFIG's max_tool_turns (CONTRACT.md §11)
  // 'loop.continuation', // TODO(declare) the runtime's synthetic "continue" messages (options.yaml#continuation)
  // 'mcp.stdio', // TODO(declare) CONFIG stdio servers: command, args, env, cwd (CONTRACT.md §5b)
  // 'mcp.sse', // TODO(declare) CONFIG sse servers: the legacy HTTP+SSE transport (CONTRACT.md §5b)
];

// TODO(declare) options (PROTOCOL.md §9): where correct runtimes differ, the value this runtime's
// behaviour fits; the suite asserts exactly it. Listed here with their defaults; each comment names
// its entry in options.yaml (values, meaning) and the values allowed. Measure, do not guess:
// `toolproof probe` proposes values with the evidence. Where the runtime does none of an option's
// values, leave the default and let the suite show the difference (an --expected-failures baseline).
const OPTIONS = {
  duplicate_tool_phase: 'run', // TODO(declare) options.yaml#duplicate_tool_phase: 'build' | 'run'
  tool_namespacing: 'error', // TODO(declare) options.yaml#tool_namespacing: 'error' | 'prefix'
  invalid_tool_name: 'reject', // TODO(declare) options.yaml#invalid_tool_name: 'alias' | 'reject'
  tool_content: 'string', // TODO(declare) options.yaml#tool_content: 'string' | 'text_parts'
  tool_result_pointer: '', // TODO(declare) options.yaml#tool_result_pointer: string
  multi_block_join: '\n', // TODO(declare) options.yaml#multi_block_join: string
  tool_result_encoding: 'text', // TODO(declare) options.yaml#tool_result_encoding: 'text' | 'json_texts' | 'json_blocks' | 'call_tool_result'
  error_result_encoding: 'text', // TODO(declare) options.yaml#error_result_encoding: 'text' | 'call_tool_result'
  error_result_pointer: null, // TODO(declare) options.yaml#error_result_pointer: string-or-null
  json_tool_text: 'verbatim', // TODO(declare) options.yaml#json_tool_text: 'verbatim' | 'reserialised'
  structured_content: 'text', // TODO(declare) options.yaml#structured_content: 'text' | 'structured' | 'call_tool_result'
  parameters_strict: false, // TODO(declare) options.yaml#parameters_strict: false | true | 'closed' | 'closed_root'
  string_encoded_arguments: 'unwrap', // TODO(declare) options.yaml#string_encoded_arguments: 'unwrap' | 'reject'
  non_object_arguments: 'tool_error_message', // TODO(declare) options.yaml#non_object_arguments: 'wrap_value' | 'tool_error_message' | 'run_error'
  invalid_json_arguments: 'tool_error_message', // TODO(declare) options.yaml#invalid_json_arguments: 'tool_error_message' | 'run_error'
  null_arguments: 'empty_object', // TODO(declare) options.yaml#null_arguments: 'empty_object' | 'non_object'
  empty_array_arguments: 'non_object', // TODO(declare) options.yaml#empty_array_arguments: 'non_object' | 'empty_object'
  undeclared_arguments: 'forward', // TODO(declare) options.yaml#undeclared_arguments: 'forward' | 'drop'
  unknown_tool: 'tool_error_message', // TODO(declare) options.yaml#unknown_tool: 'tool_error_message' | 'run_error'
  tool_failure: 'tool_error_message', // TODO(declare) options.yaml#tool_failure: 'tool_error_message' | 'run_error'
  turn_cap_end: 'error', // TODO(declare) options.yaml#turn_cap_end: 'graceful' | 'error'
  invalid_cap_phase: 'build', // TODO(declare) options.yaml#invalid_cap_phase: 'build' | 'run'
  zero_max_tool_turns: 'unlimited', // TODO(declare) options.yaml#zero_max_tool_turns: 'unlimited' | 'invalid_config' | 'default_cap' | 'no_tool_runs' | 'no_model_request'
  negative_max_tool_turns: 'rejected', // TODO(declare) options.yaml#negative_max_tool_turns: 'rejected' | 'default_cap' | 'no_tool_runs' | 'no_model_request'
  turn_cap_final_call: false, // TODO(declare) options.yaml#turn_cap_final_call: boolean
  turn_cap_final_call_tools: 'omit', // TODO(declare) options.yaml#turn_cap_final_call_tools: 'omit' | 'tool_choice_none'
  cap_stop_reason: 'reported', // TODO(declare) options.yaml#cap_stop_reason: 'reported' | 'not_exposed'
  turn_cap_notice: null, // TODO(declare) options.yaml#turn_cap_notice: string-or-null
  turn_cap_output: 'last_reply', // TODO(declare) options.yaml#turn_cap_output: 'last_reply' | 'tool_results'
  default_max_tool_turns: 10, // TODO(declare) options.yaml#default_max_tool_turns: integer
  continuation: null, // TODO(declare) options.yaml#continuation: string-or-null
  runs_per_build: 'independent', // TODO(declare) options.yaml#runs_per_build: 'conversation' | 'independent'
  empty_reply: 'completes', // TODO(declare) options.yaml#empty_reply: 'completes' | 'reprompts'
  instruction_role: 'system', // TODO(declare) options.yaml#instruction_role: 'system' | 'developer' | 'instructions'
  model_stream: 'never', // TODO(declare) options.yaml#model_stream: 'never' | 'always'
  responses_state: 'stateless', // TODO(declare) options.yaml#responses_state: 'stateless' | 'previous_response_id' | 'item_reference'
  reasoning_replay: 'encrypted', // TODO(declare) options.yaml#reasoning_replay: 'encrypted' | 'by_id' | 'none'
  reasoning_model_name: 'o4-mini', // TODO(declare) options.yaml#reasoning_model_name: string
  items_from_done_events: 'yes', // TODO(declare) options.yaml#items_from_done_events: 'yes' | 'no'
  anthropic_key_header: 'x-api-key', // TODO(declare) options.yaml#anthropic_key_header: 'x-api-key' | 'authorization'
  anthropic_empty_result: 'no_content', // TODO(declare) options.yaml#anthropic_empty_result: 'no_content' | 'empty_array' | 'placeholder'
  anthropic_empty_placeholder: '(no output)', // TODO(declare) options.yaml#anthropic_empty_placeholder: your runtime's text
  idle_answer_seconds: 30, // TODO(declare) options.yaml#idle_answer_seconds: number
  stdio_env_inherit: 'sdk_allowlist', // TODO(declare) options.yaml#stdio_env_inherit: 'all' | 'sdk_allowlist'
  header_non_ascii: 'utf8', // TODO(declare) options.yaml#header_non_ascii: 'utf8' | 'refused'
  tool_list_refresh: 'per_run', // TODO(declare) options.yaml#tool_list_refresh: 'per_run' | 'on_notification' | 'never'
  tool_timeout: 'none', // TODO(declare) options.yaml#tool_timeout: 'config' | 'none' | seconds (a number)
  binary_result_chat: 'placeholder', // TODO(declare) options.yaml#binary_result_chat: 'placeholder' | 'data_url_text' | 'user_message'
  binary_result_responses: 'placeholder', // TODO(declare) options.yaml#binary_result_responses: 'placeholder' | 'data_url_text' | 'user_message' | 'output_parts'
  binary_placeholder: '[MCP tool returned {type} content ({mimeType})]', // TODO(declare) options.yaml#binary_placeholder: your runtime's text
  resource_link_result: 'json_block', // TODO(declare) options.yaml#resource_link_result: 'json_block' | 'placeholder'
  embedded_text_resource: 'text', // TODO(declare) options.yaml#embedded_text_resource: 'text' | 'json_block' | 'placeholder'
};

// TODO(declare) implementation.name and .language (PROTOCOL.md §3, hello: free text).
const NAME = 'TODO-your-runtime';
const LANGUAGE = 'typescript';

/** The runtime's part of the adapter; the kit does the protocol (PROTOCOL.md §3). */
class RuntimeAdapter extends kit.Adapter {
  constructor(runtime) {
    super();
    this.runtime = runtime;
  }

  describe() {
    const version = kit.packageVersion(RUNTIME_DIR, RUNTIME_PACKAGE);
    return kit.hello(NAME, version, CAPABILITIES, OPTIONS, { language: LANGUAGE });
  }

  /** One agent from CONFIG (PROTOCOL.md §5), built the way the runtime's users build one. */
  create(id, config) {
    kit.refuseUnclaimed(config, CAPABILITIES, RUNTIME_PACKAGE);
    // TODO(adapt) The runtime's public build path: the model (config.model: base_url, api_key, name;
    // no other endpoint), the instruction, one MCP client per config.mcp_servers entry (type, url,
    // headers, tool_timeout_s: the per-server call timeout; in CONFIG order), the cap (config.max_tool_turns; absent/null: the runtime's default).
    // Throw what the runtime throws; `id` is opaque (for a runtime that keys sessions by it).
    return this.runtime.createAgent({
      model: { baseURL: config.model.base_url, apiKey: config.model.api_key, name: config.model.name },
      instructions: config.instruction,
      mcpServers: Object.entries(config.mcp_servers).map(([id, server]) => ({ id, ...server })),
      maxTurns: config.max_tool_turns ?? undefined,
    });
  }

  /** One run through the agent's tool loop (PROTOCOL.md §3, run). */
  async invoke(agent, input) {
    // TODO(adapt) output: the text of the run's last model reply, exactly (no trim; '' for none).
    // stop reason: 'completed', or 'max_tool_turns' for a graceful stop at the cap.
    const result = await agent.run(input);
    return kit.runOk(result.text ?? '', result.stoppedAtCap ? 'max_tool_turns' : 'completed');
  }

  /** Release what the build opened (MCP sessions, clients). */
  release(agent) {
    return agent.close(); // TODO(adapt) the runtime's own close/cleanup
  }

  // TODO(adapt) The runtime's errors and their protocol kinds (PROTOCOL.md §4): `[match, kind]`,
  // where match is an error `name`, a class or a predicate. kit.classify walks each error's
  // AggregateError `errors` and `cause` chain; anything no rule matches is `internal`.
  rules() {
    return [
      // ['RateLimitError', 'model_error'],
      // [this.runtime.ToolNotFoundError, 'tool_error'],
      // [(e) => e?.code === 'DUPLICATE_TOOL', 'duplicate_tool'],
    ];
  }
}

// stdout is guarded first; then the factory loads the runtime from RUNTIME_DIR; then stdin is served.
await kit.main(async () => new RuntimeAdapter(await kit.importFrom(RUNTIME_DIR, RUNTIME_PACKAGE)), { argv: ARGV });
