#!/usr/bin/env node
// toolproof candidate protocol v1 adapter for the Vercel AI SDK (npm `ai`).
//
// It does what a user of the SDK writes, and nothing more:
//   - one `createMCPClient({transport: {type: 'http', url, headers}})` per CONFIG server
//     (@ai-sdk/mcp, streamable HTTP; `{type: 'sse', ...}` for an sse server, an
//     `Experimental_StdioMCPTransport({command, args, env, cwd})` for a stdio one), and
//     `client.tools()` for its tools;
//   - the toolsets merged the way the SDK's docs show, `{...a, ...b}`, in CONFIG order;
//   - `createOpenAICompatible({name, baseURL, apiKey}).chatModel(name)` for the model
//     (chat completions); profile `vercel-ai-responses`: `createOpenAI({baseURL, apiKey})(name)`
//     (@ai-sdk/openai's default model, the Responses API) on its default `store` (true: responses
//     stored, earlier items replayed as `item_reference`);
//     profile `vercel-ai-anthropic`: `createAnthropic({baseURL: <base_url>/v1, apiKey})(name)`
//     (@ai-sdk/anthropic, the Anthropic Messages API);
//   - a `ToolLoopAgent({model, instructions, tools, stopWhen})`, and per run
//     `agent.generate({prompt})` (generateText, profile `vercel-ai`, the default) or
//     `agent.stream({prompt})` (streamText, profile `vercel-ai-stream`, `--profile vercel-ai-stream`)
//     with its full stream consumed; `max_tool_turns: N` is `stopWhen: stepCountIs(N)` (one
//     step = one model request), absent/null leaves the SDK's default (`stepCountIs(20)`).
// It never validates, dedups, renames or retries on its own. The SDK has no dedup concept, so
// a CONFIG that uses one is refused with `invalid_config` before any server is contacted
// (CONTRACT.md tp-dedup-unsupported-rejected). See README.md for every declaration.

import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

// The adapter kit (toolproof/adapter_kit.mjs): a copy beside this file (where `toolproof matrix`
// and `toolproof init` put it), else the checkout's toolproof/, else the installed package's.
const KIT = ['./adapter_kit.mjs', '../../toolproof/adapter_kit.mjs', '../../adapter_kit.mjs']
  .map((path) => new URL(path, import.meta.url))
  .find((url) => existsSync(fileURLToPath(url)));
if (KIT === undefined) throw new Error(`adapter_kit.mjs not found beside ${HERE} or in toolproof/`);
const kit = await import(KIT.href);

/**
 * The SDK, from this directory's node_modules. stdout is the protocol channel: kit.main guards it
 * before it calls the factory that loads the SDK (a static `import` would run before the guard).
 */
async function loadSdk() {
  const { ToolLoopAgent, stepCountIs } = await kit.importFrom(HERE, 'ai');
  const { createMCPClient } = await kit.importFrom(HERE, '@ai-sdk/mcp');
  const { Experimental_StdioMCPTransport } = await kit.importFrom(HERE, '@ai-sdk/mcp/mcp-stdio');
  const { createOpenAICompatible } = await kit.importFrom(HERE, '@ai-sdk/openai-compatible');
  const { createOpenAI } = await kit.importFrom(HERE, '@ai-sdk/openai');
  const { createAnthropic } = await kit.importFrom(HERE, '@ai-sdk/anthropic');
  return {
    ToolLoopAgent,
    stepCountIs,
    createMCPClient,
    Experimental_StdioMCPTransport,
    createOpenAICompatible,
    createOpenAI,
    createAnthropic,
  };
}

// Claimed besides the wire. No toolsets.namespace (the SDK merges toolsets as plain objects: no
// error, no prefix) and no toolsets.dedup_key (no such concept). The transports: createMCPClient
// takes {type: 'sse'} (@ai-sdk/mcp dist/index.mjs:2161-2162) and an Experimental_StdioMCPTransport
// (@ai-sdk/mcp/mcp-stdio). See README.md.
const CAPABILITIES = ['loop.turn_cap', 'mcp.stdio', 'mcp.sse'];

// The profiles: the same agent, run through generateText or through streamText, on chat
// completions; or through generateText on @ai-sdk/openai's default model, the Responses API; or
// through generateText on @ai-sdk/anthropic's model, the Anthropic Messages API.
const PROFILES = ['vercel-ai', 'vercel-ai-stream', 'vercel-ai-responses', 'vercel-ai-anthropic'];

