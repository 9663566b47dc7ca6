#!/usr/bin/env node
// A protocol v1 adapter on the Node kit for the kit's self-tests (tests/adapter/test_node_kit.py):
// the faux runtime (faux-runtime/, ESM-only) is loaded with kit.importFrom from `--runtime-dir DIR`.
// The test copies this file beside a copy of toolproof/adapter_kit.mjs.
import * as kit from './adapter_kit.mjs';

const argv = process.argv.slice(2);
const runtimeDir = argv[1];
const CAPABILITIES = ['openai.chat'];

class FauxAdapter extends kit.Adapter {
  constructor(runtime) {
    super();
    this.runtime = runtime;
  }

  describe() {
    const version = kit.packageVersion(runtimeDir, 'faux-runtime');
    return kit.hello('faux-kit', version, CAPABILITIES, { runs_per_build: 'independent' });
  }

  create(id, config) {
    kit.refuseUnclaimed(config, CAPABILITIES, 'faux-runtime');
    return this.runtime.createAgent({
      model: { baseURL: config.model.base_url, apiKey: config.model.api_key, name: config.model.name },
      instructions: config.instruction,
      mcpServers: Object.keys(config.mcp_servers ?? {}),
      maxTurns: config.max_tool_turns,
    });
  }

  async invoke(agent, input) {
    const result = await agent.run(input);
    return kit.runOk(result.text, result.stoppedAtCap ? 'max_tool_turns' : 'completed');
  }

  release(agent) {
    return agent.close();
  }

  rules() {
    return [
      ['FauxModelError', 'model_error'],
      [this.runtime.FauxToolError, 'tool_error'],
      [(e) => e === 'a bare string', 'invalid_config'],
    ];
  }
}

// `--runtime-dir DIR` is this adapter's own argument; kit.main sees none (no profiles).
await kit.main(
  async () => {
    console.log('faux adapter: a console.log before the runtime loads');
    return new FauxAdapter(await kit.importFrom(runtimeDir, 'faux-runtime'));
  },
  { argv: argv.slice(2) },
);
