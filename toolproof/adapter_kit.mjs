// The Node adapter kit: the plumbing of a toolproof protocol v1 adapter (contracts/PROTOCOL.md), once.
//
// An adapter on the kit writes only what is its runtime's own: how CONFIG becomes an agent, how an
// input runs through it, how it is closed, which errors mean which error kind, and what `hello`
// declares. The kit does the rest, the same way for every adapter: the JSON Lines loop, the stdout
// discipline, request validation, build/run/close by id, the mapping of an error chain to an error
// kind, and loading the runtime from the directory it is installed in.
//
// One ES module, Node >= 20, no dependency beyond Node's built-ins: copy it beside your adapter
// (`toolproof init --lang node` does) or import it from where toolproof is installed
// (toolproof/adapter_kit.mjs). The Python kit, toolproof/adapter.py, has the same surface in
// Python's spelling.
//
//   import * as kit from './adapter_kit.mjs';
//   class MyAdapter extends kit.Adapter {
//     constructor(runtime) { super(); this.runtime = runtime; }
//     describe() { return kit.hello('my-runtime', kit.packageVersion(DIR, 'my-runtime'), ['openai.chat']); }
//     async create(id, config) { return this.runtime.createAgent(...); }      // raise what the runtime raised
//     async invoke(agent, input) { const r = await agent.run(input); return kit.runOk(r.text, 'completed'); }
//     async release(agent) { await agent.close(); }
//     rules() { return [['RateLimitError', 'model_error'], [this.runtime.ToolError, 'tool_error']]; }
//   }
//   await kit.main(async () => new MyAdapter(await kit.importFrom(DIR, 'my-runtime')));
//
// Public names (the Python kit's, in JavaScript's spelling):
//   PROTOCOL_VERSION (1), MAX_LINE_BYTES (16 MiB), MAX_ID_LENGTH (200), KINDS (PROTOCOL.md §4)
//   ok(), runOk(output, stopReason = 'completed'), error(kind, message): responses
//   hello(name, version, capabilities, options, {language, homepage}): the hello answer
//   packageVersion(dir, ...names): the installed version of an npm package ("" when absent), or
//     "name X, name Y" for several (Python: version(*distributions))
//   Fail(kind, message): thrown by adapter code to answer with a kind of its own choosing
//   chain(e): e, then the errors of an AggregateError (`errors`, depth first), then its `cause`; each once
//   classify(e, rules): the error response for e: the first error of chain(e) that is a Fail or that a
//     rule matches gives the kind (message "Name: text"); otherwise internal. A rule is
//     [match, kind]: match is an error `name` (a string: AI SDK-style errors carry a stable one), a
//     class (instanceof) or a predicate (error) => boolean
//   refuseUnclaimed(config, capabilities, runtime): Fail invalid_config for a CONFIG key of a capability
//     hello does not claim (dedup_key, dedup_preferred, max_tool_turns, stdio/sse servers), before
//     anything is contacted
//   Adapter: the base class. Override describe(), create(id, config), invoke(agent, input),
//     release(agent) and rules(); each may be async. It provides hello(), build(id, config),
//     run(id, input), close(id), closeAll(), handle(request) (never throws) and handleLine(line)
//   protectStdout(): the protocol writer; process.stdout.write and console.log/info/debug then go to
//     stderr; a stray rejection or exception is logged while serving (fatal, exit 1, before)
//   readLines(stream): request lines (Buffers) until EOF, blank lines skipped, null for one over 16 MiB
//   writeResponse(write, response): one response line, ASCII-escaped JSON, flushed (a promise)
//   serve(adapter, stdin, write): answer every line in order; at EOF close every build
//   main(factory, {argv, profiles, prog}): the `cmd:` entry point: parse --profile (when profiles are
//     given), protect stdout, THEN call factory() (or factory(profile)), where the runtime is
//     imported, serve stdin until EOF, and exit 0
//   importFrom(dir, specifier), resolveFrom(dir, specifier): `import` as if from a module in dir: the
//     runtime installed in a directory the user names (package.json `exports` with the `import`
//     condition, `main` as the fallback)
//
// Build ids: a build under an id already built replaces it (the old build is released; a failure
// there is logged to stderr). A run or close of an unknown id is `internal`. At EOF every build is
// released.

