// A fake agent runtime with the API the Node template assumes (toolproof/templates/node/adapter.mjs):
// createAgent({model, instructions, mcpServers, maxTurns}) -> {run(input) -> {text, stoppedAtCap}, close()}.
// Online, a run is one chat-completions request to model.baseURL (the harness's fake endpoint on
// 127.0.0.1) and its reply's text; with model.baseURL "offline" it answers from its settings alone.
// The instruction "throw:<case>" makes createAgent fail in a shape the error-chain tests name.
console.log('faux-runtime: loaded (a banner a library prints: it must reach stderr)');
process.stdout.write('faux-runtime: a write to process.stdout\n');

export class FauxModelError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'FauxModelError';
  }
}

export class FauxToolError extends Error {}

let serial = 0;

function fail(which) {
  switch (which) {
    case 'cause':
      return new Error('outer wrapper', { cause: new Error('middle', { cause: new FauxModelError('endpoint said 500') }) });
    case 'aggregate':
      return new AggregateError([new Error('first'), new FauxToolError('second')], 'two failures');
    case 'plain':
      return new TypeError('nothing known');
    case 'cycle': {
      const a = new Error('a');
      const b = new Error('b', { cause: a });
      a.cause = b;
      return a;
    }
    case 'string':
      return 'a bare string';
    default:
      return new Error(`unknown case ${which}`);
  }
}

export async function createAgent({ model, instructions, mcpServers, maxTurns }) {
  if (instructions.startsWith('throw:')) throw fail(instructions.slice('throw:'.length));
  const number = ++serial;
  console.log(`faux-runtime: built agent ${number} (${mcpServers.length} servers, maxTurns ${maxTurns})`);
  return {
    async run(input) {
      console.log(`faux-runtime: run on agent ${number}`);
      if (input === 'reject in the background') {
        Promise.reject(new Error('a background rejection nobody awaits'));
        return { text: 'still here', stoppedAtCap: false };
      }
      if (model.baseURL === 'offline') return { text: `${instructions}|${input}`, stoppedAtCap: false };
      const response = await fetch(`${model.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${model.apiKey}` },
        body: JSON.stringify({
          model: model.name,
          messages: [
            { role: 'system', content: instructions },
            { role: 'user', content: input },
          ],
        }),
      });
      if (!response.ok) throw new FauxModelError(`model endpoint answered ${response.status}`);
      const body = await response.json();
      return { text: body.choices[0].message.content ?? '', stoppedAtCap: false };
    },
    async close() {
      console.error(`faux-runtime: closed agent ${number}`);
    },
  };
}
