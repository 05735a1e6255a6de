/**
 * The transformation sandbox's worker thread, as source (sandbox.ts starts it with `eval`): a file
 * of its own would have to be found beside two bundles (Next's standalone server and the lean API
 * bundle), while `quickjs-emscripten` is an ordinary package both resolve. Plain JavaScript, kept
 * small: what it does is what sandbox.ts documents, and transform.test.ts holds it to that.
 *
 * Each configuration's code is compiled once per version (the key is the owner and a hash of the
 * code) into an engine of its own: its own WebAssembly memory, whose maximum is the memory limit
 * (QuickJS's own allocation limit is not enough under Emscripten: it does not count what arrays
 * grow by), its own stack limit and, per run, a deadline. Input and output cross as JSON strings.
 * A run that fails in any way throws its engine away.
 */
export const SANDBOX_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const qjs = require(workerData.quickjsPath);

const MAX_COMPILED = workerData.maxCompiled;
const WASM_PAGE = 64 * 1024;
const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;
const MAX_REASON_LENGTH = 300;
const compiled = new Map();

// Evaluated before the partner's code, so that it holds the engine's own JSON and String.
const BRIDGE = '(function (JSON, String) { return function (handler) {' +
  " if (typeof handler !== 'function') return undefined;" +
  ' return function (input) { try {' +
  '  var result = handler(JSON.parse(input));' +
  "  if (result && typeof result.then === 'function') return '!resultado-invalido: handler must return synchronously, not a Promise';" +
  '  var json = JSON.stringify(result === undefined ? null : result);' +
  "  return json === undefined ? '!resultado-invalido: the result is not JSON' : json;" +
  ' } catch (error) {' +
  "  var name = error && error.name ? String(error.name) : 'Error';" +
  '  var message = error && error.message !== undefined ? String(error.message) : String(error);' +
  "  return '!excecao: ' + name + ': ' + message;" +
  ' } }; }; })(JSON, String)';

function clip(reason) {
  return reason.length > MAX_REASON_LENGTH ? reason.slice(0, MAX_REASON_LENGTH - 1) + '\u2026' : reason;
}

function reasonOf(name, message, fallback, limits) {
  if (name === 'InternalError' && message === 'interrupted') return 'tempo-esgotado: the handler ran past ' + limits.timeMs + ' ms';
  if (name === 'InternalError' && message === 'stack overflow') return 'pilha-esgotada: too deep a recursion';
  if (/out of memory|string too long/i.test(message)) return 'memoria-esgotada: more than ' + limits.memoryBytes / (1024 * 1024) + ' MiB';
  return clip(fallback + ': ' + name + ': ' + message);
}

function describeError(context, error, fallback, limits) {
  let name = 'Error';
  let message = '';
  try {
    const dumped = context.dump(error);
    if (dumped && typeof dumped === 'object') {
      name = typeof dumped.name === 'string' ? dumped.name : 'Error';
      message = typeof dumped.message === 'string' ? dumped.message : '';
    } else message = typeof dumped === 'string' ? dumped : JSON.stringify(dumped);
  } catch {
    message = 'unreadable error';
  }
  return reasonOf(name, message, fallback, limits);
}

function dispose(entry) {
  try {
    entry.run.dispose();
    entry.context.dispose();
    entry.runtime.dispose();
  } catch {
    // An engine left inconsistent by a limit it hit: its memory goes with it.
  }
}

async function newRuntime(limits) {
  const wasmMemory = new WebAssembly.Memory({
    initial: INITIAL_MEMORY_BYTES / WASM_PAGE,
    maximum: Math.max(INITIAL_MEMORY_BYTES, limits.memoryBytes) / WASM_PAGE,
  });
  const engine = await qjs.newQuickJSWASMModuleFromVariant(qjs.newVariant(qjs.RELEASE_SYNC, { wasmMemory }));
  return engine.newRuntime();
}