import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PROTOCOL_VERSION = 1;
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
export const MAX_ID_LENGTH = 200;
export const KINDS = Object.freeze(
  new Set(['invalid_config', 'duplicate_tool', 'dedup_conflict', 'max_tool_turns', 'model_error', 'tool_error', 'internal']),
);

// -- responses -----------------------------------------------------------------------------------

/** `{"ok": true}`: the answer of a build or a close. */
export function ok() {
  return { ok: true };
}

/** The answer of a run: the last reply's text, and `completed` or `max_tool_turns`. */
export function runOk(output, stopReason = 'completed') {
  return { ok: true, output, stop_reason: stopReason };
}

/** `{"ok": false, "error": {kind, message}}`; `kind` must be one of KINDS. */
export function error(kind, message) {
  if (!KINDS.has(kind)) throw new TypeError(`not a protocol error kind: ${JSON.stringify(kind)}`);
  return { ok: false, error: { kind, message } };
}

/** The hello answer in the schema's shape (`options` omitted when undefined: every default holds). */
export function hello(name, version, capabilities, options = undefined, { language = 'javascript', homepage } = {}) {
  const listed = [...capabilities];
  if (!name) throw new TypeError('hello: implementation name must not be empty');
  if (new Set(listed).size !== listed.length) {
    throw new TypeError(`hello: capabilities must be unique, got ${JSON.stringify(listed)}`);
  }
  const implementation = { name, version, language };
  if (homepage !== undefined) implementation.homepage = homepage;
  const response = { ok: true, protocol: PROTOCOL_VERSION, implementation, capabilities: listed };
  if (options !== undefined) response.options = { ...options };
  return response;
}

// -- errors --------------------------------------------------------------------------------------

/** Thrown by adapter code to answer with a kind of its own choosing (rare by design). */
export class Fail extends Error {
  constructor(kind, message) {
    if (!KINDS.has(kind)) throw new TypeError(`not a protocol error kind: ${JSON.stringify(kind)}`);
    super(message);
    this.name = 'Fail';
    this.kind = kind;
  }
}

/**
 * `e`, then what it wraps, depth first: the errors of an AggregateError (or any error with an
 * `errors` array), then its `cause`. Every error once, so a cycle ends.
 */
export function* chain(e) {
  const seen = new Set();
  const pending = [e];
  while (pending.length) {
    const one = pending.pop();
    if (one === undefined || one === null || seen.has(one)) continue;
    seen.add(one);
    yield one;
    const following = [];
    if (typeof one === 'object' || typeof one === 'function') {
      if (Array.isArray(one.errors)) following.push(...one.errors);
      if ('cause' in one) following.push(one.cause);
    }
    pending.push(...following.reverse());
  }
}

function matches(match, e) {
  if (typeof match === 'string') return e?.name === match;
  if (typeof match === 'function' && (match === Error || match.prototype instanceof Error)) return e instanceof match;
  if (typeof match === 'function') return match(e) === true;
  throw new TypeError(`error rule: a name, an Error class or a predicate, not ${typeof match}`);
}

/** An error's text as both kits write it: "Name: message" (its name alone when the message is empty). */
function text(e) {
  if (e instanceof Error || (typeof e?.name === 'string' && 'message' in e)) {
    return e.message ? `${e.name}: ${e.message}` : e.name;
  }
  return String(e);
}

/** The error response for a thrown `e`: the first of its chain a Fail or a rule names; else internal. */
export function classify(e, rules = []) {
  for (const one of chain(e)) {
    if (one instanceof Fail) return error(one.kind, one.message);
    for (const [match, kind] of rules) {
      if (matches(match, one)) return error(kind, text(one));
    }
  }
  return error('internal', text(e));
}

/**
 * Refuse, before anything is contacted, a CONFIG key whose capability the adapter does not claim
 * (PROTOCOL.md §7, "the one check an adapter makes itself"): a non-empty `dedup_key` or
 * `dedup_preferred: true` without `toolsets.dedup_key`, a non-null `max_tool_turns` without
 * `loop.turn_cap`, a server of type `stdio` or `sse` without `mcp.stdio` or `mcp.sse`. Throws Fail `invalid_config` naming each one.
 */