// The model wire each profile claims.
const WIRES = {
  'vercel-ai': 'openai.chat',
  'vercel-ai-stream': 'openai.chat',
  'vercel-ai-responses': 'openai.responses',
  'vercel-ai-anthropic': 'anthropic.messages',
};

// The package each profile's model comes from.
const PROVIDERS = {
  'vercel-ai': '@ai-sdk/openai-compatible',
  'vercel-ai-stream': '@ai-sdk/openai-compatible',
  'vercel-ai-responses': '@ai-sdk/openai',
  'vercel-ai-anthropic': '@ai-sdk/anthropic',
};

// What the Responses profile does differently, measured (README.md, "The Responses profile").
const RESPONSES_OPTIONS = {
  // `store` is left unset, the SDK's default: the converter runs with `store ?? true`
  // (src/responses/openai-responses-language-model.ts:298) and the key is left off the wire (:404,
  // :444). Every request sends the whole conversation; an earlier assistant text goes as
  // `{type: 'item_reference', id: 'msg_...'}`, a reasoning item as `{type: 'item_reference',
  // id: 'rs_...'}` (src/responses/convert-to-openai-responses-input.ts:665-673, :1066-1098).
  // previous_response_id is sent only when the caller sets `previousResponseId` (:443), which a
  // ToolLoopAgent never does. Client-executed function calls are the exception: they always go in
  // full, `{type: 'function_call', call_id, name, arguments}` with no item id (:831-846,
  // :921-929; @ai-sdk/openai 3.0.73 "send client-executed tool calls as full function_call items
  // ... so they pair with their function_call_output by call_id", vercel/ai PR #15795), so
  // responses.item-references-as-declared fails (baselined, reported: README.md).
  responses_state: 'item_reference',
  // Under the stored default a reasoning item goes back by reference only (above, :1087-1098);
  // `include: ['reasoning.encrypted_content']` is asked only under `store === false` (:404-409).
  reasoning_replay: 'by_id',
  // A model is a reasoning model by its id: /^o(\d+)(?:-|$)/ (o1, o3, o4-mini, ...) or gpt-N
  // (N >= 5) but not a gpt-5-chat variant (src/openai-language-model-capabilities.ts:46-48, :76-78,
  // :81-99). o4-mini is such an id (and the option's default); under it the instructions go as a
  // `developer` message (:58), which no reasoning test judges.
  reasoning_model_name: 'o4-mini',
  // ToolLoopAgent's `instructions` is a system message; for a model id that is neither o-series nor
  // gpt-5+ (the harness's "conformance-model") systemMessageMode is 'system'
  // (src/openai-language-model-capabilities.ts:58), sent as an input message {role: 'system'}, not
  // as the `instructions` parameter. (An o*/gpt-5 model id gets role 'developer'.)
  instruction_role: 'system',
  // @ai-sdk/mcp hands a result on as `{type: 'content', value: [one part per block]}`
  // (@ai-sdk/mcp src/tool/mcp-client.ts:197 mcpToModelOutput), which the Responses converter sends
  // as `output: [{type: 'input_text', text}, ...]`, one part per text block, no block as `[]`
  // (@ai-sdk/openai src/responses/convert-to-openai-responses-input.ts:160); the chat provider
  // JSON.stringifies that value instead (@ai-sdk/openai-compatible dist/index.mjs:281-284).
  tool_content: 'text_parts',
  tool_result_pointer: '',
  tool_result_encoding: 'text',
  multi_block_join: '', // the blocks' parts, read as their texts joined with ""
  // Non-text blocks (CONTRACT.md §5d): mcpToModelOutput makes an image an `image-data` part and every
  // other non-text block a text part holding the block's JSON (@ai-sdk/mcp dist/index.mjs:2264-2287);
  // the Responses converter sends them in order as `input_image` (its data URL) and `input_text`
  // parts (@ai-sdk/openai dist/index.mjs:4677-4701). So an image is an output part, an embedded text
  // resource (and a resource_link, json_block by default) its block as JSON; an embedded blob is
  // JSON text too (no input_file) and audio fails to parse (@ai-sdk/mcp dist/index.mjs:149-158,
  // :2544-2551): the suite shows both. The chat profiles send the same parts stringified
  // (json_blocks), where no value describes `image-data`.
  binary_result_responses: 'output_parts',
  embedded_text_resource: 'json_block',
};

