import 'server-only';
import { createHash } from 'node:crypto';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from 'quickjs-emscripten';
import { TRANSFORM_MEMORY_LIMIT_BYTES, TRANSFORM_OUTPUT_LIMIT_BYTES, TRANSFORM_STACK_LIMIT_BYTES, TRANSFORM_TIME_LIMIT_MS } from './limits';

/**
 * Runs a partner's transformation (issue 46 §3) in QuickJS compiled to WebAssembly: a JavaScript
 * engine with its own heap inside a WebAssembly memory, with no network, file system, timers,
 * `require` or `process` (QuickJS has none of them unless a host adds them, and this one adds
 * nothing). Never node:vm, whose contexts share the host's heap and can reach it.
 *
 * Each configuration's code is compiled once per version (the cache's key is the configuration and
 * a hash of the code) into an engine of its own: its own WebAssembly memory, whose maximum is the
 * memory limit (QuickJS's own allocation limit is not enough under Emscripten: it does not count
 * what arrays grow by), its own stack limit and, per run, a deadline; the input and output cross as
 * JSON strings only. A run that fails in any way
 * throws the runtime away, so the next run starts from freshly compiled code. The key holds the
 * configuration too: two tenants with the same code never share a runtime (its globals).
 */

export type SandboxRun = { ok: true; output: string } | { ok: false; reason: string };

export type SandboxLimits = { timeMs: number; memoryBytes: number; stackBytes: number; outputBytes: number };

export const SANDBOX_LIMITS: SandboxLimits = {
  timeMs: TRANSFORM_TIME_LIMIT_MS,
  memoryBytes: TRANSFORM_MEMORY_LIMIT_BYTES,
  stackBytes: TRANSFORM_STACK_LIMIT_BYTES,
  outputBytes: TRANSFORM_OUTPUT_LIMIT_BYTES,
};

/** Engines kept compiled; the least recently used goes first (each holds at most its memory limit). */
const MAX_COMPILED = 32;

/** The engine's build starts with 16 MiB of memory; its memory may grow from there up to the limit. */
const WASM_PAGE = 64 * 1024;
const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;

type Compiled = { runtime: QuickJSRuntime; context: QuickJSContext; run: QuickJSHandle };

const compiled = new Map<string, Compiled>();

/**
 * The bridge, evaluated before the partner's code so that it holds the engine's own JSON: the
 * handler's input is parsed from a string, its result stringified inside the sandbox (counted in
 * its time and memory), and a thrown value becomes a reason there too.
 */
const BRIDGE = `(function (JSON, String) {
  return function (handler) {
    if (typeof handler !== 'function') return undefined;
    return function (input) {
      try {
        var result = handler(JSON.parse(input));
        if (result && typeof result.then === 'function') return '!resultado-invalido: handler must return synchronously, not a Promise';
        var json = JSON.stringify(result === undefined ? null : result);
        return json === undefined ? '!resultado-invalido: the result is not JSON' : json;
      } catch (error) {
        var name = error && error.name ? String(error.name) : 'Error';
        var message = error && error.message !== undefined ? String(error.message) : String(error);
        return '!excecao: ' + name + ': ' + message;
      }
    };
  };
})(JSON, String)`;

