// toolproof adapter kit for Node.js: the plumbing of a candidate protocol v1 adapter
// (contracts/PROTOCOL.md), in one ES module with no dependency beyond Node's built-ins (Node >= 20).
// Vendor it beside your adapter (`toolproof init --lang node` does), or import it from where
// toolproof is installed. The Python kit, `toolproof/adapter.py`, has the same surface.
//
//   import * as kit from './adapter_kit.mjs';
//   kit.protectStdout();                                    // before the runtime is loaded
//   const { Agent } = await kit.importFrom(RUNTIME_DIR, 'my-runtime');
//   await kit.serve({
//     hello: () => ({ implementation, capabilities, options }),   // kit.helloResponse adds the rest
//     build: async (config, id) => agent,                          // the runtime's public build path
//     run: async (agent, input, id) => ({ output, stopReason }),
//     close: async (agent, id) => {},
//     errorRules: [['AI_APICallError', 'model_error'], [SomeClass, 'tool_error'], [(e) => ..., 'invalid_config']],
//   });
//
// Public names:
//   protectStdout()       the protocol writer keeps the real stdout; process.stdout.write and
//                         console.log/info/debug go to stderr; unhandled rejections/exceptions are
//                         logged to stderr (a stray background rejection must not kill the process)
//   importFrom(dir, spec) import a package the way `import` would from `dir` (its node_modules, or
//                         `dir` itself when it is a node_modules): package.json `exports` with the
//                         `import` condition, `main` as the fallback. resolveFrom gives the file,
//                         packageVersion the installed version.
//   serve(adapter)        the JSON Lines loop: one request at a time, in order; lines up to 16 MiB;
//                         blank lines skipped; one flushed ASCII line per response; close-all and
//                         exit at EOF. Dispatcher is the request handling it uses, for tests.
//   AdapterError(kind, message)   an error the adapter raises with a protocol kind of its own choosing
//   errorChain(e)         e, then its `cause` chain and AggregateError `errors`, depth first
//   kindOf(e, rules)      the kind of the first error in the chain a rule matches, else 'internal'
//   refuseUnclaimed(config, capabilities)  invalid_config for a CONFIG key of an unclaimed capability
//   errorResponse(kind, message), failure(e, rules), helloResponse({...})

import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PROTOCOL_VERSION = 1;
export const MAX_ID_LENGTH = 200;
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

// -- stdout discipline ---------------------------------------------------------------------------

let protocolWrite = null;
let serving = false;

/**
 * Keep the real stdout for protocol lines and send everything else to stderr. Idempotent; returns
 * the protocol writer. Static `import`s run before a module's body, so call this first and load the
 * runtime afterwards with `await import(...)` or `importFrom(...)` (which calls it too). Writes to
 * fd 1 itself (`fs.writeSync(1, ...)`, native code, child processes given fd 1) get past it.
 */
export function protectStdout() {
  if (protocolWrite !== null) return protocolWrite;
  protocolWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  console.log = console.info = console.debug = console.error;
  // While serving, a rejected promise nobody awaits (a background MCP stream, say) would kill Node:
  // it is logged instead, and the request in flight reports its own error. Before serve() starts
  // (the runtime failed to load, say) it is fatal: exit 1, never a silent exit 0.
  const onStray = (what) => (e) => {
    console.error(`[adapter] ${serving ? '' : 'before serving, '}${what}:`, e);
    if (!serving) process.exit(1);
  };
  process.on('unhandledRejection', onStray('unhandled rejection'));
  process.on('uncaughtException', onStray('uncaught exception'));
  return protocolWrite;
}

// -- responses and errors ------------------------------------------------------------------------

/** An error the adapter raises itself, carrying its protocol kind (rare by design). */
export class AdapterError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'AdapterError';
    this.kind = kind;
  }
}

/** `{"ok": false, "error": {kind, message}}`. */
export function errorResponse(kind, message) {
  return { ok: false, error: { kind, message } };
}