// What the Anthropic profile does differently, read in @ai-sdk/anthropic's source and measured.
const ANTHROPIC_OPTIONS = {
  // createAnthropic sends an apiKey as `x-api-key` (an authToken as a Bearer token instead):
  // @ai-sdk/anthropic src/anthropic-provider.ts getHeaders (dist/index.mjs:7216-7223).
  anthropic_key_header: 'x-api-key',
  // mcpToModelOutput's `{type: 'content', value: [one part per block]}` (as on the Responses profile)
  // becomes the tool_result's `content: [{type: 'text', text}, ...]`, one text block per text part,
  // no block as `[]` (src/convert-to-anthropic-messages-prompt.ts:617-625, :722-733).
  tool_content: 'text_parts',
  tool_result_pointer: '',
  tool_result_encoding: 'text',
  multi_block_join: '',
  // No block is `content: []` (above). One empty text block is an empty text block, which the API
  // refuses: a defect baselined under anthropic.empty-result-per-option, not a declared shape.
  anthropic_empty_result: 'empty_array',
  // A non-text block is a part holding the block's JSON, as on the other profiles.
  embedded_text_resource: 'json_block',
};

const NAMES = {
  'vercel-ai': 'vercel-ai-sdk',
  'vercel-ai-stream': 'vercel-ai-sdk (stream)',
  'vercel-ai-responses': 'vercel-ai-sdk (responses)',
  'vercel-ai-anthropic': 'vercel-ai-sdk (anthropic)',
};

/** The hello answer of a profile. */
function describe(profile) {
  const stream = profile === 'vercel-ai-stream';
  const responses = profile === 'vercel-ai-responses';
  const provider = PROVIDERS[profile];
  const capabilities = [WIRES[profile], ...CAPABILITIES];
  const options = {
    duplicate_tool_phase: 'build', // client.tools() (tools/list) runs at build, before the agent exists
    tool_content: 'string', // the provider sends a tool result as one string...
    tool_result_pointer: '/0/text', // ...JSON.stringify of the MCP content blocks: [{"type":"text","text":...}]
    // @ai-sdk/mcp (src/tool/mcp-client.ts, tools()) offers {...inputSchema, additionalProperties: false}:
    // the root object is closed, nothing else changes (nested objects and `required` as the server sent).
    parameters_strict: 'closed_root',
    tool_result_encoding: 'json_blocks', // every result, none or several blocks included, is that JSON array
    invalid_json_arguments: 'tool_error_message', // parse failure -> tool-error part -> tool message
    // "null" parses to null and is sent as `arguments: null`: neither value of null_arguments, so
    // the default is left (see expected-failures.yaml).
    undeclared_arguments: 'forward', // MCP tools' jsonSchema() has no validate: every key is sent
    unknown_tool: 'tool_error_message', // NoSuchToolError -> tool-error part -> tool message
    tool_failure: 'tool_error_message', // a throwing MCP call -> tool-error part -> tool message
    continuation: null, // ToolLoopAgent never inserts messages of its own
    turn_cap_end: 'graceful', // stepCountIs(N) ends the loop normally with the last step's text
    turn_cap_notice: null,
    default_max_tool_turns: 20, // ToolLoopAgent's default stopWhen is stepCountIs(20)
    runs_per_build: 'independent', // agent.generate/stream({prompt}) keeps no history between calls
    // agent.stream is streamText: the provider's doStream always sends `stream: true` (without
    // stream_options unless includeUsage, @ai-sdk/openai-compatible dist/index.mjs:671-673);
    // agent.generate is generateText, whose doGenerate never streams (on the Responses model too:
    // no `stream` key at all).
    model_stream: stream ? 'always' : 'never',
    // Experimental_StdioMCPTransport spawns with getEnvironment(config.env): the config's env plus
    // the default allowlist (HOME, LOGNAME, PATH, SHELL, TERM, USER) of the adapter's own
    // (@ai-sdk/mcp dist/mcp-stdio/index.mjs:323-355, :366-373).
    stdio_env_inherit: 'sdk_allowlist',
    // Headers go to fetch as strings, which must be ByteStrings: a character above U+00FF throws a
    // TypeError before anything is sent, one up to U+00FF is sent as its Latin-1 byte, not UTF-8.
    // Neither value holds; the nearest is declared and the suite judges the rest.
    header_non_ascii: 'refused',
    // client.tools() lists each server once, at build (above), into the agent's fixed tool set; the
    // client takes a notification (a message with a method and no id) as an error, "Unsupported
    // message type" (@ai-sdk/mcp dist/index.mjs:2320-2330): the list read at build stays.
    tool_list_refresh: 'never',
    // No tool timeout per server: a tools/call request carries only the caller's abortSignal
    // (@ai-sdk/mcp dist/index.mjs:2592-2609 callTool -> request options {signal}); createMCPClient's
    // timeout bounds initialization alone (:2349-2360). A call waits as long as the server takes.
    tool_timeout: 'none',
    ...(responses ? RESPONSES_OPTIONS : {}),
    ...(profile === 'vercel-ai-anthropic' ? ANTHROPIC_OPTIONS : {}),
  };
  const version = kit.packageVersion(HERE, 'ai', '@ai-sdk/mcp', provider);
  return kit.hello(NAMES[profile], version, capabilities, options, { language: 'typescript', homepage: 'https://ai-sdk.dev' });
}