export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Runs `handler(input)` of `code` for `owner` (a configuration id, or a bench's own key). */
export async function runInSandbox(
  owner: string,
  code: string,
  input: string,
  limits: SandboxLimits = SANDBOX_LIMITS,
): Promise<SandboxRun> {
  const key = `${owner}:${codeHash(code)}:${limits.memoryBytes}:${limits.stackBytes}`;
  let entry = compiled.get(key);
  if (entry) {
    compiled.delete(key);
  } else {
    const made = compile(await newEngine(limits), code, limits, Date.now() + limits.timeMs);
    if (!made.ok) return made;
    entry = made.entry;
  }
  entry.runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
  const outcome = call(entry, input, limits);
  if (outcome.ok) keep(key, entry);
  else dispose(entry);
  return outcome;
}

async function newEngine(limits: SandboxLimits): Promise<QuickJSRuntime> {
  const wasmMemory = new WebAssembly.Memory({
    initial: INITIAL_MEMORY_BYTES / WASM_PAGE,
    maximum: Math.max(INITIAL_MEMORY_BYTES, limits.memoryBytes) / WASM_PAGE,
  });
  const engine = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
  return engine.newRuntime();
}

function compile(
  runtime: QuickJSRuntime,
  code: string,
  limits: SandboxLimits,
  deadline: number,
): { ok: true; entry: Compiled } | { ok: false; reason: string } {
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const context = runtime.newContext();
  const fail = (reason: string) => {
    context.dispose();
    runtime.dispose();
    return { ok: false as const, reason };
  };
  const bridge = context.evalCode(BRIDGE, 'bridge.js');
  if (bridge.error) {
    bridge.error.dispose();
    return fail('erro-interno: the sandbox could not start');
  }
  const evaluated = context.evalCode(code, 'transformacao.js', { type: 'global', strict: true });
  if (evaluated.error) {
    const reason = describeError(context, evaluated.error, 'compilacao');
    evaluated.error.dispose();
    bridge.value.dispose();
    return fail(reason);
  }
  evaluated.value.dispose();
  const handler = context.getProp(context.global, 'handler');
  const made = context.callFunction(bridge.value, context.undefined, handler);
  handler.dispose();
  bridge.value.dispose();
  if (made.error) {
    made.error.dispose();
    return fail('erro-interno: the sandbox could not start');
  }
  if (context.typeof(made.value) !== 'function') {
    made.value.dispose();
    return fail('sem-handler: define a function named handler(webhook)');
  }
  return { ok: true, entry: { runtime, context, run: made.value } };
}

function call(entry: Compiled, input: string, limits: SandboxLimits): SandboxRun {
  const { context } = entry;
  const argument = context.newString(input);
  const result = context.callFunction(entry.run, context.undefined, argument);
  argument.dispose();
  if (result.error) {
    const reason = describeError(context, result.error, 'excecao');
    result.error.dispose();
    return { ok: false, reason };
  }
  const output = context.typeof(result.value) === 'string' ? context.getString(result.value) : '';
  result.value.dispose();
  if (output.startsWith('!excecao: ')) {
    const [name = 'Error', ...message] = output.slice('!excecao: '.length).split(': ');
    return { ok: false, reason: reasonOf(name, message.join(': '), 'excecao') };
  }
  if (output.startsWith('!')) return { ok: false, reason: clip(output.slice(1)) };
  if (Buffer.byteLength(output) > limits.outputBytes) {
    return { ok: false, reason: `resultado-grande-demais: the result has more than ${limits.outputBytes} bytes as JSON` };
  }
  return { ok: true, output };
}

/** What the engine threw, by the limit it hit where it is one; only a name and message, never a stack. */
function describeError(context: QuickJSContext, error: QuickJSHandle, fallback: string): string {
  let name = 'Error';
  let message = '';
  try {
    const dumped: unknown = context.dump(error);
    if (dumped && typeof dumped === 'object') {
      const { name: thrownName, message: thrownMessage } = dumped as { name?: unknown; message?: unknown };
      name = typeof thrownName === 'string' ? thrownName : 'Error';
      message = typeof thrownMessage === 'string' ? thrownMessage : '';
    } else message = typeof dumped === 'string' ? dumped : JSON.stringify(dumped);
  } catch {
    message = 'unreadable error';
  }
  return reasonOf(name, message, fallback);
}

/** A limit the engine hit, by its own words for it; anything else as the handler threw it. */
function reasonOf(name: string, message: string, fallback: string): string {
  if (name === 'InternalError' && message === 'interrupted') return `tempo-esgotado: the handler ran past ${SANDBOX_LIMITS.timeMs} ms`;
  if (name === 'InternalError' && message === 'stack overflow') return 'pilha-esgotada: too deep a recursion';
  if (/out of memory|string too long/i.test(message)) {
    return `memoria-esgotada: more than ${SANDBOX_LIMITS.memoryBytes / (1024 * 1024)} MiB`;
  }
  return clip(`${fallback}: ${name}: ${message}`);
}

const MAX_REASON_LENGTH = 300;

function clip(reason: string): string {
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason;
}

function keep(key: string, entry: Compiled): void {
  compiled.set(key, entry);
  while (compiled.size > MAX_COMPILED) {
    const [oldest] = compiled.keys();
    dispose(compiled.get(oldest!)!);
    compiled.delete(oldest!);
  }
}

function dispose(entry: Compiled): void {
  try {
    entry.run.dispose();
    entry.context.dispose();
    entry.runtime.dispose();
  } catch {
    // A runtime left inconsistent by a limit it hit: its memory is the module's to reclaim.
  }
}

/** How many compiled runtimes are kept (for the unit tests: compiled once per version). */
export function compiledCount(): number {
  return compiled.size;
}