/** The `hello` answer: `{ok, protocol: 1, implementation, capabilities[, options]}`. */
export function helloResponse({ implementation, capabilities, options }) {
  const hello = { ok: true, protocol: PROTOCOL_VERSION, implementation, capabilities };
  if (options !== undefined) hello.options = options;
  return hello;
}

/**
 * `e`, then what it wraps, depth first: its `cause` chain and, for an AggregateError (or any
 * error with an `errors` array), each inner error. Every error once, so a cycle ends.
 */
export function* errorChain(e) {
  const seen = new Set();
  const stack = [e];
  while (stack.length) {
    const one = stack.pop();
    if (one === undefined || one === null || seen.has(one)) continue;
    seen.add(one);
    yield one;
    const inner = [];
    if (typeof one === 'object' || typeof one === 'function') {
      if (Array.isArray(one.errors)) inner.push(...one.errors);
      if ('cause' in one) inner.push(one.cause);
    }
    stack.push(...inner.reverse());
  }
}

function matches(test, e) {
  if (typeof test === 'string') return e?.name === test;
  if (typeof test === 'function' && (test === Error || test.prototype instanceof Error)) return e instanceof test;
  if (typeof test === 'function') return test(e) === true;
  throw new TypeError(`error rule: a name, a class or a predicate, not ${typeof test}`);
}

/**
 * The protocol kind of `e`: for each error of `errorChain(e)` in turn, an AdapterError's own kind,
 * else the kind of the first rule that matches it. A rule is `[test, kind]`; `test` is an error
 * `name` (a string), a class (`instanceof`) or a predicate `(error) => boolean`. Nothing matched:
 * `internal`.
 */
export function kindOf(e, rules = []) {
  for (const one of errorChain(e)) {
    if (one instanceof AdapterError) return one.kind;
    for (const [test, kind] of rules) {
      if (matches(test, one)) return kind;
    }
  }
  return 'internal';
}

/** The text of whatever was thrown: an Error's message (its name when empty), else its string. */
export function messageOf(e) {
  if (e instanceof Error) return e.message || e.name;
  return String(e?.message ?? e);
}

/** The error response for a thrown `e`: `kindOf(e, rules)` with `e`'s own text. */
export function failure(e, rules = []) {
  return errorResponse(kindOf(e, rules), messageOf(e));
}

/**
 * Refuse, before anything is contacted, a CONFIG key whose capability the adapter does not claim
 * (PROTOCOL.md §7, "the one check an adapter makes itself"): a non-empty `dedup_key` or
 * `dedup_preferred: true` without `toolsets.dedup_key`, a non-null `max_tool_turns` without
 * `loop.turn_cap`. Throws AdapterError `invalid_config` naming each one.
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
  if (!capabilities.includes('loop.turn_cap') && config.max_tool_turns !== undefined && config.max_tool_turns !== null) {
    problems.push(`max_tool_turns is not supported by ${runtime}`);
  }
  if (problems.length) throw new AdapterError('invalid_config', problems.join('; '));
}

// -- request handling ----------------------------------------------------------------------------

class BadRequest extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true }); // a line that is not UTF-8 is malformed

function requestId(request) {
  const id = request.id;
  // 1 to 200 characters, counted as Python counts them (code points), so both kits agree.
  if (typeof id !== 'string' || id.length === 0 || [...id].length > MAX_ID_LENGTH) {
    throw new BadRequest(`malformed request: id must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
  return id;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * One protocol connection: the adapter's builds by id. `adapter` has `hello()` (the fields
 * helloResponse takes), `build(config, id)`, `run(built, input, id)` (`{output, stopReason}`),
 * `close(built, id)` (optional) and `errorRules` (kindOf's table). Every method may be async.
 */
export class Dispatcher {
  constructor(adapter) {
    this.adapter = adapter;
    this.rules = adapter.errorRules ?? [];
    this.builds = new Map();
  }