/**
 * The protocol kind of an SDK error, by its class name (AI SDK errors carry a stable `name`), for
 * kit.classify. Anything unrecognised is `internal`, with its text.
 */
const ERROR_RULES = [
  ['AI_APICallError', 'model_error'], // the model endpoint answered non-2xx and retries are spent/off
  ['AI_RetryError', 'model_error'], // generateText gave up after maxRetries
  ['AI_EmptyResponseBodyError', 'model_error'],
  ['AI_InvalidResponseDataError', 'model_error'],
  ['AI_JSONParseError', 'model_error'],
  ['AI_TypeValidationError', 'model_error'],
  ['AI_NoSuchToolError', 'tool_error'],
  ['AI_InvalidToolInputError', 'tool_error'],
  ['AI_ToolCallRepairError', 'tool_error'],
  ['AI_ToolExecutionError', 'tool_error'],
  ['AI_MCPClientError', 'tool_error'],
];

/** The chat-completions model: `createOpenAICompatible(...).chatModel(name)`. */
function chatModel(sdk, model) {
  const provider = sdk.createOpenAICompatible({ name: 'toolproof', baseURL: model.base_url, apiKey: model.api_key });
  return provider.chatModel(model.name);
}

/**
 * The Responses model: `createOpenAI({baseURL, apiKey})(name)`, @ai-sdk/openai's default model
 * (`provider(modelId)` is `createResponsesModel`, src/openai-provider.ts:219-240).
 */
function responsesModel(sdk, model) {
  const provider = sdk.createOpenAI({ baseURL: model.base_url, apiKey: model.api_key });
  return provider(model.name);
}

/**
 * The Anthropic model: `createAnthropic({baseURL, apiKey})(name)`. The provider's baseURL is the
 * versioned prefix (its default is `https://api.anthropic.com/v1`; requests go to `${baseURL}/messages`,
 * src/anthropic-provider.ts:21-28, dist/index.mjs:4805), so CONFIG's base URL, which has no /v1, gets
 * `/v1` appended, as a user pointing the provider at a proxy of the API writes it.
 */
function anthropicModel(sdk, model) {
  const provider = sdk.createAnthropic({ baseURL: `${model.base_url}/v1`, apiKey: model.api_key });
  return provider(model.name);
}

/** The profile's model. */
function modelOf(sdk, profile, model) {
  if (profile === 'vercel-ai-anthropic') return anthropicModel(sdk, model);
  return profile === 'vercel-ai-responses' ? responsesModel(sdk, model) : chatModel(sdk, model);
}

/**
 * One CONFIG server as createMCPClient's transport: stdio as `new Experimental_StdioMCPTransport({
 * command, args, env, cwd})` (its StdioConfig, @ai-sdk/mcp dist/mcp-stdio/index.d.ts:101-107), http
 * and sse as the config object `{type, url, headers}` (dist/index.mjs:2161-2162 for 'sse').
 */
function mcpTransport(sdk, server) {
  if (server.type === 'stdio') {
    const config = { command: server.command };
    for (const key of ['args', 'env', 'cwd']) if (server[key] !== undefined) config[key] = server[key];
    return new sdk.Experimental_StdioMCPTransport(config);
  }
  const transport = { type: server.type, url: server.url };
  if (server.headers !== undefined) transport.headers = server.headers;
  return transport;
}