export function refuseUnclaimed(config, capabilities, runtime = 'the runtime') {
  const problems = [];
  if (!capabilities.includes('toolsets.dedup_key')) {
    for (const [id, server] of Object.entries(config.mcp_servers ?? {})) {
      if (typeof server?.dedup_key === 'string' && server.dedup_key !== '') {
        problems.push(`server ${JSON.stringify(id)}: dedup_key is not supported by ${runtime}`);
      }
      if (server?.dedup_preferred === true) {
        problems.push(`server ${JSON.stringify(id)}: dedup_preferred is not supported by ${runtime}`);
      }
    }
  }
  const transportCapability = { stdio: 'mcp.stdio', sse: 'mcp.sse' };
  for (const [id, server] of Object.entries(config.mcp_servers ?? {})) {
    const needed = transportCapability[server?.type];
    if (needed !== undefined && !capabilities.includes(needed)) {
      problems.push(`server ${JSON.stringify(id)}: type ${server.type} is not supported by ${runtime}`);
    }
  }
  if (!capabilities.includes('loop.turn_cap') && config.max_tool_turns !== undefined && config.max_tool_turns !== null) {
    problems.push(`max_tool_turns is not supported by ${runtime}`);
  }
  if (problems.length) throw new Fail('invalid_config', problems.join('; '));
}

// -- the adapter ---------------------------------------------------------------------------------