  async #closeBuilt(built, id) {
    if (this.adapter.close) await this.adapter.close(built, id);
  }

  async build(id, config) {
    let built;
    try {
      built = await this.adapter.build(config, id);
    } catch (e) {
      console.error('[adapter] build failed:', e);
      return failure(e, this.rules);
    }
    // A build under an id already in use replaces it: the earlier one is closed.
    const previous = this.builds.get(id);
    this.builds.set(id, built);
    if (previous !== undefined) {
      await this.#closeBuilt(previous, id).catch((e) => console.error('[adapter] close of a replaced build:', e));
    }
    return { ok: true };
  }

  async run(id, input) {
    if (!this.builds.has(id)) return errorResponse('internal', `unknown id: ${JSON.stringify(id)}`);
    try {
      const { output, stopReason } = await this.adapter.run(this.builds.get(id), input, id);
      return { ok: true, output, stop_reason: stopReason };
    } catch (e) {
      console.error('[adapter] run failed:', e);
      return failure(e, this.rules);
    }
  }

  async close(id) {
    if (!this.builds.has(id)) return errorResponse('internal', `unknown id: ${JSON.stringify(id)}`);
    const built = this.builds.get(id);
    this.builds.delete(id);
    try {
      await this.#closeBuilt(built, id);
      return { ok: true };
    } catch (e) {
      console.error('[adapter] close failed:', e);
      return failure(e, this.rules);
    }
  }

  /** Close every build (end of the connection); failures are logged. */
  async closeAll() {
    for (const id of [...this.builds.keys()]) {
      const response = await this.close(id);
      if (!response.ok) console.error(`[adapter] close at EOF of ${JSON.stringify(id)}:`, response.error.message);
    }
  }

  async #dispatch(request) {
    if (!isObject(request)) throw new BadRequest('malformed request: not a JSON object');
    const op = request.op;
    if (op === 'hello') {
      if (request.protocol !== PROTOCOL_VERSION) {
        throw new BadRequest(`unsupported protocol: ${JSON.stringify(request.protocol) ?? 'absent'}`);
      }
      return helloResponse(await this.adapter.hello());
    }
    if (op !== 'build' && op !== 'run' && op !== 'close') {
      throw new BadRequest(`unknown op: ${JSON.stringify(op) ?? 'absent'}`);
    }
    const id = requestId(request);
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

  /** The response to one decoded request; never throws. */
  async handle(request) {
    try {
      return await this.#dispatch(request);
    } catch (e) {
      if (e instanceof BadRequest) return errorResponse('internal', e.message);
      console.error('[adapter] request failed:', e);
      return errorResponse('internal', `${e?.name ?? 'Error'}: ${messageOf(e)}`);
    }
  }

  /** The response to one request line (a Buffer or string; null: a line over 16 MiB); never throws. */
  async handleLine(line) {
    if (line === null) return errorResponse('internal', 'malformed request: line over 16 MiB');
    let request;
    try {
      request = JSON.parse(typeof line === 'string' ? line : utf8.decode(line));
    } catch (e) {
      return errorResponse('internal', `malformed request: ${messageOf(e)}`);
    }
    return this.handle(request);
  }
}

// -- JSON Lines ----------------------------------------------------------------------------------

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

/** One response as a JSON line, ASCII only: every other character as a \u escape (as Python's json.dumps). */
export function encodeResponse(response) {
  const text = JSON.stringify(response).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${text}\n`;
}

/**
 * Serve `adapter` (see Dispatcher) on stdin/stdout: one request at a time, in order, each answered
 * with exactly one flushed line; at EOF every build is closed and the process exits 0 (pass
 * `{exit: false}` to return instead).
 */
export async function serve(adapter, { input = process.stdin, exit = true } = {}) {
  const write = protectStdout();
  const dispatcher = new Dispatcher(adapter);
  serving = true;
  for await (const line of readLines(input)) {
    const response = await dispatcher.handleLine(line);
    await new Promise((done, fail) => write(encodeResponse(response), (e) => (e ? fail(e) : done())));
  }
  await dispatcher.closeAll();
  if (exit) process.exit(0); // a runtime's keep-alive sockets or timers must not hold the process
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

/** The version in package.json of package `name` as resolved from `dir` (see resolveFrom). */
export function packageVersion(dir, name) {
  return JSON.parse(readFileSync(join(packageDirectory(dir, name), 'package.json'), 'utf8')).version;
}