/** Build one agent from CONFIG the way an SDK user writes it. */
async function buildAgent(sdk, profile, config) {
  // No toolsets.dedup_key: a CONFIG using it is refused before anything is contacted (PROTOCOL.md §7).
  kit.refuseUnclaimed(config, CAPABILITIES, 'the AI SDK'); // describe()'s claims besides the wire
  const clients = [];
  try {
    let tools = {};
    for (const server of Object.values(config.mcp_servers ?? {})) {
      const client = await sdk.createMCPClient({ transport: mcpTransport(sdk, server) });
      clients.push(client);
      tools = { ...tools, ...(await client.tools()) };
    }
    const settings = {
      model: modelOf(sdk, profile, config.model),
      instructions: config.instruction,
      tools,
    };
    // No providerOptions: the Responses profile's model runs on its default, store: true
    // (docs/03-openai.mdx "store ... Defaults to `true`"; src/responses/openai-responses-language-model.ts:298
    // `store ?? true`), the API stores each response and an earlier assistant text or reasoning item
    // goes back as `{type: "item_reference", id}` (src/responses/convert-to-openai-responses-input.ts:671,
    // :1091): responses_state item_reference (RESPONSES_OPTIONS).
    if (config.max_tool_turns !== undefined && config.max_tool_turns !== null) {
      settings.stopWhen = sdk.stepCountIs(config.max_tool_turns);
    }
    const agent = new sdk.ToolLoopAgent(settings);
    return { agent, clients };
  } catch (e) {
    await closeClients(clients);
    throw e;
  }
}

async function closeClients(clients) {
  const errors = [];
  for (const client of clients) {
    try {
      await client.close();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length) throw errors[0];
}

/**
 * One streamed run: `agent.stream` (streamText with the agent's settings), its full stream
 * consumed as a user does. streamText never rejects for a failed step: the error arrives as an
 * `error` part of the stream (after onError has logged it to stderr), and the steps before it
 * still resolve. The first such part fails the run, mapped by ERROR_RULES. A cut stream's error is
 * named (AI_InvalidResponseDataError when the body ends without a finish_reason, AI_APICallError
 * when the connection breaks); an SSE `{"error": ...}` event arrives as the provider's bare JSON
 * payload (@ai-sdk/openai-compatible dist/index.mjs:775-780), with no class at all: that is the
 * model endpoint's own failure, so such a payload is `model_error`.
 */
async function runAgentStreaming(built, input) {
  const result = await built.agent.stream({ prompt: input });
  let streamError;
  let failed = false;
  for await (const part of result.fullStream) {
    if (part.type === 'error' && !failed) {
      failed = true;
      streamError = part.error;
    }
  }
  if (failed) {
    const { kind } = kit.classify(streamError, ERROR_RULES).error;
    // Only the provider's bare payload (no Error at all) is the endpoint's own failure; an Error
    // no rule knows stays `internal`.
    const payload = !(streamError instanceof Error);
    throw new kit.Fail(kind === 'internal' && payload ? 'model_error' : kind, errorText(streamError));
  }
  const [text, finishReason] = await Promise.all([result.text, result.finishReason]);
  return kit.runOk(text ?? '', finishReason === 'tool-calls' ? 'max_tool_turns' : 'completed');
}

/** The text of whatever a stream's error part carries (an Error, or the provider's JSON payload). */
function errorText(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** One run: `agent.generate`, mapped onto the protocol's run response. */
async function runAgent(built, input) {
  const result = await built.agent.generate({ prompt: input });
  // The loop ends either on a reply without tool calls or because stopWhen fired after a step
  // whose reply asked for tools: that is the turn cap.
  return kit.runOk(result.text ?? '', result.finishReason === 'tool-calls' ? 'max_tool_turns' : 'completed');
}

/** The runtime's part of the adapter; the kit does the protocol. */
class VercelAdapter extends kit.Adapter {
  constructor(profile, sdk) {
    super();
    this.profile = profile;
    this.sdk = sdk;
  }

  describe() {
    return describe(this.profile);
  }

  create(id, config) {
    return buildAgent(this.sdk, this.profile, config);
  }

  invoke(built, input) {
    return this.profile === 'vercel-ai-stream' ? runAgentStreaming(built, input) : runAgent(built, input);
  }

  release(built) {
    return closeClients(built.clients);
  }

  rules() {
    return ERROR_RULES;
  }
}

await kit.main(async (profile) => new VercelAdapter(profile, await loadSdk()), { profiles: PROFILES });
