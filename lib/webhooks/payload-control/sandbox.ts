import 'server-only';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TRANSFORM_MEMORY_LIMIT_BYTES, TRANSFORM_OUTPUT_LIMIT_BYTES, TRANSFORM_STACK_LIMIT_BYTES, TRANSFORM_TIME_LIMIT_MS } from './limits';
import { SANDBOX_WORKER_SOURCE } from './sandbox-worker-source';

/**
 * Runs a partner's transformation (issue 46 §3) in QuickJS compiled to WebAssembly: a JavaScript
 * engine with its own heap inside a WebAssembly memory, with no network, file system, timers,
 * `require` or `process` (QuickJS has none of them unless a host adds them, and this one adds
 * nothing). Never node:vm, whose contexts share the host's heap and can reach it.
 *
 * The engines run in worker threads (sandbox-worker-source.ts), never on the thread that serves
 * requests and sends other deliveries: code that spins until its deadline, or a native loop
 * (a huge Array fill) that the engine's interrupt does not reach until it ends, holds up only its
 * worker. A worker that does not answer within BACKSTOP of a run's time limit is terminated and
 * replaced; the run fails `tempo-esgotado`. A configuration's runs always go to the same worker,
 * where its code stays compiled (keyed by the configuration and a hash of the code).
 */

export type SandboxRun = { ok: true; output: string } | { ok: false; reason: string };

export type SandboxLimits = { timeMs: number; memoryBytes: number; stackBytes: number; outputBytes: number };

export const SANDBOX_LIMITS: SandboxLimits = {
  timeMs: TRANSFORM_TIME_LIMIT_MS,
  memoryBytes: TRANSFORM_MEMORY_LIMIT_BYTES,
  stackBytes: TRANSFORM_STACK_LIMIT_BYTES,
  outputBytes: TRANSFORM_OUTPUT_LIMIT_BYTES,
};

/**
 * Worker threads: one core fewer than the machine has (at least one, at most two), so that code
 * spinning to its deadline in every thread still leaves a core to the thread serving requests and
 * other deliveries. Each keeps engines compiled (least recently used goes first).
 */
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
const MAX_COMPILED_PER_WORKER = 32;
/** How long past its time limit a run may take before its worker is terminated (a native loop, a memory bomb's last allocations). */
const BACKSTOP_MS = 2_000;

type Job = { id: number; owner: string; code: string; input: string | null; limits: SandboxLimits };
type Pending = { job: Job; resolve: (run: SandboxRun) => void };
type Slot = { worker: Worker | null; queue: Pending[]; running: Pending | null; timer: NodeJS.Timeout | null; compiled: number };

const holder = globalThis as typeof globalThis & { __payloadSandbox?: Slot[] };
let nextId = 0;

function slots(): Slot[] {
  holder.__payloadSandbox ??= Array.from({ length: POOL_SIZE }, () => ({
    worker: null,
    queue: [],
    running: null,
    timer: null,
    compiled: 0,
  }));
  return holder.__payloadSandbox;
}

/** quickjs-emscripten as Node resolves it from the server's folder (standalone or the project's), for the worker to require. */
function quickjsPath(): string {
  const bases = [process.cwd(), path.dirname(process.argv[1] ?? process.cwd())];
  for (const base of bases) {
    try {
      return createRequire(path.join(base, 'noop.js')).resolve('quickjs-emscripten');
    } catch {
      // Not there: the next folder.
    }
  }
  throw new Error('quickjs-emscripten is not installed');
}

function startWorker(slot: Slot): Worker {
  const worker = new Worker(SANDBOX_WORKER_SOURCE, {
    eval: true,
    workerData: { quickjsPath: quickjsPath(), maxCompiled: MAX_COMPILED_PER_WORKER },
  });
  worker.on('message', (answer: { id: number; compiled?: number } & SandboxRun) => {
    if (slot.running?.job.id !== answer.id) return;
    slot.compiled = answer.compiled ?? slot.compiled;
    const { resolve } = slot.running;
    finish(slot);
    resolve(answer.ok ? { ok: true, output: answer.output } : { ok: false, reason: answer.reason });
  });
  worker.on('error', () => replace(slot, 'erro-interno: the sandbox stopped'));
  worker.unref();
  return worker;
}

function finish(slot: Slot): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  slot.running = null;
  pump(slot);
}

/** Terminates a worker that hung or died: its run fails with `reason`, the queue goes on in a new one. */
function replace(slot: Slot, reason: string): void {
  const running = slot.running;
  void slot.worker?.terminate();
  slot.worker = null;
  slot.compiled = 0;
  finish(slot);
  running?.resolve({ ok: false, reason });
}

function pump(slot: Slot): void {
  if (slot.running || slot.queue.length === 0) return;
  const pending = slot.queue.shift()!;
  try {
    slot.worker ??= startWorker(slot);
  } catch {
    // No engine to run it on (a build without the package): this run fails, the queue is not left stuck.
    pending.resolve({ ok: false, reason: 'erro-interno: the sandbox could not start' });
    pump(slot);
    return;
  }
  slot.running = pending;
  const { limits } = pending.job;
  slot.timer = setTimeout(() => replace(slot, `tempo-esgotado: the handler ran past ${limits.timeMs} ms`), limits.timeMs + BACKSTOP_MS);
  slot.timer.unref();
  slot.worker.postMessage(pending.job);
}

function slotOf(owner: string): Slot {
  let hash = 0;
  for (let i = 0; i < owner.length; i++) hash = (hash * 31 + owner.charCodeAt(i)) | 0;
  const all = slots();
  return all[Math.abs(hash) % all.length]!;
}

function submit(owner: string, code: string, input: string | null, limits: SandboxLimits): Promise<SandboxRun> {
  const slot = slotOf(owner);
  return new Promise((resolve) => {
    slot.queue.push({ job: { id: ++nextId, owner, code, input, limits }, resolve });
    pump(slot);
  });
}

/** Runs `handler(input)` of `code` for `owner` (a configuration id, or a bench's own key). */
export function runInSandbox(owner: string, code: string, input: string, limits: SandboxLimits = SANDBOX_LIMITS): Promise<SandboxRun> {
  return submit(owner, code, input, limits);
}

/**
 * Why code would not run at all (it does not compile, defines no handler, or its top level hits a
 * limit), or null: checked when a configuration is saved, in an engine thrown away at once.
 */
export async function compileFault(code: string, limits: SandboxLimits = SANDBOX_LIMITS): Promise<string | null> {
  const run = await submit('compile-check', code, null, limits);
  return run.ok ? null : run.reason;
}

/** How many engines the workers keep compiled (for the unit tests: compiled once per version). */
export function compiledCount(): number {
  return slots().reduce((sum, slot) => sum + slot.compiled, 0);
}