class BadRequest extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true }); // a line that is not UTF-8 is malformed
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function buildId(request) {
  const id = request.id;
  // 1 to 200 characters, counted as Python counts them (code points), so both kits agree.
  if (typeof id !== 'string' || id.length === 0 || [...id].length > MAX_ID_LENGTH) {
    throw new BadRequest(`malformed request: id must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
  return id;
}

/** One protocol connection: builds by id. Subclass it and override the hooks (each may be async). */
export class Adapter {
  constructor() {
    this.agents = new Map();
  }

  // Hooks. ---------------------------------------------------------------------------------------

  /** The hello answer (`hello(...)`): the runtime, its capabilities and declared options. */
  describe() {
    throw new Error('describe() must return the hello answer');
  }

  /** CONFIG -> an agent, through the runtime's public build path. Throw what the runtime threw. */
  create(id, config) {
    throw new Error('create(id, config) must build an agent');
  }

  /** One input through `agent`: the run's answer (`runOk(...)`, or `error(...)`). Throw on failure. */
  invoke(agent, input) {
    throw new Error('invoke(agent, input) must run the agent');
  }

  /** Close what was opened for `agent` (MCP sessions, clients). Default: nothing to close. */
  release(agent) {}

  /** The error table (see classify). */
  rules() {
    return [];
  }

  // The protocol. --------------------------------------------------------------------------------

  async hello() {
    return this.describe();
  }

  /** Build an agent under `id`, replacing (and releasing) one already built under it. */
  async build(id, config) {
    let agent;
    try {
      agent = await this.create(id, config);
    } catch (e) {
      console.error('[adapter] build failed:', e);
      return classify(e, this.rules());
    }
    const previous = this.agents.get(id);
    this.agents.set(id, agent);
    if (previous !== undefined) {
      try {
        await this.release(previous);
      } catch (e) {
        console.error(`[adapter] releasing the build replaced under ${JSON.stringify(id)} failed:`, e);
      }
    }
    return ok();
  }

  /** One run of the agent built under `id`. */
  async run(id, input) {
    if (!this.agents.has(id)) return error('internal', `unknown id: ${JSON.stringify(id)}`);
    try {
      return await this.invoke(this.agents.get(id), input);
    } catch (e) {
      console.error('[adapter] run failed:', e);
      return classify(e, this.rules());
    }
  }

  /** Release the agent built under `id`; the id is unknown afterwards. */
  async close(id) {
    if (!this.agents.has(id)) return error('internal', `unknown id: ${JSON.stringify(id)}`);
    const agent = this.agents.get(id);
    this.agents.delete(id);
    try {
      await this.release(agent);
      return ok();
    } catch (e) {
      console.error('[adapter] close failed:', e);
      return classify(e, this.rules());
    }
  }

  /** Release every build (end of the connection). */
  async closeAll() {
    for (const id of [...this.agents.keys()]) await this.close(id);
  }

  /** Validate and answer one decoded request; never throws. */
  async handle(request) {
    try {
      return await this.#dispatch(request);
    } catch (e) {
      if (e instanceof BadRequest) return error('internal', e.message);
      console.error('[adapter] request failed:', e);
      try {
        return classify(e, this.rules());
      } catch (inner) {
        return error('internal', text(inner));
      }
    }
  }

  /** Answer one raw request line (a Buffer or string; null: a line over 16 MiB); never throws. */
  async handleLine(line) {
    if (line === null) return error('internal', 'malformed request: line over 16 MiB');
    let request;
    try {
      request = JSON.parse(typeof line === 'string' ? line : utf8.decode(line));
    } catch (e) {
      return error('internal', `malformed request: ${e.message}`);
    }
    return this.handle(request);
  }

  async #dispatch(request) {
    if (!isObject(request)) throw new BadRequest('malformed request: not a JSON object');
    const op = request.op;
    if (op === 'hello') {
      if (request.protocol !== PROTOCOL_VERSION) {
        throw new BadRequest(`unsupported protocol: ${JSON.stringify(request.protocol ?? null)}`);
      }
      return this.hello();
    }
    if (op !== 'build' && op !== 'run' && op !== 'close') {
      throw new BadRequest(`unknown op: ${JSON.stringify(op ?? null)}`);
    }
    const id = buildId(request);
    if (op === 'build') {
      if (!isObject(request.config)) throw new BadRequest('malformed request: config must be an object');
      return this.build(id, request.config);
    }
    if (op === 'run') {
      if (typeof request.input !== 'string') throw new BadRequest('malformed request: input must be a string');
      return this.run(id, request.input);
    }
    return this.close(id);
  }
}

// -- JSON Lines over stdio -----------------------------------------------------------------------

let protocolWrite = null;
let serving = false;

/**
 * The protocol writer: the real stdout's write. process.stdout.write and console.log/info/debug
 * then go to stderr. Idempotent. Static `import`s run before a module's body, so load the runtime
 * after this, with `await import(...)` or importFrom (main does it in that order). Writes to fd 1
 * itself (`fs.writeSync(1, ...)`, native code, a child given fd 1) get past it.
 */
export function protectStdout() {
  if (protocolWrite !== null) return protocolWrite;
  protocolWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  console.log = console.info = console.debug = console.error;
  // While serving, a rejected promise nobody awaits (a background MCP stream, say) would kill Node:
  // it is logged instead, and the request in flight reports its own error. Before serving (the
  // runtime failed to load, say) it is fatal: exit 1, never a silent exit 0.
  const onStray = (what) => (e) => {
    console.error(`[adapter] ${serving ? '' : 'before serving, '}${what}:`, e);
    if (!serving) process.exit(1);
  };
  process.stdout.on('error', (e) => (e.code === 'EPIPE' ? process.exit(0) : onStray('stdout error')(e)));
  process.on('unhandledRejection', onStray('unhandled rejection'));
  process.on('uncaughtException', onStray('uncaught exception'));
  return protocolWrite;
}

const NEWLINE = 0x0a;
const ASCII_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]); // what Python's bytes.strip() removes

/**
 * Request lines from a byte stream until EOF: each a Buffer (without its newline), or null for a
 * line over 16 MiB (the rest of it is skipped). Blank lines (ASCII whitespace only) are skipped.
 */
export async function* readLines(stream, maxBytes = MAX_LINE_BYTES) {
  let parts = [];
  let size = 0;
  let oversized = false;
  const finish = function* () {
    if (oversized) {
      yield null;
    } else if (size > 0) {
      const bytes = Buffer.concat(parts, size);
      if (!bytes.every((b) => ASCII_SPACE.has(b))) yield bytes;
    }
    parts = [];
    size = 0;
    oversized = false;
  };
  for await (const chunk of stream) {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const stop = end === -1 ? chunk.length : end;
      if (!oversized) {
        if (size + (stop - start) > maxBytes) {
          oversized = true;
          parts = [];
        } else {
          parts.push(chunk.subarray(start, stop));
        }
        size += stop - start;
      }
      if (end === -1) break;
      yield* finish();
      start = end + 1;
    }
  }
  yield* finish();
}

/**
 * One response line, flushed (resolves once written). ASCII only: every other character as a \u
 * escape, DEL too, as Python's json.dumps writes them, so a lone surrogate cannot break the line.
 */
export function writeResponse(write, response) {
  const line = `${JSON.stringify(response).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
  return new Promise((done, fail) => write(line, (e) => (e ? fail(e) : done())));
}

/** Answer every request line of `stdin` in order; at EOF release every build. */
export async function serve(adapter, stdin = process.stdin, write = protectStdout()) {
  serving = true;
  for await (const line of readLines(stdin)) {
    await writeResponse(write, await adapter.handleLine(line));
  }
  await adapter.closeAll();
}

/**
 * The `cmd:` entry point: stdout guarded first, then `factory()` (where the runtime is imported),
 * then serve stdin until EOF and exit 0 (a runtime's keep-alive sockets or timers must not hold the
 * process). With `profiles`, `--profile NAME` (default: the first) is parsed and passed to factory;
 * any other argument is a usage error (exit 2).
 */
export async function main(factory, { argv = process.argv.slice(2), profiles = [], prog = 'adapter.mjs' } = {}) {
  const usage = `usage: ${prog}${profiles.length ? ` [--profile ${profiles.join('|')}]` : ''}`;
  let profile = profiles[0];
  for (let i = 0; i < argv.length; i++) {
    if (profiles.length && argv[i] === '--profile' && i + 1 < argv.length) profile = argv[++i];
    else if (profiles.length && argv[i].startsWith('--profile=')) profile = argv[i].slice('--profile='.length);
    else {
      console.error(`[adapter] ${usage}`);
      process.exit(2);
    }
  }
  if (profiles.length && !profiles.includes(profile)) {
    console.error(`[adapter] unknown profile ${JSON.stringify(profile)} (one of ${profiles.join(', ')})`);
    process.exit(2);
  }
  const write = protectStdout(); // before the factory: what the runtime prints while it loads goes to stderr
  const adapter = await (profiles.length ? factory(profile) : factory());
  try {
    await serve(adapter, process.stdin, write);
  } catch (e) {
    if (e?.code === 'EPIPE') process.exit(0); // the reader is gone: the session is over
    console.error('[adapter] serving failed:', e);
    process.exit(1);
  }
  process.exit(0);
}

// -- resolving a runtime's packages from a directory ---------------------------------------------

// What `import` resolves under in Node: conditions in the order a package lists them, the first
// one of these that matches wins.
const IMPORT_CONDITIONS = new Set(['node', 'import', 'default']);

const isFile = (path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

function splitSpecifier(specifier) {
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, count).join('/');
  if (parts.length < count || parts.slice(0, count).some((p) => p === '') || name.startsWith('.')) {
    throw new TypeError(`not a package specifier: ${JSON.stringify(specifier)}`);
  }
  const rest = parts.slice(count).join('/');
  return { name, subpath: rest === '' ? '.' : `./${rest}` };
}

/** The directory of package `name` as `import` finds it from `dir`: `dir`'s node_modules, then its parents'. */
function packageDirectory(dir, name) {
  const start = resolvePath(dir);
  if (basename(start) === 'node_modules' && isFile(join(start, name, 'package.json'))) return join(start, name);
  for (let at = start; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (isFile(join(candidate, 'package.json'))) return candidate;
    if (dirname(at) === at) break;
  }
  const error = new Error(`Cannot find package '${name}' from ${start} (no node_modules/${name}/package.json there or above)`);
  error.code = 'ERR_MODULE_NOT_FOUND';
  throw error;
}

function notExported(name, subpath, root) {
  const error = new Error(`Package subpath '${subpath}' is not defined by "exports" in ${join(root, 'package.json')} (${name}, import conditions)`);
  error.code = 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  return error;
}

/** A target of `exports` (string, array, conditions object or null) under the import conditions. */
function resolveTarget(root, target, star) {
  if (typeof target === 'string') {
    if (!target.startsWith('./')) return undefined; // invalid target: not inside the package
    const path = star === undefined ? target : target.replaceAll('*', star);
    return join(root, path);
  }
  if (Array.isArray(target)) {
    for (const one of target) {
      const found = resolveTarget(root, one, star);
      if (found !== undefined && found !== null) return found;
    }
    return undefined;
  }
  if (isObject(target)) {
    for (const [condition, inner] of Object.entries(target)) {
      if (!IMPORT_CONDITIONS.has(condition)) continue;
      const found = resolveTarget(root, inner, star);
      if (found !== undefined) return found; // null: this condition matched and excludes the path
    }
    return undefined;
  }
  return target === null ? null : undefined;
}

/** The subpath map of `exports`: a string, array or conditions object is the map `{".": exports}`. */
function subpathMap(exports) {
  if (typeof exports === 'string' || Array.isArray(exports)) return { '.': exports };
  const keys = Object.keys(exports);
  const dotted = keys.filter((k) => k.startsWith('.'));
  if (dotted.length === 0) return { '.': exports };
  if (dotted.length !== keys.length) throw new Error('package.json "exports" mixes subpaths and conditions');
  return exports;
}

function resolveExports(root, name, exports, subpath) {
  const map = subpathMap(exports);
  let found;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) {
    found = resolveTarget(root, map[subpath]);
  } else {
    // Subpath patterns ("./features/*"): the longest matching prefix wins, as in Node.
    let best;
    for (const key of Object.keys(map)) {
      const star = key.indexOf('*');
      if (star === -1 || key.indexOf('*', star + 1) !== -1) continue;
      const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
      if (!subpath.startsWith(prefix) || subpath === prefix) continue;
      if (!subpath.endsWith(suffix) || subpath.length < key.length) continue;
      if (best === undefined || prefix.length > best.prefix.length) best = { key, prefix, suffix };
    }
    if (best !== undefined) {
      const match = subpath.slice(best.prefix.length, subpath.length - best.suffix.length);
      found = resolveTarget(root, map[best.key], match);
    }
  }
  if (found === undefined || found === null) throw notExported(name, subpath, root);
  return found;
}

/** `main` as Node's legacy resolution reads it for `import`: the file, with extensions and index files tried; else index.*. */
function resolveMain(root, main) {
  const tries = typeof main === 'string' && main !== ''
    ? [main, `${main}.js`, `${main}.json`, `${main}.node`, join(main, 'index.js'), join(main, 'index.json'), join(main, 'index.node')]
    : [];
  for (const one of [...tries, 'index.js', 'index.json', 'index.node']) {
    const path = join(root, one);
    if (isFile(path)) return path;
  }
  const error = new Error(`Cannot find the main entry of ${root} (main: ${JSON.stringify(main)})`);
  error.code = 'ERR_MODULE_NOT_FOUND';
  throw error;
}

/**
 * The file `import(specifier)` loads when resolved from directory `dir`: the package found in
 * `dir`'s node_modules (or in `dir` itself when it is a node_modules directory), then in its
 * parents'; its package.json `exports` (a string, subpaths, conditions, patterns) read with the
 * conditions `node`, `import`, `default`, or, without `exports`, its `main` (subpath "."), or the
 * subpath as a file. `node:` built-ins, file URLs and paths resolve as themselves (relative ones from `dir`).
 */
export function resolveFrom(dir, specifier) {
  if (specifier.startsWith('node:') || specifier.startsWith('file:')) return specifier;
  if (isAbsolute(specifier)) return specifier;
  if (specifier.startsWith('./') || specifier.startsWith('../')) return resolvePath(dir, specifier);
  const { name, subpath } = splitSpecifier(specifier);
  const root = packageDirectory(dir, name);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (manifest.exports !== undefined && manifest.exports !== null) {
    return resolveExports(root, name, manifest.exports, subpath);
  }
  if (subpath === '.') return resolveMain(root, manifest.main);
  const path = join(root, subpath);
  if (isFile(path)) return path;
  const error = new Error(`Cannot find module '${path}' (package ${name} has no "exports")`);
  error.code = 'ERR_MODULE_NOT_FOUND';
  throw error;
}

/**
 * `import(specifier)` as if written in a module inside `dir`: a runtime installed in a directory the
 * user names (`npm install --prefix DIR`), whatever its package.json `exports` say. Calls
 * protectStdout() first: whatever the runtime prints while it loads lands on stderr.
 */
export async function importFrom(dir, specifier) {
  protectStdout();
  const target = resolveFrom(dir, specifier);
  const url = target.startsWith('node:') || target.startsWith('file:') ? target : pathToFileURL(target).href;
  return import(url);
}

/**
 * The installed version of npm package `name` as resolved from `dir` (its package.json; "" when
 * not installed), or "name X, name Y" for several names, for `hello`.
 */
export function packageVersion(dir, ...names) {
  const one = (name) => {
    try {
      return String(JSON.parse(readFileSync(join(packageDirectory(dir, name), 'package.json'), 'utf8')).version ?? '');
    } catch (e) {
      if (e.code === 'ERR_MODULE_NOT_FOUND') return '';
      throw e;
    }
  };
  if (names.length === 1) return one(names[0]);
  return names.map((name) => `${name} ${one(name)}`).join(', ');
}