function compile(runtime, code, limits) {
  runtime.setMaxStackSize(limits.stackBytes);
  const context = runtime.newContext();
  const fail = (reason) => {
    try { context.dispose(); runtime.dispose(); } catch { /* see dispose() */ }
    return { ok: false, reason };
  };
  // Our own bridge runs before the partner's time starts: it is trusted code, and in a new engine it
  // is the first to run, slow while the engine's WebAssembly is still cold. Under the deadline, a
  // loaded machine made it use up the 100 ms and fail every save and trial as "could not start".
  const bridge = context.evalCode(BRIDGE, 'bridge.js');
  if (bridge.error) { bridge.error.dispose(); return fail('erro-interno: the sandbox could not start'); }
  runtime.setInterruptHandler(qjs.shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
  const evaluated = context.evalCode(code, 'transformacao.js', { type: 'global', strict: true });
  if (evaluated.error) {
    const reason = describeError(context, evaluated.error, 'compilacao', limits);
    evaluated.error.dispose();
    bridge.value.dispose();
    return fail(reason);
  }
  evaluated.value.dispose();
  const handler = context.getProp(context.global, 'handler');
  const made = context.callFunction(bridge.value, context.undefined, handler);
  handler.dispose();
  bridge.value.dispose();
  if (made.error) { made.error.dispose(); return fail('erro-interno: the sandbox could not start'); }
  if (context.typeof(made.value) !== 'function') { made.value.dispose(); return fail('sem-handler: define a function named handler(webhook)'); }
  return { ok: true, entry: { runtime, context, run: made.value } };
}

function call(entry, input, limits) {
  const { context } = entry;
  entry.runtime.setInterruptHandler(qjs.shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
  const argument = context.newString(input);
  const result = context.callFunction(entry.run, context.undefined, argument);
  argument.dispose();
  if (result.error) {
    const reason = describeError(context, result.error, 'excecao', limits);
    result.error.dispose();
    return { ok: false, reason };
  }
  const output = context.typeof(result.value) === 'string' ? context.getString(result.value) : '';
  result.value.dispose();
  if (output.startsWith('!excecao: ')) {
    const [name = 'Error', ...message] = output.slice('!excecao: '.length).split(': ');
    return { ok: false, reason: reasonOf(name, message.join(': '), 'excecao', limits) };
  }
  if (output.startsWith('!')) return { ok: false, reason: clip(output.slice(1)) };
  if (Buffer.byteLength(output) > limits.outputBytes) {
    return { ok: false, reason: 'resultado-grande-demais: the result has more than ' + limits.outputBytes + ' bytes as JSON' };
  }
  return { ok: true, output };
}

function keep(key, entry) {
  compiled.set(key, entry);
  while (compiled.size > MAX_COMPILED) {
    const [oldest] = compiled.keys();
    dispose(compiled.get(oldest));
    compiled.delete(oldest);
  }
}

async function handle({ owner, code, input, limits }) {
  // Compile only (a save's check): an engine thrown away at once.
  if (input === null) {
    const made = compile(await newRuntime(limits), code, limits);
    if (!made.ok) return made;
    dispose(made.entry);
    return { ok: true, output: '' };
  }
  const key = owner + ':' + createHash('sha256').update(code).digest('hex');
  let entry = compiled.get(key);
  if (entry) compiled.delete(key);
  else {
    const made = compile(await newRuntime(limits), code, limits);
    if (!made.ok) return made;
    entry = made.entry;
  }
  const outcome = call(entry, input, limits);
  if (outcome.ok) keep(key, entry);
  else dispose(entry);
  return outcome;
}

parentPort.on('message', (job) => {
  handle(job).then(
    (outcome) => parentPort.postMessage({ id: job.id, compiled: compiled.size, ...outcome }),
    (error) => parentPort.postMessage({ id: job.id, ok: false, reason: 'erro-interno: ' + clip(String(error && error.message)) }),
  );
});
`;
