#!/usr/bin/env node
// A protocol v1 adapter on the Node kit for the kit's self-tests (tests/adapter/test_node_kit.py):
// the faux runtime (faux-runtime/, ESM-only) is loaded with kit.importFrom from `--runtime-dir DIR`.
// The test copies this file beside a copy of toolproof/adapter_kit.mjs.
import * as kit from './adapter_kit.mjs';

kit.protectStdout();
console.log('faux adapter: a console.log before the runtime loads');
const runtimeDir = process.argv[process.argv.indexOf('--runtime-dir') + 1];
const { createAgent, FauxToolError } = await kit.importFrom(runtimeDir, 'faux-runtime');

await kit.serve({
  hello: () => ({
    implementation: { name: 'faux-kit', version: kit.packageVersion(runtimeDir, 'faux-runtime'), language: 'javascript' },
    capabilities: ['openai.chat'],
    options: { runs_per_build: 'independent' },
  }),
  build: (config) => {
    kit.refuseUnclaimed(config, ['openai.chat'], 'faux-runtime');
    return createAgent({
      model: { baseURL: config.model.base_url, apiKey: config.model.api_key, name: config.model.name },
      instructions: config.instruction,
      mcpServers: Object.keys(config.mcp_servers ?? {}),
      maxTurns: config.max_tool_turns,
    });
  },
  run: async (agent, input) => {
    const result = await agent.run(input);
    return { output: result.text, stopReason: result.stoppedAtCap ? 'max_tool_turns' : 'completed' };
  },
  close: (agent) => agent.close(),
  errorRules: [
    ['FauxModelError', 'model_error'],
    [FauxToolError, 'tool_error'],
    [(e) => e === 'a bare string', 'invalid_config'],
  ],
});
